package analytics

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// FeatureRank is one missing feature (code + detail) and what it blocks.
type FeatureRank struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
	// Kind is the kind of gap the code names (GapKind).
	Kind string `json:"kind"`
	// Blocks is the number of module occurrences missing this feature.
	Blocks int64 `json:"blocks"`
	// Unlocks is the number of occurrences for which it is the only
	// missing feature: implementing it alone moves them on.
	Unlocks int64 `json:"unlocks"`
	// DistinctBitcode is the number of distinct bitcode SHA-256s among
	// the blocked occurrences.
	DistinctBitcode int64 `json:"distinct_bitcode"`
	// UnlocksDistinct is Unlocks counted in distinct bitcode.
	UnlocksDistinct int64 `json:"unlocks_distinct_bitcode"`
	// Examples names a few blocked modules, those it unlocks first.
	Examples []ModuleKey `json:"examples"`
}

// blockers returns a row's distinct missing features. A failed module whose
// missing list is empty counts its failure code and detail as its one
// blocker; a module that did not fail has none.
func blockers(r *Row) []Finding {
	if len(r.Missing) == 0 {
		if r.FailedStage == "" {
			return nil
		}
		return []Finding{{Code: r.FailureCode, Detail: r.FailureDetail}}
	}
	if len(r.Missing) == 1 {
		return r.Missing
	}
	seen := make(map[Finding]bool, len(r.Missing))
	out := make([]Finding, 0, len(r.Missing))
	for _, m := range r.Missing {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// RankFeatures ranks the missing features of a run's rows by unlocks, then
// blocks, then code and detail, with up to examples example modules each.
func RankFeatures(rows []Row, examples int) []FeatureRank {
	type acc struct {
		FeatureRank
		shas, soleShas map[string]bool
		sole, other    []ModuleKey
	}
	by := map[Finding]*acc{}
	for i := range rows {
		r := &rows[i]
		bl := blockers(r)
		for _, b := range bl {
			a := by[b]
			if a == nil {
				a = &acc{FeatureRank: FeatureRank{Code: b.Code, Detail: b.Detail, Kind: GapKind(b.Code)},
					shas: map[string]bool{}, soleShas: map[string]bool{}}
				by[b] = a
			}
			a.Blocks++
			a.shas[r.BitcodeSHA256] = true
			if len(bl) == 1 {
				a.Unlocks++
				a.soleShas[r.BitcodeSHA256] = true
				if len(a.sole) < examples {
					a.sole = append(a.sole, r.Key())
				}
			} else if len(a.other) < examples {
				a.other = append(a.other, r.Key())
			}
		}
	}
	out := make([]FeatureRank, 0, len(by))
	for _, a := range by {
		fr := a.FeatureRank
		fr.DistinctBitcode = int64(len(a.shas))
		fr.UnlocksDistinct = int64(len(a.soleShas))
		fr.Examples = append(a.sole, a.other...)
		if len(fr.Examples) > examples {
			fr.Examples = fr.Examples[:examples]
		}
		out = append(out, fr)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Unlocks != b.Unlocks {
			return a.Unlocks > b.Unlocks
		}
		if a.Blocks != b.Blocks {
			return a.Blocks > b.Blocks
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Detail < b.Detail
	})
	return out
}

// SoleBlocked counts the modules with exactly one missing feature, the
// total the features table's unlocks column must add up to.
func SoleBlocked(rows []Row) int64 {
	return SoleBlockedWhere(rows, func(Finding) bool { return true })
}

// SoleBlockedWhere counts the modules with exactly one missing feature
// that keep accepts.
func SoleBlockedWhere(rows []Row, keep func(Finding) bool) int64 {
	var n int64
	for i := range rows {
		if bl := blockers(&rows[i]); len(bl) == 1 && keep(bl[0]) {
			n++
		}
	}
	return n
}

// GapKinds are the kinds of gap, in the order reports list them: a stage's
// own gaps by the stage's name, and "reference" for what the CPU reference
// cannot run yet (codes STAGE/no-reference: the emulator and device stages
// set such modules aside, the translator is not at fault).
var GapKinds = []string{"container", "reader", "translate", "compile", "emulator", "reference", "device"}

// gapTitles says what each kind of gap is, for table titles.
var gapTitles = map[string]string{
	"container": "container gaps (libraries not taken apart)",
	"reader":    "reader gaps (bitcode not read)",
	"translate": "translator gaps (AIR not carried to SPIR-V)",
	"compile":   "compile gaps (drivers refused the SPIR-V)",
	"emulator":  "emulator failures (lavapipe disagreed with the reference, or could not run it)",
	"reference": "reference gaps (what the CPU reference cannot run yet)",
	"device":    "device gaps",
}

// GapKind returns the kind of gap a failure code names: "reference" for
// STAGE/no-reference, else the stage its code begins with (a code without
// a stage, like "cancelled", is its own kind).
func GapKind(code string) string {
	stage, rest, ok := strings.Cut(code, "/")
	if !ok {
		return code
	}
	if rest == "no-reference" {
		return "reference"
	}
	return stage
}

// MatchCode reports whether code is want or lies under it: "translate"
// and "translate/" match every translate/... code.
func MatchCode(code, want string) bool {
	want = strings.TrimSuffix(want, "/")
	return code == want || strings.HasPrefix(code, want+"/")
}

// FeatureSelect narrows FeatureTables: Kind to one kind of gap (its table
// shown even when empty), Code to a code or a prefix of codes (MatchCode).
type FeatureSelect struct {
	Kind string
	Code string
}

// keeps reports whether a missing feature is selected.
func (s FeatureSelect) keeps(f Finding) bool {
	return (s.Kind == "" || GapKind(f.Code) == s.Kind) && (s.Code == "" || MatchCode(f.Code, s.Code))
}

// FeatureTables ranks a run's missing features separately for each kind of
// gap (GapKinds order, then any other kind by name), one table per kind
// that has a selected feature. Each table's unlocks must add up to the
// modules whose one missing feature is a selected one of its kind, counted
// apart from the ranking. It also returns the features the tables list
// (limit per kind), for JSON.
func FeatureTables(rows []Row, sel FeatureSelect, limit, examples int) ([]*Table, []FeatureRank) {
	ranked := RankFeatures(rows, examples)
	kinds := slices.Clone(GapKinds)
	var extra []string
	for _, fr := range ranked {
		if !slices.Contains(kinds, fr.Kind) && !slices.Contains(extra, fr.Kind) {
			extra = append(extra, fr.Kind)
		}
	}
	sort.Strings(extra)
	kinds = append(kinds, extra...)
	var out []*Table
	var listed []FeatureRank
	for _, k := range kinds {
		if sel.Kind != "" && k != sel.Kind {
			continue
		}
		var part []FeatureRank
		for _, fr := range ranked {
			if fr.Kind == k && sel.keeps(Finding{Code: fr.Code, Detail: fr.Detail}) {
				part = append(part, fr)
			}
		}
		if len(part) == 0 && sel.Kind == "" {
			continue
		}
		n := len(part)
		if limit > 0 && n > limit {
			n = limit
		}
		listed = append(listed, part[:n]...)
		t := FeaturesTable(part, limit, SoleBlockedWhere(rows, func(f Finding) bool { return GapKind(f.Code) == k && sel.keeps(f) }))
		t.Name = "features_" + k
		title := gapTitles[k]
		if title == "" {
			title = k
		}
		t.Title = "Missing features: " + title
		out = append(out, t)
	}
	return out, listed
}

// FeaturesTable renders a ranking as a table; with limit > 0, features past
// the first limit are folded into one "other" row. Its unlocks column must
// add up to sole, the number of modules with exactly one missing feature
// (SoleBlocked over the same rows).
func FeaturesTable(ranked []FeatureRank, limit int, sole int64) *Table {
	t := &Table{
		Name: "features", Title: "Missing features, ranked",
		Note: "blocks: modules missing it; unlocks: modules for which it is the only missing feature; " +
			"distinct: the same counted in distinct bitcode",
		Columns: []string{"code", "detail", "unlocks", "blocks", "unlocks distinct", "blocks distinct", "examples"},
	}
	var other FeatureRank
	folded := 0
	for i, fr := range ranked {
		if limit > 0 && i >= limit {
			other.Unlocks += fr.Unlocks
			other.Blocks += fr.Blocks
			folded++
			continue
		}
		ex := ""
		for j, k := range fr.Examples {
			if j > 0 {
				ex += "; "
			}
			ex += k.Source + "!" + k.Function
		}
		t.Rows = append(t.Rows, []any{fr.Code, fr.Detail, fr.Unlocks, fr.Blocks, fr.UnlocksDistinct, fr.DistinctBitcode, ex})
	}
	if folded > 0 {
		t.Rows = append(t.Rows, []any{fmt.Sprintf("(%d others)", folded), "", other.Unlocks, other.Blocks, "", "", ""})
	}
	t.Sums = []Sum{{Column: 2, Total: sole, What: "the modules with exactly one missing feature"}}
	return t
}

package analytics

import (
	"fmt"
	"sort"
)

// FeatureRank is one missing feature (code + detail) and what it blocks.
type FeatureRank struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
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
				a = &acc{FeatureRank: FeatureRank{Code: b.Code, Detail: b.Detail},
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
	var n int64
	for i := range rows {
		if len(blockers(&rows[i])) == 1 {
			n++
		}
	}
	return n
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

package analytics

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Change classes of a module between two runs.
const (
	// Improved: the module reached a later stage than before.
	Improved = "improved"
	// Regressed: the module reached an earlier stage than before and
	// failed there (a judged failure, not a set-aside).
	Regressed = "regressed"
	// SetAside: the module reached an earlier stage than before because a
	// stage could not judge it now (unjudged, unavailable, skipped).
	SetAside = "set-aside"
	// Changed: same stage reached, but a different outcome, failure code
	// or detail.
	Changed = "changed"
	// Unchanged: same stage reached, same outcome, code and detail.
	Unchanged = "unchanged"
	// New: the module is only in the new run.
	New = "new"
	// Gone: the module is only in the old run.
	Gone = "gone"
)

// DiffClasses lists the change classes in report order.
var DiffClasses = []string{Regressed, SetAside, Changed, Improved, New, Gone, Unchanged}

// ModuleState is what one run says about one module.
type ModuleState struct {
	Reached string `json:"stage_reached"`
	Status  string `json:"status"`
	Stage   string `json:"stage"`
	Code    string `json:"failure_code,omitempty"`
	Detail  string `json:"failure_detail,omitempty"`
}

func stateOf(r *Row) *ModuleState {
	stage, status := r.Outcome()
	return &ModuleState{Reached: r.StageReached, Status: status, Stage: stage, Code: r.FailureCode, Detail: r.FailureDetail}
}

// ModuleChange is one module's change between two runs; Old is nil for a
// new module and New for a gone one.
type ModuleChange struct {
	Module ModuleKey    `json:"module"`
	Class  string       `json:"class"`
	Old    *ModuleState `json:"old,omitempty"`
	New    *ModuleState `json:"new,omitempty"`
}

// DiffResult compares two runs module by module.
type DiffResult struct {
	OldRun string `json:"old_run"`
	NewRun string `json:"new_run"`
	// OldBuild and NewBuild are the builds that wrote the runs (run.json's
	// build; zero for a run written before it was recorded).
	OldBuild Build `json:"old_build"`
	NewBuild Build `json:"new_build"`
	// OldModules and NewModules are the runs' row counts.
	OldModules int64 `json:"old_modules"`
	NewModules int64 `json:"new_modules"`
	// Matched is the number of modules present in both runs.
	Matched int64            `json:"matched"`
	Counts  map[string]int64 `json:"counts"`
	// Changes lists every module whose class is not unchanged, sorted by
	// class (DiffClasses order) then module.
	Changes []ModuleChange `json:"changes"`
}

// Regressions returns the number of regressed modules.
func (d *DiffResult) Regressions() int64 { return d.Counts[Regressed] }

// contentKey identifies a module across runs by content, not by the path
// it was reached through: the library's SHA-256, the function's index and
// name, and the bitcode's SHA-256. A row whose library has no SHA-256 (a
// file that could not be read) falls back to its source relative to its
// run's roots.
type contentKey struct {
	library  string
	index    int32
	function string
	bitcode  string
	path     string
}

// diffEntry is one row of a diff side, with its source relative to the
// run's roots.
type diffEntry struct {
	row *Row
	rel string
}

func keyOf(r *Row, rel string) contentKey {
	k := contentKey{library: r.LibrarySHA256, index: r.FunctionIndex, function: r.Function, bitcode: r.BitcodeSHA256}
	if k.library == "" {
		k.path = rel
	}
	return k
}

// RelativeSource is a row's source relative to the run's roots (the root
// as typed is dropped; a single-file root keeps its file name); a source
// under no root is returned as it is.
func RelativeSource(source string, roots []string) string {
	best := ""
	for _, r := range roots {
		r = strings.TrimRight(r, "/")
		if r == "" || len(r) <= len(best) {
			continue
		}
		if source == r || strings.HasPrefix(source, r+"/") || strings.HasPrefix(source, r+"!") {
			best = r
		}
	}
	if best == "" {
		return source
	}
	rest := strings.TrimPrefix(source[len(best):], "/")
	if rest == "" || strings.HasPrefix(rest, "!") {
		return path.Base(best) + rest
	}
	return rest
}

// Diff compares old and new rows by content (library SHA-256, function
// index and name, bitcode SHA-256), so the same corpus reached through
// another path matches. Rows with the same key in one run (identical
// copies of a library) are paired by relative source first, then in order.
// Module keys in the result show sources relative to the runs' roots.
func Diff(oldRun, newRun *Run) *DiffResult {
	d := &DiffResult{OldRun: oldRun.ID(), NewRun: newRun.ID(), OldBuild: oldRun.Meta.Build, NewBuild: newRun.Meta.Build,
		OldModules: int64(len(oldRun.Rows)), NewModules: int64(len(newRun.Rows)), Counts: map[string]int64{}}
	for _, c := range DiffClasses {
		d.Counts[c] = 0
	}
	olds := map[contentKey][]*diffEntry{}
	var oldOrder []contentKey
	for i := range oldRun.Rows {
		e := &diffEntry{row: &oldRun.Rows[i], rel: RelativeSource(oldRun.Rows[i].Source, oldRun.Meta.Roots)}
		k := keyOf(e.row, e.rel)
		if olds[k] == nil {
			oldOrder = append(oldOrder, k)
		}
		olds[k] = append(olds[k], e)
	}
	add := func(c ModuleChange) {
		d.Counts[c.Class]++
		if c.Class != Unchanged {
			d.Changes = append(d.Changes, c)
		}
	}
	shown := func(e *diffEntry) ModuleKey {
		k := e.row.Key()
		k.Source = e.rel
		return k
	}
	var news []*diffEntry
	for i := range newRun.Rows {
		news = append(news, &diffEntry{row: &newRun.Rows[i], rel: RelativeSource(newRun.Rows[i].Source, newRun.Meta.Roots)})
	}
	pair := map[*diffEntry]*diffEntry{}
	// Same content at the same relative path pairs first.
	for _, n := range news {
		k := keyOf(n.row, n.rel)
		for j, o := range olds[k] {
			if o.rel == n.rel {
				pair[n] = o
				olds[k] = append(olds[k][:j:j], olds[k][j+1:]...)
				break
			}
		}
	}
	for _, n := range news {
		if pair[n] == nil {
			if k := keyOf(n.row, n.rel); len(olds[k]) > 0 {
				pair[n] = olds[k][0]
				olds[k] = olds[k][1:]
			}
		}
	}
	for _, n := range news {
		o := pair[n]
		if o == nil {
			add(ModuleChange{Module: shown(n), Class: New, New: stateOf(n.row)})
			continue
		}
		d.Matched++
		add(ModuleChange{Module: shown(n), Class: classify(o.row, n.row), Old: stateOf(o.row), New: stateOf(n.row)})
	}
	for _, k := range oldOrder {
		for _, o := range olds[k] {
			add(ModuleChange{Module: shown(o), Class: Gone, Old: stateOf(o.row)})
		}
	}
	order := map[string]int{}
	for i, c := range DiffClasses {
		order[c] = i
	}
	sort.SliceStable(d.Changes, func(i, j int) bool {
		a, b := d.Changes[i], d.Changes[j]
		if a.Class != b.Class {
			return order[a.Class] < order[b.Class]
		}
		if a.Module.Source != b.Module.Source {
			return a.Module.Source < b.Module.Source
		}
		if a.Module.Function != b.Module.Function {
			return a.Module.Function < b.Module.Function
		}
		return a.Module.BitcodeSHA256 < b.Module.BitcodeSHA256
	})
	return d
}

// classify compares one module's old and new rows.
func classify(o, n *Row) string {
	oi, ni := stageIndex(o.StageReached), stageIndex(n.StageReached)
	_, ns := n.Outcome()
	_, os := o.Outcome()
	switch {
	case ni > oi:
		return Improved
	case ni < oi && isSetAside(ns):
		return SetAside
	case ni < oi:
		return Regressed
	case ns != os || o.FailedStage != n.FailedStage || o.FailureCode != n.FailureCode || o.FailureDetail != n.FailureDetail:
		return Changed
	}
	return Unchanged
}

// Tables returns the diff's tables: the classes (adding up to every module
// of either run), stage transitions of the modules that moved, and a
// listing of changed modules of each class, up to limit per class (0: all).
func (d *DiffResult) Tables(limit int) []*Table {
	sum := &Table{
		Name: "diff_summary", Title: "Modules by change",
		Note:    "modules are matched by content (library SHA-256 + function + bitcode SHA-256), not by path; sources shown relative to the runs' roots",
		Columns: []string{"change", "modules"},
		Sums: []Sum{{Column: 1, Total: d.NewModules + d.OldModules - d.Matched,
			What: fmt.Sprintf("new run's %d modules + old run's %d - %d matched", d.NewModules, d.OldModules, d.Matched)}},
	}
	for _, c := range DiffClasses {
		sum.Rows = append(sum.Rows, []any{c, d.Counts[c]})
	}

	type tr struct{ class, from, to string }
	trs := newCounter[tr]()
	for _, c := range d.Changes {
		if c.Class == Improved || c.Class == Regressed || c.Class == SetAside {
			trs.add(tr{c.Class, reachedLabel(c.Old.Reached), reachedLabel(c.New.Reached)}, 1)
		}
	}
	moved := d.Counts[Improved] + d.Counts[Regressed] + d.Counts[SetAside]
	trans := &Table{
		Name: "diff_transitions", Title: "Stage transitions",
		Columns: []string{"change", "was reached", "now reached", "modules"},
		Sums:    []Sum{{Column: 3, Total: moved, What: "improved + regressed + set-aside modules"}},
	}
	for _, k := range trs.ranked(func(a, b tr) bool { return a.class+a.from+a.to < b.class+b.from+b.to }) {
		trans.Rows = append(trans.Rows, []any{k.class, k.from, k.to, trs.n[k]})
	}

	list := &Table{
		Name: "diff_modules", Title: "Changed modules",
		Columns: []string{"change", "module", "was", "now", "modules"},
	}
	shown := map[string]int{}
	folded := map[string]int64{}
	for _, c := range d.Changes {
		if limit > 0 && shown[c.Class] >= limit {
			folded[c.Class]++
			continue
		}
		shown[c.Class]++
		list.Rows = append(list.Rows, []any{c.Class, c.Module.String(), stateText(c.Old), stateText(c.New), int64(1)})
	}
	for _, c := range DiffClasses {
		if folded[c] > 0 {
			list.Rows = append(list.Rows, []any{c, fmt.Sprintf("(%d more)", folded[c]), "", "", folded[c]})
		}
	}
	list.Sums = []Sum{{Column: 4, Total: int64(len(d.Changes)), What: "the modules whose change is not unchanged"}}
	return []*Table{sum, trans, list}
}

func reachedLabel(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// stateText says what a run said about a module in one cell.
func stateText(s *ModuleState) string {
	if s == nil {
		return "-"
	}
	t := "reached " + reachedLabel(s.Reached)
	if s.Status != EndedPassed {
		t += "; " + s.Status + " at " + s.Stage
	}
	if s.Code != "" {
		t += ": " + s.Code
		if s.Detail != "" {
			t += " " + s.Detail
		}
	}
	return t
}

// Document returns the diff as a printable document.
func (d *DiffResult) Document(limit int) *Document {
	return &Document{
		Title: "airpipe diff",
		Header: []string{
			fmt.Sprintf("old run %s (%d modules), new run %s (%d modules), %d matched", d.OldRun, d.OldModules, d.NewRun, d.NewModules, d.Matched),
			fmt.Sprintf("old build %s, new build %s", d.OldBuild.Brief(), d.NewBuild.Brief()),
			fmt.Sprintf("%d regressed, %d set aside, %d changed, %d improved, %d new, %d gone",
				d.Counts[Regressed], d.Counts[SetAside], d.Counts[Changed], d.Counts[Improved], d.Counts[New], d.Counts[Gone]),
		},
		Tables: d.Tables(limit),
		JSON:   d,
	}
}

package analytics

import (
	"fmt"
	"sort"
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

// Diff compares old and new rows by module key (bitcode SHA-256, source,
// function). Rows with the same key in one run (the same library read
// twice) are paired in order.
func Diff(oldRun, newRun *Run) *DiffResult {
	d := &DiffResult{OldRun: oldRun.ID(), NewRun: newRun.ID(), OldBuild: oldRun.Meta.Build, NewBuild: newRun.Meta.Build,
		OldModules: int64(len(oldRun.Rows)), NewModules: int64(len(newRun.Rows)), Counts: map[string]int64{}}
	for _, c := range DiffClasses {
		d.Counts[c] = 0
	}
	olds := map[ModuleKey][]*Row{}
	for i := range oldRun.Rows {
		k := oldRun.Rows[i].Key()
		olds[k] = append(olds[k], &oldRun.Rows[i])
	}
	add := func(c ModuleChange) {
		d.Counts[c.Class]++
		if c.Class != Unchanged {
			d.Changes = append(d.Changes, c)
		}
	}
	for i := range newRun.Rows {
		n := &newRun.Rows[i]
		k := n.Key()
		if len(olds[k]) == 0 {
			add(ModuleChange{Module: k, Class: New, New: stateOf(n)})
			continue
		}
		o := olds[k][0]
		olds[k] = olds[k][1:]
		d.Matched++
		add(ModuleChange{Module: k, Class: classify(o, n), Old: stateOf(o), New: stateOf(n)})
	}
	for k, rest := range olds {
		for _, o := range rest {
			add(ModuleChange{Module: k, Class: Gone, Old: stateOf(o)})
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
		Note:    "modules are matched by bitcode SHA-256 + source + function",
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

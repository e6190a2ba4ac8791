package analytics

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// DefaultMilestonesJSON is the milestone configuration airpipe ships,
// modelled on M0–M4 of the AIR → NIR frontend's corpus report, plus M5
// (library functions behind the wrapper, counted apart from entry points).
//
//go:embed milestones.json
var DefaultMilestonesJSON []byte

// MilestoneConfig is a milestones file: {"milestones": [...]}.
type MilestoneConfig struct {
	Milestones []Milestone `json:"milestones"`
}

// Milestone is a predicate over one run's rows: of the modules Where
// selects, how many reached Stage, against a target count or percentage.
type Milestone struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Note  string `json:"note,omitempty"`
	// Stage is the stage the selected modules must reach (pass).
	Stage string   `json:"stage"`
	Where Selector `json:"where"`
	// Exactly one target is set.
	TargetPercent *float64 `json:"target_percent,omitempty"`
	TargetCount   *int64   `json:"target_count,omitempty"`
}

// Selector picks modules. Every field that is set must hold. Patterns are
// globs in which * matches any run of characters.
type Selector struct {
	FunctionTypes    []string `json:"function_type,omitempty"`
	NotFunctionTypes []string `json:"not_function_type,omitempty"`
	Functions        []string `json:"function,omitempty"`
	Sources          []string `json:"source,omitempty"`
	// WithFeature: some feature matches some pattern.
	WithFeature []string `json:"with_feature,omitempty"`
	// WithoutFeature: no feature matches any pattern.
	WithoutFeature []string `json:"without_feature,omitempty"`
}

// ParseMilestones reads a milestones file and checks it: unique IDs,
// known stages, exactly one target each, no unknown keys.
func ParseMilestones(b []byte) ([]Milestone, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c MilestoneConfig
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("milestones: %w", err)
	}
	if len(c.Milestones) == 0 {
		return nil, fmt.Errorf("milestones: no milestones defined")
	}
	seen := map[string]bool{}
	for i, m := range c.Milestones {
		where := fmt.Sprintf("milestones[%d] (%s)", i, m.ID)
		switch {
		case m.ID == "":
			return nil, fmt.Errorf("%s: no id", where)
		case seen[m.ID]:
			return nil, fmt.Errorf("%s: duplicate id", where)
		case stageIndex(m.Stage) < 0:
			return nil, fmt.Errorf("%s: stage %q is not one of %v", where, m.Stage, StageNames)
		case (m.TargetPercent == nil) == (m.TargetCount == nil):
			return nil, fmt.Errorf("%s: set exactly one of target_percent and target_count", where)
		case m.TargetPercent != nil && (*m.TargetPercent <= 0 || *m.TargetPercent > 100):
			return nil, fmt.Errorf("%s: target_percent %v is not in (0, 100]", where, *m.TargetPercent)
		case m.TargetCount != nil && *m.TargetCount <= 0:
			return nil, fmt.Errorf("%s: target_count %d is not positive", where, *m.TargetCount)
		}
		seen[m.ID] = true
	}
	return c.Milestones, nil
}

// LoadMilestones reads a milestones file; path "" is the default.
func LoadMilestones(path string) ([]Milestone, error) {
	if path == "" {
		return ParseMilestones(DefaultMilestonesJSON)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ms, err := ParseMilestones(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ms, nil
}

// matches reports whether the selector picks the row.
func (s *Selector) matches(r *Row) bool {
	if len(s.FunctionTypes) > 0 && !anyGlob(s.FunctionTypes, r.FunctionType) {
		return false
	}
	if len(s.NotFunctionTypes) > 0 && anyGlob(s.NotFunctionTypes, r.FunctionType) {
		return false
	}
	if len(s.Functions) > 0 && !anyGlob(s.Functions, r.Function) {
		return false
	}
	if len(s.Sources) > 0 && !anyGlob(s.Sources, r.Source) {
		return false
	}
	if len(s.WithFeature) > 0 && !anyFeature(s.WithFeature, r.Features) {
		return false
	}
	if len(s.WithoutFeature) > 0 && anyFeature(s.WithoutFeature, r.Features) {
		return false
	}
	return true
}

func anyFeature(pats, features []string) bool {
	for _, f := range features {
		if anyGlob(pats, f) {
			return true
		}
	}
	return false
}

func anyGlob(pats []string, s string) bool {
	for _, p := range pats {
		if glob(p, s) {
			return true
		}
	}
	return false
}

// glob matches s against p, where * matches any run of characters
// (slashes and dots included) and every other character itself.
func glob(p, s string) bool {
	parts := strings.Split(p, "*")
	if len(parts) == 1 {
		return p == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, last) && len(s) >= len(last)
}

// MilestoneRun is one milestone measured on one run.
type MilestoneRun struct {
	RunID    string    `json:"run_id"`
	Started  time.Time `json:"started"`
	Modules  int64     `json:"modules"`
	Selected int64     `json:"selected"`
	Reached  int64     `json:"reached"`
	Met      bool      `json:"met"`
	// StageNotRun is set when the run's pipeline did not include the
	// milestone's stage: the milestone could not be measured.
	StageNotRun bool `json:"stage_not_run,omitempty"`
}

// MilestoneResult is a milestone measured on every run given: met or not
// in the latest, and the first run in which it was met.
type MilestoneResult struct {
	Milestone Milestone      `json:"milestone"`
	Latest    MilestoneRun   `json:"latest"`
	FirstMet  *MilestoneRun  `json:"first_met,omitempty"`
	Runs      []MilestoneRun `json:"runs"`
}

// measure evaluates m on one run.
func measure(m *Milestone, r *Run) MilestoneRun {
	mr := MilestoneRun{RunID: r.ID(), Started: r.Meta.Started, Modules: int64(len(r.Rows))}
	want := stageIndex(m.Stage)
	for i := range r.Rows {
		row := &r.Rows[i]
		if !m.Where.matches(row) {
			continue
		}
		mr.Selected++
		if stageIndex(row.StageReached) >= want {
			mr.Reached++
		}
	}
	if len(r.Meta.Stages) > 0 && !slices.Contains(r.Meta.Stages, m.Stage) {
		mr.StageNotRun = true
	}
	switch {
	case mr.StageNotRun:
		mr.Met = false // not measured is never met
	case mr.Selected == 0:
		mr.Met = false // nothing selected is never a milestone met
	case m.TargetCount != nil:
		mr.Met = mr.Reached >= *m.TargetCount
	default:
		mr.Met = pct(mr.Reached, mr.Selected) >= *m.TargetPercent
	}
	return mr
}

// EvaluateMilestones measures each milestone on each run (oldest first, as
// ReadRuns returns them); the last run is the latest.
func EvaluateMilestones(ms []Milestone, runs []Run) ([]MilestoneResult, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("milestones: no runs to measure")
	}
	var out []MilestoneResult
	for _, m := range ms {
		res := MilestoneResult{Milestone: m}
		for i := range runs {
			mr := measure(&m, &runs[i])
			res.Runs = append(res.Runs, mr)
			if mr.Met && res.FirstMet == nil {
				first := mr
				res.FirstMet = &first
			}
		}
		res.Latest = res.Runs[len(res.Runs)-1]
		out = append(out, res)
	}
	return out, nil
}

// targetText says the number against the target: "87.3% of 283 ≥ 80%".
func (r *MilestoneResult) targetText() string {
	l := r.Latest
	if r.Milestone.TargetCount != nil {
		return fmt.Sprintf("%d of %d, target %d", l.Reached, l.Selected, *r.Milestone.TargetCount)
	}
	return fmt.Sprintf("%.1f%% of %d, target %g%%", pct(l.Reached, l.Selected), l.Selected, *r.Milestone.TargetPercent)
}

// MilestonesTable renders results as a table. In every row, reached plus
// not reached equals selected, and selected plus not selected equals the
// latest run's modules.
func MilestonesTable(results []MilestoneResult) *Table {
	t := &Table{
		Name: "milestones", Title: "Milestones",
		Note: "measured on the latest run; first met: the earliest run in which it held",
		Columns: []string{"id", "milestone", "stage", "met", "number vs target", "reached", "not reached",
			"selected", "not selected", "modules", "first met"},
		RowSums: []RowSum{{Parts: []int{5, 6}, Whole: 7}, {Parts: []int{7, 8}, Whole: 9}},
	}
	for _, r := range results {
		l := r.Latest
		met := "not met"
		switch {
		case l.Met:
			met = "MET"
		case l.StageNotRun:
			met = "not met (stage not in run)"
		}
		first := "never"
		if r.FirstMet != nil {
			first = r.FirstMet.Started.UTC().Format("2006-01-02") + " (" + r.FirstMet.RunID + ")"
		}
		t.Rows = append(t.Rows, []any{r.Milestone.ID, r.Milestone.Title, r.Milestone.Stage, met, r.targetText(),
			l.Reached, l.Selected - l.Reached, l.Selected, l.Modules - l.Selected, l.Modules, first})
	}
	return t
}

// MilestonesDocument returns the results as a printable document.
func MilestonesDocument(results []MilestoneResult, runs []Run, excluded []string) *Document {
	latest := &runs[len(runs)-1]
	d := &Document{
		Title:  "airpipe milestones",
		Header: RunHeader(latest, int64(len(latest.Rows))),
		Tables: []*Table{MilestonesTable(results)},
		JSON:   results,
	}
	d.Header = append(d.Header, fmt.Sprintf("%d runs considered", len(runs)))
	if len(excluded) > 0 {
		d.Header = append(d.Header, fmt.Sprintf("%d incomplete runs left out (--all includes them): %v", len(excluded), excluded))
	}
	for _, r := range results {
		if r.Milestone.Note != "" {
			d.Header = append(d.Header, r.Milestone.ID+": "+r.Milestone.Note)
		}
	}
	return d
}

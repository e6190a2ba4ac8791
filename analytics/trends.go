package analytics

import (
	"fmt"
	"time"
)

// TrendPoint is one run's stage counts.
type TrendPoint struct {
	RunID    string    `json:"run_id"`
	Started  time.Time `json:"started"`
	Complete bool      `json:"complete"`
	// Build is the build that wrote the run (run.json's build).
	Build   Build `json:"build"`
	Modules int64 `json:"modules"`
	// Reached maps each stage to the modules that reached it.
	Reached map[string]int64 `json:"reached"`
}

// Trend is per-stage counts across runs, oldest first.
type Trend struct {
	Stages []string     `json:"stages"`
	Points []TrendPoint `json:"runs"`
	// Excluded names the incomplete runs left out.
	Excluded []string `json:"excluded_incomplete,omitempty"`
	// listed is, per point, the row count run.json lists (the total the
	// modules column is checked against).
	listed []int64
}

// Trends computes per-stage counts for each run, oldest first. Incomplete
// runs are left out (and named in Excluded) unless includeIncomplete.
func Trends(runs []Run, includeIncomplete bool) *Trend {
	t := &Trend{Stages: StageNames}
	for i := range runs {
		r := &runs[i]
		if !r.Complete() && !includeIncomplete {
			t.Excluded = append(t.Excluded, r.ID())
			continue
		}
		p := TrendPoint{RunID: r.ID(), Started: r.Meta.Started, Complete: r.Complete(), Build: r.Meta.Build,
			Modules: int64(len(r.Rows)), Reached: map[string]int64{}}
		for j := range r.Rows {
			ri := stageIndex(r.Rows[j].StageReached)
			for si := 0; si <= ri; si++ {
				p.Reached[StageNames[si]]++
			}
		}
		listed := r.Meta.Rows
		if !r.Complete() {
			// An incomplete run's metadata may trail its files.
			listed = int64(len(r.Rows))
		}
		t.Points = append(t.Points, p)
		t.listed = append(t.listed, listed)
	}
	return t
}

// Table returns the trend as a table, one row per run. Its modules column
// must add up to the row counts the runs' run.json files list.
func (t *Trend) Table() *Table {
	tb := &Table{
		Name: "trend", Title: "Modules reaching each stage, by run",
		Columns: append([]string{"run", "started", "commit", "complete", "modules"}, t.Stages...),
	}
	var listed int64
	for i, p := range t.Points {
		row := []any{p.RunID, p.Started.UTC().Format("2006-01-02 15:04"), p.Build.ShortCommit(), fmt.Sprint(p.Complete), p.Modules}
		for _, s := range t.Stages {
			row = append(row, p.Reached[s])
		}
		tb.Rows = append(tb.Rows, row)
		listed += t.listed[i]
	}
	tb.Sums = []Sum{{Column: 4, Total: listed, What: "the rows the runs' run.json list"}}
	return tb
}

// Document returns the trend as a printable document with its chart.
func (t *Trend) Document() *Document {
	d := &Document{Title: "airpipe trends", Tables: []*Table{t.Table()}, Charts: []Chart{t.TrendChart()}, JSON: t}
	d.Header = []string{fmt.Sprintf("%d runs", len(t.Points))}
	if len(t.Excluded) > 0 {
		d.Header = append(d.Header, fmt.Sprintf("%d incomplete runs left out (--all includes them): %v", len(t.Excluded), t.Excluded))
	}
	return d
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/airpipe/airpipe/analytics"
)

// summary tallies the rows of a run as they are written (owned by the sink
// goroutine).
type summary struct {
	stages          []string
	total           int64
	reached         map[string]int64 // stage_reached ("" = none)
	codes           map[string]int64 // failed_stage + " " + failure_code
	setAside        map[string]int64 // stage + " " + status + ": " + reason
	libraryFailures map[string]int64 // failure code of library-level rows
	// statuses counts each stage's status column ("" = not in the run).
	statuses map[string]map[string]int64
	// reused counts modules whose shared stages were not run again: taken
	// from the cache or from an identical module of this run.
	reused int64
}

func newSummary(stages []string) *summary {
	st := map[string]map[string]int64{}
	for _, s := range stages {
		st[s] = map[string]int64{}
	}
	return &summary{stages: stages, reached: map[string]int64{}, codes: map[string]int64{},
		setAside: map[string]int64{}, libraryFailures: map[string]int64{}, statuses: st}
}

func (s *summary) add(r analytics.Row) {
	s.total++
	s.reached[r.StageReached]++
	switch {
	case r.FailureCode != "":
		s.codes[r.FailedStage+" "+r.FailureCode]++
	case r.StatusReason != "":
		s.setAside[setAsideAt(r, s.stages)+": "+r.StatusReason]++
	}
	for _, st := range s.stages {
		if m := s.statuses[st]; m != nil {
			v := r.Status(st)
			if v == "" && !slices.Contains(analytics.StageNames, st) {
				v = "(in data)"
			}
			m[v]++
		}
	}
	if r.FunctionIndex < 0 {
		s.libraryFailures[r.FailureCode]++
	}
}

// setAsideAt names the stage and status a set-aside row's reason belongs
// to: the first stage that was unjudged or unavailable, else the first
// one the user skipped.
func setAsideAt(r analytics.Row, stages []string) string {
	skipped := ""
	for _, st := range stages {
		switch v := r.Status(st); v {
		case "unjudged", "unavailable":
			return st + " " + v
		case "skipped":
			if skipped == "" {
				skipped = st + " " + v
			}
		}
	}
	return skipped
}

// summaryJSON is the --json form of the summary.
type summaryJSON struct {
	RunID    string `json:"run_id"`
	Dir      string `json:"dir"`
	Complete bool   `json:"complete"`
	Modules  int64  `json:"modules"`
	// Reused counts modules whose shared stages came from the cache or
	// from an identical module of this run (no stage work done for them).
	Reused   int64            `json:"reused"`
	Reached  map[string]int64 `json:"reached"`
	Failures map[string]int64 `json:"failures"`
	SetAside map[string]int64 `json:"set_aside"`
	// Statuses counts each stage's status over all modules.
	Statuses map[string]map[string]int64 `json:"statuses"`
	Counts   analytics.Counts            `json:"files"`
}

// check verifies that every table adds up to its total.
func (s *summary) check(c analytics.Counts) error {
	var reached int64
	for _, n := range s.reached {
		reached += n
	}
	if reached != s.total {
		return fmt.Errorf("summary refused: modules by stage reached add up to %d, not %d", reached, s.total)
	}
	var stopped int64
	for _, n := range s.codes {
		stopped += n
	}
	for _, n := range s.setAside {
		stopped += n
	}
	if passedAll := s.reached[s.last()]; stopped+passedAll != s.total {
		return fmt.Errorf("summary refused: %d stopped + %d through every stage != %d modules", stopped, passedAll, s.total)
	}
	for st, m := range s.statuses {
		var n int64
		for _, v := range m {
			n += v
		}
		if n != s.total {
			return fmt.Errorf("summary refused: %s statuses add up to %d, not %d", st, n, s.total)
		}
	}
	if err := c.Check(); err != nil {
		return fmt.Errorf("summary refused: %w", err)
	}
	return nil
}

func (s *summary) last() string {
	if len(s.stages) == 0 {
		return ""
	}
	return s.stages[len(s.stages)-1]
}

func (s *summary) print(w io.Writer, meta analytics.RunMeta, dir string, asJSON bool) error {
	if err := s.check(meta.Counts); err != nil {
		return err
	}
	if asJSON {
		reached := map[string]int64{}
		for k, v := range s.reached {
			if k == "" {
				k = "none"
			}
			reached[k] = v
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(summaryJSON{RunID: meta.RunID, Dir: dir, Complete: meta.Complete, Modules: s.total, Reused: s.reused,
			Reached: reached, Failures: s.codes, SetAside: s.setAside, Statuses: s.statuses, Counts: meta.Counts})
	}
	var b strings.Builder
	state := "complete"
	if !meta.Complete {
		state = "INCOMPLETE"
	}
	c := meta.Counts
	fmt.Fprintf(&b, "run %s (%s) → %s\n", meta.RunID, state, dir)
	fmt.Fprintf(&b, "files: %d seen = %d libraries parsed + %d refused + %d not libraries\n",
		c.FilesSeen, c.LibrariesParsed, c.FilesRefused, c.FilesNotLibraries)
	for _, r := range sortedKeys(c.RefusedReasons) {
		fmt.Fprintf(&b, "  refused %-40s %6d\n", r, c.RefusedReasons[r])
	}
	fmt.Fprintf(&b, "modules: %d (%d reused the stage work of an identical module or the cache)\n", s.total, s.reused)
	if c.ModulesNotSelected > 0 {
		fmt.Fprintf(&b, "  (%d more modules of these libraries were left out by --only-failed, --library or --function: no row)\n", c.ModulesNotSelected)
	}
	fmt.Fprintf(&b, "  %-40s %6d\n", "reached no stage", s.reached[""])
	for _, st := range s.stages {
		fmt.Fprintf(&b, "  %-40s %6d\n", "reached "+st+" (furthest)", s.reached[st])
	}
	b.WriteString("statuses by stage:\n")
	for _, st := range s.stages {
		var parts []string
		for _, v := range sortedByCount(s.statuses[st]) {
			name := v
			if name == "" {
				name = "absent"
			}
			parts = append(parts, fmt.Sprintf("%s %d", name, s.statuses[st][v]))
		}
		fmt.Fprintf(&b, "  %-10s %s\n", st, strings.Join(parts, ", "))
	}
	if len(s.codes) > 0 {
		b.WriteString("failures (stage code):\n")
		for _, k := range sortedByCount(s.codes) {
			fmt.Fprintf(&b, "  %-40s %6d\n", k, s.codes[k])
		}
	}
	if len(s.setAside) > 0 {
		b.WriteString("set aside (not passed, not failed):\n")
		for _, k := range sortedByCount(s.setAside) {
			fmt.Fprintf(&b, "  %-60s %6d\n", k, s.setAside[k])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sortedKeys(m map[string]int64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedByCount(m map[string]int64) []string {
	out := sortedKeys(m)
	sort.SliceStable(out, func(i, j int) bool { return m[out[i]] > m[out[j]] })
	return out
}

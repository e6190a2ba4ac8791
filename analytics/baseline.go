package analytics

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// BaselineKey names a module by content: the SHA-256 of its library file
// and the function's name, so that a baseline holds wherever the library
// sits on disk.
type BaselineKey struct {
	LibrarySHA256 string
	Function      string
}

// BaselineEntry is one expected failure: a module and the stage and code it
// fails with. Source is a path where the library was found, for people;
// it is not part of the key.
type BaselineEntry struct {
	BaselineKey
	Stage  string
	Code   string
	Source string
}

// baselineHeader is the first line of a baseline file.
var baselineHeader = []string{"library_sha256", "function", "stage", "code", "source"}

// rowFailure returns a row's failure as a baseline entry; ok is false when
// the row did not fail (it passed or was set aside).
func rowFailure(r *Row) (e BaselineEntry, ok bool, err error) {
	verdict, stage, err := junitVerdict(r)
	if err != nil || verdict != junitFailed {
		return e, false, err
	}
	if r.LibrarySHA256 == "" {
		return e, false, fmt.Errorf("%s: no library_sha256; a baseline keys failures by it", r.Key())
	}
	return BaselineEntry{BaselineKey{r.LibrarySHA256, r.Function}, stage, r.FailureCode, r.Source}, true, nil
}

// BaselineOf lists a run's failures, one per module key (a library found at
// several paths is listed once, with the first path), sorted by key.
func BaselineOf(run *Run) ([]BaselineEntry, error) {
	seen := map[BaselineKey]bool{}
	var out []BaselineEntry
	for i := range run.Rows {
		e, ok, err := rowFailure(&run.Rows[i])
		if err != nil {
			return nil, err
		}
		if ok && !seen[e.BaselineKey] {
			seen[e.BaselineKey] = true
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].LibrarySHA256 != out[j].LibrarySHA256 {
			return out[i].LibrarySHA256 < out[j].LibrarySHA256
		}
		return out[i].Function < out[j].Function
	})
	return out, nil
}

// WriteBaseline writes entries as CSV: a header line, then one failure per
// line (library_sha256, function, stage, code, source).
func WriteBaseline(w io.Writer, entries []BaselineEntry) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(baselineHeader); err != nil {
		return err
	}
	for _, e := range entries {
		if err := cw.Write([]string{e.LibrarySHA256, e.Function, e.Stage, e.Code, e.Source}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadBaseline reads a baseline file that WriteBaseline wrote (or a person
// edited). Lines starting with '#' are comments. The header must be the
// baseline's; each line needs library_sha256 and function, and may leave
// stage, code and source out (a flakes file needs only the key). A line
// that is malformed, or repeats a key, is refused with its line number.
func ReadBaseline(r io.Reader) ([]BaselineEntry, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("empty baseline: want the header line " + strings.Join(baselineHeader, ","))
	}
	if err != nil {
		return nil, err
	}
	if len(header) < 2 || len(header) > len(baselineHeader) || !slices.Equal(header, baselineHeader[:len(header)]) {
		return nil, fmt.Errorf("baseline header %q: want %s (or its first columns)", strings.Join(header, ","), strings.Join(baselineHeader, ","))
	}
	seen := map[BaselineKey]int{}
	var out []BaselineEntry
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, err
		}
		if len(rec) != len(header) {
			return nil, fmt.Errorf("baseline line %d: %d fields, the header has %d", line, len(rec), len(header))
		}
		rec = append(rec, make([]string, len(baselineHeader)-len(rec))...)
		e := BaselineEntry{BaselineKey{rec[0], rec[1]}, rec[2], rec[3], rec[4]}
		if !isSHA256Hex(e.LibrarySHA256) {
			return nil, fmt.Errorf("baseline line %d: library_sha256 %q is not 64 hex digits", line, e.LibrarySHA256)
		}
		if e.Function == "" {
			return nil, fmt.Errorf("baseline line %d: empty function", line)
		}
		if first, dup := seen[e.BaselineKey]; dup {
			return nil, fmt.Errorf("baseline line %d: %s %s is already on line %d", line, e.LibrarySHA256[:12], e.Function, first)
		}
		seen[e.BaselineKey] = line
		out = append(out, e)
	}
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// GateResult is a run's failures held against a baseline.
type GateResult struct {
	// New lists failures whose module the baseline does not list (nor the
	// flakes file): the ones that fail a CI gate.
	New []BaselineEntry `json:"new"`
	// Flaky lists failures of modules the flakes file names: reported,
	// not failed.
	Flaky []BaselineEntry `json:"flaky"`
	// Known lists failures the baseline lists with the same stage and
	// code; Changed those it lists with another stage or code (Was holds
	// the baseline's entry, in the same order).
	Known   []BaselineEntry `json:"known"`
	Changed []BaselineEntry `json:"changed"`
	Was     []BaselineEntry `json:"was"`
	// Fixed lists baseline entries whose module the run has and that did
	// not fail (time to update the baseline); Absent those whose module
	// the run does not have.
	Fixed  []BaselineEntry `json:"fixed"`
	Absent []BaselineEntry `json:"absent"`
}

// Gate holds a run's failures against a baseline and a list of flaky
// modules (either may be empty).
func Gate(run *Run, baseline, flakes []BaselineEntry) (*GateResult, error) {
	g := &GateResult{}
	base := map[BaselineKey]BaselineEntry{}
	for _, e := range baseline {
		base[e.BaselineKey] = e
	}
	flaky := map[BaselineKey]bool{}
	for _, e := range flakes {
		flaky[e.BaselineKey] = true
	}
	failures, err := BaselineOf(run)
	if err != nil {
		return nil, err
	}
	failed := map[BaselineKey]bool{}
	for _, e := range failures {
		failed[e.BaselineKey] = true
		b, known := base[e.BaselineKey]
		switch {
		case known && b.Stage == e.Stage && b.Code == e.Code:
			g.Known = append(g.Known, e)
		case known:
			g.Changed = append(g.Changed, e)
			g.Was = append(g.Was, b)
		case flaky[e.BaselineKey]:
			g.Flaky = append(g.Flaky, e)
		default:
			g.New = append(g.New, e)
		}
	}
	present := map[BaselineKey]bool{}
	for i := range run.Rows {
		present[BaselineKey{run.Rows[i].LibrarySHA256, run.Rows[i].Function}] = true
	}
	for _, e := range baseline {
		switch {
		case failed[e.BaselineKey]:
		case present[e.BaselineKey]:
			g.Fixed = append(g.Fixed, e)
		default:
			g.Absent = append(g.Absent, e)
		}
	}
	return g, nil
}

// Expected maps the modules whose failures the gate does not count (known,
// known but changed, flaky) to why, for WriteJUnit.
func (g *GateResult) Expected() map[BaselineKey]string {
	m := map[BaselineKey]string{}
	for _, e := range g.Known {
		m[e.BaselineKey] = "known failure (baseline)"
	}
	for i, e := range g.Changed {
		m[e.BaselineKey] = "known failure (baseline: " + g.Was[i].Stage + " " + g.Was[i].Code + ")"
	}
	for _, e := range g.Flaky {
		m[e.BaselineKey] = "flaky module (flakes file)"
	}
	return m
}

// Summary is the gate in a few lines for a terminal: the counts, then
// every new failure, changed failure and flaky module, one per line.
func (g *GateResult) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "baseline: %d new failures, %d known, %d known but changed, %d flaky, %d fixed, %d not in this run\n",
		len(g.New), len(g.Known), len(g.Changed), len(g.Flaky), len(g.Fixed), len(g.Absent))
	line := func(what string, e BaselineEntry, extra string) {
		fmt.Fprintf(&b, "  %-7s %s %s  %s %s  %s%s\n", what, short(e.LibrarySHA256), e.Function, e.Stage, e.Code, e.Source, extra)
	}
	for _, e := range g.New {
		line("new", e, "")
	}
	for i, e := range g.Changed {
		line("changed", e, fmt.Sprintf("  (baseline: %s %s)", g.Was[i].Stage, g.Was[i].Code))
	}
	for _, e := range g.Flaky {
		line("flaky", e, "")
	}
	for _, e := range g.Fixed {
		line("fixed", e, "")
	}
	return b.String()
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

package analytics

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Detail is a table shown folded under a one-line summary in HTML (a
// library's drill-down); text, Markdown and JSON leave it out.
type Detail struct {
	Summary string
	Table   *Table
}

// MismatchLimit is how many mismatched modules the mismatch table lists
// before folding the rest into one row.
const MismatchLimit = 50

// isMismatch reports whether a failure code says the outputs differed.
func isMismatch(code string) bool { return strings.HasSuffix(code, "/mismatch") }

// mismatchTable lists the modules whose outputs differed from the
// reference (codes STAGE/mismatch), at most limit of them.
func mismatchTable(rows []Row, limit int) *Table {
	t := &Table{
		Name: "mismatches", Title: "Mismatches (outputs that differ from the reference)",
		Columns: []string{"stage", "library", "function", "detail", "modules"},
	}
	var total, folded int64
	for i := range rows {
		r := &rows[i]
		if r.FailedStage == "" || !isMismatch(r.FailureCode) {
			continue
		}
		if limit > 0 && len(t.Rows) >= limit {
			folded++
			continue
		}
		t.Rows = append(t.Rows, []any{r.FailedStage, r.Source, r.Function, r.FailureDetail, int64(1)})
	}
	if folded > 0 {
		t.Rows = append(t.Rows, []any{"", fmt.Sprintf("(%d more)", folded), "", "", folded})
	}
	for i := range rows {
		if rows[i].FailureCode != "" && isMismatch(rows[i].FailureCode) && rows[i].Status(rows[i].FailedStage) == "failed" {
			total++
		}
	}
	t.Sums = []Sum{{Column: 4, Total: total, What: "the modules whose failed stage's status is failed with a */mismatch code"}}
	return t
}

// agreementTable compares, for every module the device stage judged, the
// emulator's verdict (lavapipe against the CPU reference) with the
// device's, and what the device said of the emulator's output
// (device.matches_emulator).
func agreementTable(rows []Row) *Table {
	type key struct{ emu, dev, same string }
	c := newCounter[key]()
	var judged int64
	for i := range rows {
		r := &rows[i]
		if r.DeviceStatus == "" || r.DeviceStatus == "not-run" {
			continue
		}
		judged++
		same := ""
		for _, d := range r.Data {
			if v, ok := strings.CutPrefix(d, "device.matches_emulator="); ok {
				same, _, _ = strings.Cut(v, " (")
			}
		}
		if same == "" {
			same = "(not recorded)"
		}
		c.add(key{r.EmulatorStatus, r.DeviceStatus, same}, 1)
	}
	t := &Table{
		Name: "agreement", Title: "Emulator vs device",
		Note:    "modules the device stage ran: the emulator's verdict, the device's, and whether the GPU left what lavapipe left",
		Columns: []string{"emulator", "device", "device output vs emulator", "modules"},
		Sums:    []Sum{{Column: 3, Total: judged, What: "the modules whose device_status is neither empty nor not-run"}},
	}
	for _, k := range c.ranked(func(a, b key) bool {
		return a.emu+a.dev+a.same < b.emu+b.dev+b.same
	}) {
		t.Rows = append(t.Rows, []any{k.emu, k.dev, k.same, c.n[k]})
	}
	return t
}

// statusChart counts, for the emulator and device stages, how many modules
// ended each status.
func statusChart(rows []Row) Chart {
	statuses := []string{"passed", "failed", "unjudged", "unavailable", "skipped", "not-run"}
	c := Chart{Name: "agreement", Title: "Emulator (lavapipe) and device verdicts", Kind: ChartBar,
		X: statuses, YLabel: "modules"}
	for _, st := range []string{"emulator", "device"} {
		s := Series{Name: st, Values: make([]float64, len(statuses))}
		for i := range rows {
			for j, v := range statuses {
				if rows[i].Status(st) == v {
					s.Values[j]++
				}
			}
		}
		c.Series = append(c.Series, s)
	}
	ran := false
	for i := range rows {
		if st := rows[i].DeviceStatus; st != "" && st != "not-run" {
			ran = true
		}
	}
	if !ran {
		c.Title += " (the device stage ran no module)"
	}
	return c
}

// libraryOutcomes counts each library's modules by how they ended, most
// failures first.
type libraryOutcome struct {
	source                   string
	passed, failed, setAside int64
	rows                     []int
}

func libraryOutcomes(rows []Row) []*libraryOutcome {
	by := map[string]*libraryOutcome{}
	var order []*libraryOutcome
	for i := range rows {
		r := &rows[i]
		lo := by[r.Source]
		if lo == nil {
			lo = &libraryOutcome{source: r.Source}
			by[r.Source] = lo
			order = append(order, lo)
		}
		_, st := r.Outcome()
		switch {
		case st == EndedPassed:
			lo.passed++
		case isSetAside(st):
			lo.setAside++
			lo.rows = append(lo.rows, i)
		default:
			lo.failed++
			lo.rows = append(lo.rows, i)
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.failed != b.failed {
			return a.failed > b.failed
		}
		if a.setAside != b.setAside {
			return a.setAside > b.setAside
		}
		return a.source < b.source
	})
	return order
}

// libraryChart is the per-library drill-down: the libraries with the most
// failures, their modules stacked by outcome.
func libraryChart(libs []*libraryOutcome, limit int) Chart {
	c := Chart{Name: "libraries", Title: fmt.Sprintf("Libraries with the most failures (first %d)", limit),
		Kind: ChartStacked, XLabel: "modules"}
	f, s, p := Series{Name: "failed"}, Series{Name: "set aside"}, Series{Name: "passed"}
	for i, lo := range libs {
		if i >= limit || lo.failed+lo.setAside == 0 {
			break
		}
		c.X = append(c.X, shorten(lo.source, 48))
		f.Values = append(f.Values, float64(lo.failed))
		s.Values = append(s.Values, float64(lo.setAside))
		p.Values = append(p.Values, float64(lo.passed))
	}
	c.Series = []Series{f, s, p}
	return c
}

// libraryDetails is one folded table per library with failures or modules
// set aside: each such module, where and why it stopped.
func libraryDetails(rows []Row, libs []*libraryOutcome, limit int) []Detail {
	var out []Detail
	for i, lo := range libs {
		if i >= limit || lo.failed+lo.setAside == 0 {
			break
		}
		t := &Table{Name: "library", Title: lo.source,
			Columns: []string{"function", "type", "stage", "status", "code or reason", "detail"}}
		for _, ri := range lo.rows {
			r := &rows[ri]
			stage, st := r.Outcome()
			why, detail := r.FailureCode, r.FailureDetail
			if isSetAside(st) {
				why, detail = r.StatusReason, ""
			}
			t.Rows = append(t.Rows, []any{r.Function, r.FunctionType, stage, st, why, detail})
		}
		out = append(out, Detail{
			Summary: fmt.Sprintf("%s — %d failed, %d set aside, %d passed", lo.source, lo.failed, lo.setAside, lo.passed),
			Table:   t,
		})
	}
	return out
}

// paretoChart ranks labelled counts largest first, as a share of total.
func paretoChart(name, title, of string, labels []string, counts []int64, total int64, limit int) Chart {
	c := Chart{Name: name, Title: title, Kind: ChartPareto, YLabel: of, Total: float64(total)}
	s := Series{Name: of}
	var rest int64
	for i, l := range labels {
		if i >= limit {
			rest += counts[i]
			continue
		}
		c.X = append(c.X, shorten(l, 36))
		s.Values = append(s.Values, float64(counts[i]))
	}
	if rest > 0 {
		c.X = append(c.X, fmt.Sprintf("(%d others)", len(labels)-limit))
		s.Values = append(s.Values, float64(rest))
	}
	c.Series = []Series{s}
	return c
}

// shorten cuts s to at most n characters, keeping its start and end.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	keep := n - 1
	head := keep / 3
	return string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
}

// TrendChart is the pass rate over runs: for every stage, the percent of
// each run's modules that reached it, x labelled by date and commit.
func (t *Trend) TrendChart() Chart {
	c := Chart{Name: "pass_rates", Title: "Modules reaching each stage, % of the run's modules", Kind: ChartLine,
		Percent: true, YLabel: "% of modules"}
	for _, p := range t.Points {
		label := p.Started.UTC().Format("2006-01-02 15:04")
		if sc := p.Build.ShortCommit(); p.Build.Commit != "" {
			label += " " + sc
		}
		c.X = append(c.X, label)
	}
	for _, s := range t.Stages {
		ser := Series{Name: s}
		for _, p := range t.Points {
			ser.Values = append(ser.Values, pct(p.Reached[s], p.Modules))
		}
		c.Series = append(c.Series, ser)
	}
	return c
}

package analytics

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// RelativeRows returns the directory every row's source lies under and
// the rows with their sources relative to it (the rows themselves when
// they share none), for tables people read.
func RelativeRows(in []Row) (string, []Row) {
	root := commonRoot(in)
	if root == "" {
		return "", in
	}
	rows := make([]Row, len(in))
	for i := range in {
		rows[i] = in[i]
		rows[i].Source = strings.TrimPrefix(rows[i].Source, root)
	}
	return root, rows
}

// commonRoot is the longest directory prefix, ending in "/", that every
// row's source shares ("" when they share none); a source is never cut to
// nothing.
func commonRoot(rows []Row) string {
	if len(rows) == 0 {
		return ""
	}
	root := rows[0].Source
	if i := strings.LastIndex(root, "/"); i >= 0 {
		root = root[:i+1]
	} else {
		return ""
	}
	for i := range rows {
		for !strings.HasPrefix(rows[i].Source, root) {
			j := strings.LastIndex(strings.TrimSuffix(root, "/"), "/")
			if j < 0 {
				return ""
			}
			root = root[:j+1]
		}
	}
	if root == "/" {
		return ""
	}
	return root
}

// ReportOptions bounds the long tables of a report.
type ReportOptions struct {
	// Libraries is how many libraries the by-library table lists before
	// folding the rest into one "other" row (0: all).
	Libraries int
	// Features is how many missing features the ranking lists before
	// folding the rest into one "other" row (0: all).
	Features int
	// Examples is how many example modules each feature lists.
	Examples int
}

// DefaultReportOptions are the bounds airpipe report uses unless told.
var DefaultReportOptions = ReportOptions{Libraries: 20, Features: 30, Examples: 3}

// Report is the analysis of one run: its identity and its checked tables.
type Report struct {
	RunID    string    `json:"run_id"`
	Started  time.Time `json:"started"`
	Complete bool      `json:"complete"`
	Problems []string  `json:"problems,omitempty"`
	Modules  int64     `json:"modules"`
	// Root is the directory every library's source lies under; the
	// tables name libraries relative to it.
	Root   string   `json:"root,omitempty"`
	Tables []*Table `json:"tables"`

	// charts and details are the HTML dashboard's plots and per-library
	// drill-down.
	charts  []Chart
	details []Detail
	history *Trend
}

// SetHistory gives the report the runs of its results directory, oldest
// first, for the pass-rate chart of the HTML dashboard.
func (r *Report) SetHistory(t *Trend) { r.history = t }

// BuildReport computes a run's report: the files accounting, the stage
// funnel (overall, entry points and library functions apart, by function
// type, by library, by platform), how modules
// ended, failure codes by stage, set-aside modules with reasons, and the
// ranked missing features, one table per kind of gap. It returns an error naming the first table whose
// rows do not add up to its total.
func BuildReport(run *Run, opt ReportOptions) (*Report, error) {
	root, rows := RelativeRows(run.Rows)
	total := int64(len(rows))
	rep := &Report{
		RunID: run.ID(), Started: run.Meta.Started, Complete: run.Complete(),
		Problems: run.Problems, Modules: total, Root: root,
	}
	stages := runStages(run.Meta)
	funnel, reached := funnelTable(rows, stages)
	if run.Complete() {
		// A complete run wrote every module the pipeline produced.
		funnel.Sums = append(funnel.Sums, Sum{Column: 3, Total: run.Meta.Counts.Modules, What: "counts.modules in run.json"})
	}
	outcomes, ended := outcomeTable(rows)
	failed := ended["failed"]
	rep.Tables = []*Table{
		filesTable(run.Meta),
		funnel,
		breakdownTable("by_function_kind", "Stage funnel: entry points and library functions apart", "kind", rows, stages, reached, failed, 0, func(r *Row) string { return FunctionKind(r.FunctionType) }),
		breakdownTable("by_function_type", "Stage funnel by function type", "function type", rows, stages, reached, failed, 0, func(r *Row) string { return r.FunctionType }),
		breakdownTable("by_library", "Stage funnel by library", "library", rows, stages, reached, failed, opt.Libraries, func(r *Row) string { return r.Source }),
		breakdownTable("by_platform", "Stage funnel by platform", "platform", rows, stages, reached, failed, 0, func(r *Row) string { return r.Platform }),
		outcomes,
		failuresTable(rows, ended["failed"]),
		setAsideTable(rows, ended["unjudged"]+ended["unavailable"]+ended["skipped"]),
	}
	features, _ := FeatureTables(rows, FeatureSelect{}, opt.Features, opt.Examples)
	rep.Tables = append(rep.Tables, features...)
	rep.Tables = append(rep.Tables, passClassTable(rows), mismatchTable(rows, MismatchLimit), agreementTable(rows))
	rep.charts, rep.details = dashboard(rows, rep.Tables, ended["failed"], opt)
	if err := CheckAll(rep.Tables); err != nil {
		return nil, err
	}
	return rep, nil
}

// filesTable accounts for every file the run saw, from run.json.
func filesTable(m RunMeta) *Table {
	c := m.Counts
	t := &Table{
		Name: "files", Title: "Files seen",
		Note:    "every file the walk found: parsed as a library, refused (with its reason), or not a library",
		Columns: []string{"outcome", "files"},
		Sums:    []Sum{{Column: 1, Total: c.FilesSeen, What: "files_seen in run.json"}},
	}
	t.Rows = append(t.Rows, []any{"library parsed", c.LibrariesParsed}, []any{"not a library", c.FilesNotLibraries})
	reasons := newCounter[string]()
	for k, v := range c.RefusedReasons {
		reasons.add(k, v)
	}
	var listed int64
	for _, k := range reasons.ranked(func(a, b string) bool { return a < b }) {
		t.Rows = append(t.Rows, []any{"refused: " + k, reasons.n[k]})
		listed += reasons.n[k]
	}
	if rest := c.FilesRefused - listed; rest != 0 {
		t.Rows = append(t.Rows, []any{"refused: (no reason recorded)", rest})
	}
	return t
}

// funnelTable counts modules by the stage they reached. It also returns,
// per stage, how many modules reached it (at or beyond), for the breakdown
// tables to check against.
func funnelTable(rows []Row, stages []string) (*Table, map[string]int64) {
	total := int64(len(rows))
	stopped := map[string]int64{}
	for i := range rows {
		stopped[rows[i].StageReached]++
	}
	reached := map[string]int64{}
	t := &Table{
		Name: "funnel", Title: "Stage funnel",
		Note:    "reached: modules that passed this stage and every one before it; stopped here: modules whose last passed stage is this one",
		Columns: []string{"stage", "reached", "% of modules", "stopped here"},
		Sums:    []Sum{{Column: 3, Total: total, What: "the number of modules"}},
	}
	t.Rows = append(t.Rows, []any{"(none passed)", "", "", stopped[""]})
	left := total - stopped[""]
	for _, s := range stages {
		reached[s] = left
		t.Rows = append(t.Rows, []any{s, left, pct(left, total), stopped[s]})
		left -= stopped[s]
	}
	return t, reached
}

// breakdownTable is the funnel split by a key (function type, library,
// platform): one row per key with its modules and how many reached each
// stage. The modules column adds up to all modules, and each stage column
// to that stage's count in the funnel. The funnel counts the stage_reached
// column and this table the status columns, so rows whose two disagree
// make it refuse. With limit > 0, keys past the
// first limit are folded into one "other" row.
func breakdownTable(name, title, keyName string, rows []Row, stages []string, reached map[string]int64, failed int64, limit int, key func(*Row) string) *Table {
	type agg struct {
		modules, failed int64
		reached         []int64
	}
	by := map[string]*agg{}
	keys := newCounter[string]()
	for i := range rows {
		r := &rows[i]
		k := key(r)
		if k == "" {
			k = "(unknown)"
		}
		a := by[k]
		if a == nil {
			a = &agg{reached: make([]int64, len(stages))}
			by[k] = a
		}
		a.modules++
		if _, st := r.Outcome(); st == "failed" {
			a.failed++
		}
		keys.add(k, 1)
		ri := r.reachedByStatus()
		for j, s := range stages {
			if ri >= stageIndex(s) {
				a.reached[j]++
			}
		}
	}
	t := &Table{Name: name, Title: title, Columns: []string{keyName, "modules", "failed"},
		Note: "most failures first; failed: modules whose first stage that did not pass failed"}
	t.Sums = []Sum{{Column: 1, Total: int64(len(rows)), What: "the number of modules"},
		{Column: 2, Total: failed, What: "the modules that ended failed"}}
	for j, s := range stages {
		t.Columns = append(t.Columns, s)
		t.Sums = append(t.Sums, Sum{Column: 3 + j, Total: reached[s], What: fmt.Sprintf("the funnel's count for %s", s)})
	}
	ranked := keys.ranked(func(a, b string) bool { return a < b })
	sort.SliceStable(ranked, func(i, j int) bool { return by[ranked[i]].failed > by[ranked[j]].failed })
	other := &agg{reached: make([]int64, len(stages))}
	var folded int
	for i, k := range ranked {
		a := by[k]
		if limit > 0 && i >= limit {
			other.modules += a.modules
			other.failed += a.failed
			for j := range a.reached {
				other.reached[j] += a.reached[j]
			}
			folded++
			continue
		}
		t.Rows = append(t.Rows, aggRow(k, a.modules, a.failed, a.reached))
	}
	if folded > 0 {
		t.Rows = append(t.Rows, aggRow(fmt.Sprintf("(%d others)", folded), other.modules, other.failed, other.reached))
	}
	return t
}

func aggRow(k string, modules, failed int64, reached []int64) []any {
	row := []any{k, modules, failed}
	for _, n := range reached {
		row = append(row, n)
	}
	return row
}

// outcomeTable counts modules by how their run ended (Row.Outcome). It
// returns the counts by status for the failure and set-aside tables.
func outcomeTable(rows []Row) (*Table, map[string]int64) {
	type key struct{ status, stage string }
	c := newCounter[key]()
	byStatus := map[string]int64{}
	for i := range rows {
		stage, status := rows[i].Outcome()
		c.add(key{status, stage}, 1)
		byStatus[status]++
	}
	t := &Table{
		Name: "outcomes", Title: "How modules ended",
		Note:    "the first stage that did not pass, and its status (a stage excluded by --skip-stages only where every other stage passed); passed: every stage of the run passed",
		Columns: []string{"status", "stage", "modules", "% of modules"},
		Sums:    []Sum{{Column: 2, Total: int64(len(rows)), What: "the number of modules"}},
	}
	keys := c.ranked(func(a, b key) bool { return false })
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.stage != b.stage {
			return stageIndex(a.stage) < stageIndex(b.stage)
		}
		return a.status < b.status
	})
	for _, k := range keys {
		t.Rows = append(t.Rows, []any{k.status, k.stage, c.n[k], pct(c.n[k], int64(len(rows)))})
	}
	return t, byStatus
}

// failuresTable counts failed modules by stage and failure code, from the
// failed_stage and failure_code columns. Its total, the modules whose
// status columns say they failed, is computed apart from those columns, so
// rows whose columns disagree make the table refuse.
func failuresTable(rows []Row, failed int64) *Table {
	type key struct{ stage, code string }
	c := newCounter[key]()
	shas := map[key]map[string]bool{}
	for i := range rows {
		r := &rows[i]
		if r.FailedStage == "" {
			continue
		}
		k := key{r.FailedStage, r.FailureCode}
		if k.code == "" {
			k.code = "(no code)"
		}
		c.add(k, 1)
		if shas[k] == nil {
			shas[k] = map[string]bool{}
		}
		shas[k][r.BitcodeSHA256] = true
	}
	t := &Table{
		Name: "failures", Title: "Failure codes by stage",
		Columns: []string{"stage", "code", "modules", "distinct bitcode"},
		Sums:    []Sum{{Column: 2, Total: failed, What: "the number of modules whose status columns say failed"}},
	}
	for _, k := range c.ranked(func(a, b key) bool {
		if a.stage != b.stage {
			return stageIndex(a.stage) < stageIndex(b.stage)
		}
		return a.code < b.code
	}) {
		t.Rows = append(t.Rows, []any{k.stage, k.code, c.n[k], int64(len(shas[k]))})
	}
	return t
}

// setAsideTable counts modules set aside (unjudged, unavailable, skipped)
// by stage, status and reason.
func setAsideTable(rows []Row, setAside int64) *Table {
	type key struct{ stage, status, reason string }
	c := newCounter[key]()
	for i := range rows {
		r := &rows[i]
		stage, status := r.Outcome()
		if !isSetAside(status) {
			continue
		}
		reason := r.StatusReason
		if reason == "" {
			reason = "(no reason recorded)"
		}
		c.add(key{stage, status, reason}, 1)
	}
	t := &Table{
		Name: "set_aside", Title: "Set aside (not judged)",
		Note:    "modules a stage could not judge, whose tool or device was absent, or that the user excluded; never counted as passed",
		Columns: []string{"stage", "status", "reason", "modules"},
		Sums:    []Sum{{Column: 3, Total: setAside, What: "the number of modules that ended unjudged, unavailable or skipped"}},
	}
	for _, k := range c.ranked(func(a, b key) bool {
		if a.stage != b.stage {
			return stageIndex(a.stage) < stageIndex(b.stage)
		}
		if a.status != b.status {
			return a.status < b.status
		}
		return a.reason < b.reason
	}) {
		t.Rows = append(t.Rows, []any{k.stage, k.status, k.reason, c.n[k]})
	}
	return t
}

// RunHeader describes a run in a document's header lines.
func RunHeader(run *Run, modules int64) []string {
	return runHeader(run.ID(), run.Meta.Started, run.Complete(), run.Problems, modules)
}

// runHeader formats a run's header lines.
func runHeader(runID string, started time.Time, complete bool, problems []string, modules int64) []string {
	state := "complete"
	if !complete {
		state = "INCOMPLETE"
	}
	h := []string{fmt.Sprintf("run %s, started %s, %s, %d modules", runID, started.UTC().Format(time.RFC3339), state, modules)}
	for _, p := range problems {
		h = append(h, "problem: "+p)
	}
	return h
}

// Document returns the report as a printable document, with the charts
// and per-library drill-down of the HTML dashboard.
func (r *Report) Document() *Document {
	d := &Document{
		Title:   "airpipe report",
		Header:  runHeader(r.RunID, r.Started, r.Complete, r.Problems, r.Modules),
		Tables:  r.Tables,
		JSON:    r,
		Details: r.details,
	}
	if r.Root != "" {
		d.Header = append(d.Header, "libraries are named relative to "+r.Root)
	}
	d.Charts = append(d.Charts, r.charts[0])
	if r.history != nil && len(r.history.Points) > 0 {
		d.Charts = append(d.Charts, r.history.TrendChart())
	}
	d.Charts = append(d.Charts, r.charts[1:]...)
	return d
}

// dashboard computes the report's charts (the stage funnel first) and its
// per-library drill-down from the rows and the checked tables.
func dashboard(rows []Row, tables []*Table, failed int64, opt ReportOptions) ([]Chart, []Detail) {
	byName := map[string]*Table{}
	for _, t := range tables {
		byName[t.Name] = t
	}
	funnel := Chart{Name: "funnel", Title: "Stage funnel: modules that passed each stage and every one before it",
		Kind: ChartBar, YLabel: "modules"}
	s := Series{Name: "modules"}
	for _, row := range byName["funnel"].Rows[1:] {
		funnel.X = append(funnel.X, row[0].(string))
		s.Values = append(s.Values, float64(row[1].(int64)))
	}
	funnel.Series = []Series{s}

	var codes []string
	var counts []int64
	type cc struct {
		code string
		n    int64
	}
	var byCode []cc
	for _, row := range byName["failures"].Rows {
		byCode = append(byCode, cc{row[1].(string), row[2].(int64)})
	}
	sort.SliceStable(byCode, func(i, j int) bool { return byCode[i].n > byCode[j].n })
	for _, c := range byCode {
		codes = append(codes, c.code)
		counts = append(counts, c.n)
	}
	failures := paretoChart("failure_codes", "Failure codes (Pareto)", "failed modules", codes, counts, failed, 15)

	var labels []string
	var unlocks []int64
	for _, fr := range RankFeatures(rows, 0) {
		if fr.Unlocks == 0 {
			break
		}
		labels = append(labels, fr.Code+" "+fr.Detail)
		unlocks = append(unlocks, fr.Unlocks)
	}
	sole := paretoChart("sole_blockers", "Sole blockers: the one missing feature of a module (Pareto)",
		"modules with one missing feature", labels, unlocks, SoleBlocked(rows), 15)

	libs := libraryOutcomes(rows)
	limit := opt.Libraries
	if limit <= 0 || limit > 25 {
		limit = 25
	}
	charts := []Chart{funnel, failures, sole, libraryChart(libs, limit), statusChart(rows)}
	return charts, libraryDetails(rows, libs, limit)
}

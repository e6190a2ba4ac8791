package analytics

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file; got:\n%s", name, got)
	}
}

// sampleRows is a small, hand-made run: every outcome, shared bitcode,
// features that are sole blockers and features that are not.
func sampleRows() []Row {
	acos := f("translate/unhandled-intrinsic", "air.fast_acos.f32")
	tex := f("translate/unhandled-intrinsic", "air.sample_texture_2d.v4f32")
	meta := f("translate/unhandled-metadata", "air.arg_type_align_size")
	sw := f("reader/unknown-record", "FUNCTION_BLOCK/INST_SWITCH")
	rows := []Row{
		mkRow("a.metallib", "clear", "s01", "fragment", "device", "", "", ""),
		mkRow("a.metallib", "blit", "s02", "fragment", "compile", "emulator", "emulator/mismatch", "output[0]"),
		mkRow("a.metallib", "acos1", "s03", "kernel", "reader", "translate", acos.Code, acos.Detail, acos),
		mkRow("b.metallib", "acos1", "s03", "kernel", "reader", "translate", acos.Code, acos.Detail, acos),
		mkRow("b.metallib", "acos_tex", "s04", "fragment", "reader", "translate", acos.Code, acos.Detail, acos, tex),
		mkRow("b.metallib", "tex", "s05", "fragment", "reader", "translate", tex.Code, tex.Detail, tex),
		mkRow("b.metallib", "meta", "s06", "vertex", "reader", "translate", meta.Code, meta.Detail, meta, acos, meta),
		mkRow("c.metallib", "sw", "s07", "visible", "container", "reader", sw.Code, sw.Detail, sw),
		mkRow("c.metallib", "bad", "s08", "kernel", "", "container", "container/hash-mismatch", "function[1]"),
		withStatus(mkRow("c.metallib", "kern", "s09", "kernel", "compile", "", "", ""), "emulator", "unjudged", "no CPU reference for air.* calls"),
		withStatus(mkRow("c.metallib", "kern2", "s10", "kernel", "compile", "", "", ""), "emulator", "unjudged", "no CPU reference for air.* calls"),
		withStatus(mkRow("a.metallib", "frag", "s11", "fragment", "emulator", "", "", ""), "device", "unavailable", "no GPU"),
	}
	rows[1].Platform = "macOS"
	for i := range rows {
		// Stages after the one set aside did not run.
		if _, st := rows[i].Outcome(); isSetAside(st) && rows[i].DeviceStatus == "passed" && rows[i].EmulatorStatus != "passed" {
			rows[i].DeviceStatus = "not-run"
		}
	}
	return rows
}

func sampleRun(t *testing.T, rows []Row) *Run {
	t.Helper()
	out := t.TempDir()
	m := testMeta("r-sample")
	w, err := NewWriter(out, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	m.Complete = true
	m.Counts = Counts{FilesSeen: 6, LibrariesParsed: 3, FilesRefused: 2, FilesNotLibraries: 1,
		RefusedReasons: map[string]int64{"container/truncated": 1, "container/zero-byte": 1}, Modules: int64(len(rows))}
	if err := w.Close(m); err != nil {
		t.Fatal(err)
	}
	runs, err := ReadRuns(out)
	if err != nil || len(runs) != 1 {
		t.Fatalf("%v %d", err, len(runs))
	}
	return &runs[0]
}

func TestReportGolden(t *testing.T) {
	run := sampleRun(t, sampleRows())
	rep, err := BuildReport(run, DefaultReportOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    Format
	}{{"report.txt", FormatText}, {"report.md", FormatMarkdown}, {"report.json", FormatJSON}, {"report.html", FormatHTML}} {
		var b bytes.Buffer
		if err := Render(&b, rep.Document(), tc.f); err != nil {
			t.Fatal(err)
		}
		golden(t, tc.name, b.Bytes())
	}
}

func TestFeatureRanking(t *testing.T) {
	ranked := RankFeatures(sampleRows(), 2)
	got := map[string]FeatureRank{}
	for _, fr := range ranked {
		got[fr.Detail] = fr
	}
	acos := got["air.fast_acos.f32"]
	// acos1 twice (same bitcode, two libraries) is sole; acos_tex and meta also miss it.
	if acos.Blocks != 4 || acos.Unlocks != 2 || acos.DistinctBitcode != 3 || acos.UnlocksDistinct != 1 {
		t.Errorf("acos: %+v", acos)
	}
	if m := got["air.arg_type_align_size"]; m.Blocks != 1 || m.Unlocks != 0 {
		t.Errorf("duplicate finding counted twice: %+v", m)
	}
	if ranked[0].Detail != "air.fast_acos.f32" {
		t.Errorf("first: %+v", ranked[0])
	}
	if len(acos.Examples) != 2 || acos.Examples[0].Function != "acos1" {
		t.Errorf("examples: %+v", acos.Examples)
	}
	for i := 1; i < len(ranked); i++ {
		a, b := ranked[i-1], ranked[i]
		if a.Unlocks < b.Unlocks || (a.Unlocks == b.Unlocks && a.Blocks < b.Blocks) {
			t.Errorf("not sorted by unlocks then blocks at %d: %+v %+v", i, a, b)
		}
	}
}

// TestReportRefusesBrokenCounts breaks totals on purpose, each in its own
// way, and checks the report refuses, naming the table.
func TestReportRefusesBrokenCounts(t *testing.T) {
	cases := []struct {
		name  string
		table string
		mod   func(run *Run)
	}{
		{"run.json files_seen off by one", "files", func(run *Run) { run.Meta.Counts.FilesSeen++ }},
		{"failed_stage without a failed status", "failures", func(run *Run) {
			run.Rows[0].FailedStage, run.Rows[0].FailureCode = "translate", "translate/x"
		}},
		{"run.json counts one module more than was written", "funnel", func(run *Run) { run.Meta.Counts.Modules++ }},
		{"stage_reached names no stage of the run", "funnel", func(run *Run) { run.Rows[0].StageReached = "linker" }},
		{"unknown status is counted nowhere", "by_function_kind", func(run *Run) {
			run.Rows[2].StageReached = "device"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := sampleRun(t, sampleRows())
			tc.mod(run)
			_, err := BuildReport(run, DefaultReportOptions)
			var te *TableError
			if !errors.As(err, &te) || te.Table != tc.table {
				t.Fatalf("want a TableError for %q, got %v", tc.table, err)
			}
			if !strings.Contains(err.Error(), "refusing to print") {
				t.Fatalf("error: %v", err)
			}
		})
	}
	// And Render itself refuses a table that does not add up, printing nothing.
	bad := &Document{Title: "x", Tables: []*Table{{Name: "t", Columns: []string{"k", "n"},
		Rows: [][]any{{"a", int64(1)}, {"b", int64(2)}}, Sums: []Sum{{Column: 1, Total: 4, What: "four"}}}}}
	var b bytes.Buffer
	if err := Render(&b, bad, FormatText); err == nil || b.Len() != 0 {
		t.Fatalf("rendered a table that does not add up: %v %q", err, b.String())
	}
}

func TestReportFoldsLongTables(t *testing.T) {
	run := sampleRun(t, sampleRows())
	rep, err := BuildReport(run, ReportOptions{Libraries: 1, Features: 1, Examples: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range rep.Tables {
		if tb.Name == "by_library" && (len(tb.Rows) != 2 || tb.Rows[1][0] != "(2 others)") {
			t.Errorf("by_library: %v", tb.Rows)
		}
		if tb.Name == "features_translate" && len(tb.Rows) != 2 {
			t.Errorf("features: %v", tb.Rows)
		}
	}
}

func BenchmarkReport100k(b *testing.B) {
	run := &Run{Meta: testMeta("bench"), Rows: manyRows(100_000)}
	run.Meta.Complete = true
	run.Meta.Counts.Modules = 100_000
	for b.Loop() {
		rep, err := BuildReport(run, DefaultReportOptions)
		if err != nil {
			b.Fatal(err)
		}
		if err := Render(&bytes.Buffer{}, rep.Document(), FormatText); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFeatures100k(b *testing.B) {
	rows := manyRows(100_000)
	for b.Loop() {
		tb := FeaturesTable(RankFeatures(rows, 3), 0, SoleBlocked(rows))
		if err := tb.Check(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadAndReport100k reads a 100,000-row run from Parquet and
// builds its report and ranking, as airpipe report does.
func BenchmarkReadAndReport100k(b *testing.B) {
	out := b.TempDir()
	dir := writeRun(b, out, testMeta("big"), DefaultPartRows, manyRows(100_000))
	for b.Loop() {
		run, _, err := OpenRun(dir)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := BuildReport(run, DefaultReportOptions)
		if err != nil {
			b.Fatal(err)
		}
		if err := Render(io.Discard, rep.Document(), FormatText); err != nil {
			b.Fatal(err)
		}
	}
}

func TestReportEmptyRun(t *testing.T) {
	run := sampleRun(t, nil)
	run.Meta.Counts = Counts{FilesSeen: 1, FilesNotLibraries: 1}
	rep, err := BuildReport(run, DefaultReportOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatText, FormatMarkdown, FormatJSON, FormatHTML} {
		if err := Render(io.Discard, rep.Document(), f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

// TestReportTextFits100Columns: with long library paths and long reasons
// every line of the text report fits 100 columns, libraries are named
// relative to their common root, the by-library table lists the library
// with the most failures first, and the checks are one quiet line.
func TestReportTextFits100Columns(t *testing.T) {
	rows := manyRows(600)
	for i := range rows {
		rows[i].Source = "/very/long/root/of/the/corpus/" + strings.Repeat("deep_directory_name/", 4) + rows[i].Source
		rows[i].StatusReason = strings.Repeat("a long reason ", 12)
	}
	// lib133 gets the most failures.
	for i := 0; i < 30; i++ {
		r := mkRow("x", fmt.Sprintf("extra%d", i), "e", "kernel", "reader", "translate", "translate/unhandled-intrinsic", "air.x")
		r.Source = "/very/long/root/of/the/corpus/" + strings.Repeat("deep_directory_name/", 4) + "lib133.metallib"
		rows = append(rows, r)
	}
	run := &Run{Meta: testMeta("wide"), Rows: rows}
	run.Meta.Complete = true
	run.Meta.Counts.Modules = int64(len(rows))
	rep, err := BuildReport(run, DefaultReportOptions)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Render(&b, rep.Document(), FormatText); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for i, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > TextWidth {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
	if strings.Count(text, "/very/long/root") != 1 || !strings.Contains(text, "libraries are named relative to") {
		t.Error("absolute paths in the tables")
	}
	lib := text[strings.Index(text, "Stage funnel by library"):]
	if first := regexp.MustCompile(`(?m)^-+  -+.*\n(\S+)`).FindStringSubmatch(lib); first == nil || first[1] != "lib133.metallib" {
		t.Errorf("by-library table does not start with the most failures:\n%.300s", lib)
	}
	if strings.Count(text, "totals checked") != 1 || strings.Contains(text, "total modules:") {
		t.Error("checks not one quiet line")
	}
}

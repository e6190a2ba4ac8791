package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airpipe/airpipe/analytics"
)

// row builds a results row that passed every stage up to reached and
// failed at failed (when not "") with code and detail.
func row(fn, sha, ftype, reached, failed, code, detail string) analytics.Row {
	r := analytics.Row{Source: "lib.metallib", Function: fn, FunctionType: ftype, BitcodeSHA256: sha,
		Platform: "iOS", StageReached: reached, FailedStage: failed, FailureCode: code, FailureDetail: detail}
	if code != "" {
		r.Missing = []analytics.Finding{{Code: code, Detail: detail}}
	}
	status := "passed"
	for _, s := range analytics.StageNames {
		if s == failed {
			r.SetStage(s, "failed", 1)
			status = "not-run"
			continue
		}
		r.SetStage(s, status, 1)
		if s == reached && failed == "" {
			status = "not-run"
		}
	}
	return r
}

// writeTestRun writes a complete run into out and returns its directory.
func writeTestRun(t *testing.T, out, id string, day int, rows []analytics.Row) string {
	t.Helper()
	meta := analytics.RunMeta{RunID: id, Started: time.Date(2026, 11, 1+day, 2, 0, 0, 0, time.UTC),
		Stages: analytics.StageNames, Host: "test"}
	w, err := analytics.NewWriter(out, meta)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	meta.Complete = true
	meta.Counts = analytics.Counts{FilesSeen: 1, LibrariesParsed: 1, Modules: int64(len(rows))}
	if err := w.Close(meta); err != nil {
		t.Fatal(err)
	}
	return w.Dir()
}

func oldRows() []analytics.Row {
	return []analytics.Row{
		row("a", "s1", "fragment", "device", "", "", ""),
		row("b", "s2", "kernel", "compile", "emulator", "emulator/mismatch", "output[0]"),
		row("c", "s3", "kernel", "reader", "translate", "translate/unhandled-intrinsic", "air.fast_acos.f32"),
	}
}

func newRows() []analytics.Row {
	r := oldRows()
	// b regresses: it now fails at translate.
	r[1] = row("b", "s2", "kernel", "reader", "translate", "translate/unhandled-intrinsic", "air.fast_acos.f32")
	return r
}

// airpipe runs a subcommand and returns its exit status and outputs.
func airpipe(t *testing.T, cmd func([]string, io.Writer, io.Writer) int, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cmd(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestReportCmd(t *testing.T) {
	out := t.TempDir()
	dir := writeTestRun(t, out, "r1", 0, oldRows())
	for _, format := range []string{"text", "md", "json", "html"} {
		code, stdout, stderr := airpipe(t, reportCmd, "--format", format, dir)
		if code != 0 || stdout == "" {
			t.Fatalf("%s: exit %d, stderr %s", format, code, stderr)
		}
	}
	code, stdout, _ := airpipe(t, reportCmd, dir)
	if code != 0 || !strings.Contains(stdout, "Stage funnel") || !strings.Contains(stdout, "air.fast_acos.f32") {
		t.Fatalf("report: %d\n%s", code, stdout)
	}
	// A results directory means its latest complete run.
	code, _, stderr := airpipe(t, reportCmd, out)
	if code != 0 || !strings.Contains(stderr, "latest complete run r1") {
		t.Fatalf("results dir: %d %s", code, stderr)
	}
	// --output writes a file.
	file := filepath.Join(t.TempDir(), "r.html")
	if code, _, stderr := airpipe(t, reportCmd, "--format", "html", "-o", file, dir); code != 0 {
		t.Fatalf("--output: %d %s", code, stderr)
	}
	if b, err := os.ReadFile(file); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Fatalf("html file: %v", err)
	}
	// Usage errors.
	if code, _, _ := airpipe(t, reportCmd); code != 2 {
		t.Errorf("no RUN: exit %d", code)
	}
	if code, _, _ := airpipe(t, reportCmd, "--format", "pdf", dir); code != 2 {
		t.Errorf("bad format: exit %d", code)
	}
	if code, stdout, _ := airpipe(t, reportCmd, "--help"); code != 0 || !strings.Contains(stdout, "Examples:") {
		t.Errorf("--help: %d %s", code, stdout)
	}
}

// TestReportCmdRefusesBrokenRun breaks the files count in run.json on
// purpose: the report must print nothing, name the table, and exit 1.
func TestReportCmdRefusesBrokenRun(t *testing.T) {
	dir := writeTestRun(t, t.TempDir(), "broken", 0, oldRows())
	path := filepath.Join(dir, "run.json")
	b, _ := os.ReadFile(path)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["counts"].(map[string]any)["files_seen"] = 5
	b, _ = json.Marshal(m)
	os.WriteFile(path, b, 0o644)
	code, stdout, stderr := airpipe(t, reportCmd, dir)
	if code != 1 || stdout != "" || !strings.Contains(stderr, `table "files"`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestFeaturesCmd(t *testing.T) {
	dir := writeTestRun(t, t.TempDir(), "r1", 0, newRows())
	code, stdout, stderr := airpipe(t, featuresCmd, "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		SoleBlocked int64 `json:"sole_blocked"`
		Features    []analytics.FeatureRank
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Features) != 1 || got.Features[0].Unlocks != 2 || got.Features[0].DistinctBitcode != 2 || got.SoleBlocked != 2 {
		t.Fatalf("%+v", got)
	}
	// A code that matches nothing is refused, naming the run's codes.
	if code, stdout, stderr := airpipe(t, featuresCmd, "--code", "reader/none", dir); code != 1 || stdout != "" || !strings.Contains(stderr, "its codes: translate/unhandled-intrinsic") {
		t.Fatalf("--code reader/none: %d %q %q", code, stdout, stderr)
	}
	// A prefix at '/' matches the codes under it.
	if code, stdout, stderr := airpipe(t, featuresCmd, "--code", "translate", dir); code != 0 || !strings.Contains(stdout, "air.fast_acos.f32") {
		t.Fatalf("--code translate: %d %s %s", code, stdout, stderr)
	}
	if code, _, _ := airpipe(t, featuresCmd, "--code", "transl", dir); code != 1 {
		t.Fatalf("--code transl (not at a '/') matched: exit %d", code)
	}
	if code, _, stderr := airpipe(t, featuresCmd, "--stage", "nonsense", dir); code != 2 || !strings.Contains(stderr, "translate, compile") {
		t.Fatalf("--stage nonsense: %d %s", code, stderr)
	}
}

// TestFeaturesByKind: translator gaps, reference gaps and emulator
// mismatches are ranked in tables of their own, and --stage picks one.
func TestFeaturesByKind(t *testing.T) {
	rows := oldRows()
	ref := row("d", "s4", "kernel", "compile", "", "", "")
	ref.EmulatorStatus, ref.StatusReason = "unjudged", "emulator/no-reference: approximate-op air.fast_pow.f32"
	ref.Missing = []analytics.Finding{{Code: "emulator/no-reference", Detail: "approximate-op air.fast_pow.f32"}}
	rows = append(rows, ref)
	dir := writeTestRun(t, t.TempDir(), "kinds", 0, rows)
	code, stdout, stderr := airpipe(t, featuresCmd, dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	tr := strings.Index(stdout, "Missing features: translator gaps")
	em := strings.Index(stdout, "Missing features: emulator failures")
	rf := strings.Index(stdout, "Missing features: reference gaps")
	if tr < 0 || em < tr || rf < em {
		t.Fatalf("tables not one per kind in stage order:\n%s", stdout)
	}
	if strings.Contains(stdout[tr:em], "no-reference") || !strings.Contains(stdout[rf:], "air.fast_pow.f32") {
		t.Fatalf("a reference gap ranked with translator gaps:\n%s", stdout)
	}
	code, stdout, _ = airpipe(t, featuresCmd, "--stage", "reference", "--format", "json", dir)
	var got struct {
		SoleBlocked int64                   `json:"sole_blocked"`
		Features    []analytics.FeatureRank `json:"features"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); code != 0 || err != nil {
		t.Fatalf("exit %d %v", code, err)
	}
	if len(got.Features) != 1 || got.Features[0].Kind != "reference" || got.SoleBlocked != 1 {
		t.Fatalf("--stage reference: %+v", got)
	}
}

func TestDiffCmdFailOnRegression(t *testing.T) {
	out := t.TempDir()
	old := writeTestRun(t, out, "old", 0, oldRows())
	nw := writeTestRun(t, out, "new", 1, newRows())
	code, stdout, _ := airpipe(t, diffCmd, old, nw)
	if code != 0 || !strings.Contains(stdout, "regressed") {
		t.Fatalf("plain diff: %d\n%s", code, stdout)
	}
	code, _, stderr := airpipe(t, diffCmd, "--fail-on-regression", old, nw)
	if code != 3 || !strings.Contains(stderr, "1 modules regressed") {
		t.Fatalf("--fail-on-regression: exit %d, %s", code, stderr)
	}
	// The other way round, b improved: no regression.
	if code, _, stderr := airpipe(t, diffCmd, "--fail-on-regression", nw, old); code != 0 {
		t.Fatalf("improvement failed the gate: %d %s", code, stderr)
	}
	if code, _, _ := airpipe(t, diffCmd, old); code != 2 {
		t.Errorf("one run: exit %d", code)
	}
}

func TestMilestonesAndTrendsCmd(t *testing.T) {
	out := t.TempDir()
	writeTestRun(t, out, "old", 0, oldRows())
	writeTestRun(t, out, "new", 1, newRows())
	code, stdout, stderr := airpipe(t, milestonesCmd, out)
	if code != 0 || !strings.Contains(stdout, "M0") || !strings.Contains(stdout, "2 runs considered") {
		t.Fatalf("milestones: %d %s %s", code, stdout, stderr)
	}
	code, stdout, _ = airpipe(t, milestonesCmd, "--print-default")
	if _, err := analytics.ParseMilestones([]byte(stdout)); code != 0 || err != nil {
		t.Fatalf("--print-default: %d %v", code, err)
	}
	bad := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(bad, []byte(`{"milestones":[{"id":"X","stage":"nowhere","target_count":1}]}`), 0o644)
	if code, _, stderr := airpipe(t, milestonesCmd, "--config", bad, out); code != 2 || !strings.Contains(stderr, "nowhere") {
		t.Fatalf("bad config: %d %s", code, stderr)
	}
	code, stdout, _ = airpipe(t, trendsCmd, out)
	if code != 0 || !strings.Contains(stdout, "old") || !strings.Contains(stdout, "new") {
		t.Fatalf("trends: %d %s", code, stdout)
	}
	if code, _, _ := airpipe(t, trendsCmd, t.TempDir()); code != 1 {
		t.Errorf("empty results dir: exit %d", code)
	}
}

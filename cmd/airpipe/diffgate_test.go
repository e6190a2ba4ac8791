package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airpipe/airpipe/analytics"
)

// writeKilledRun writes a run that never completed (killed, or running).
func writeKilledRun(t *testing.T, out, id string, day int, rows []analytics.Row) string {
	t.Helper()
	meta := analytics.RunMeta{RunID: id, Started: time.Date(2026, 11, 1+day, 2, 0, 0, 0, time.UTC), Stages: analytics.StageNames, Host: "test"}
	w, err := analytics.NewWriter(out, meta)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(meta); err != nil {
		t.Fatal(err)
	}
	return w.Dir()
}

// TestDiffGateNeverJudgesAMissingRun: a gate over a results directory
// whose newest run is damaged or killed does not pass by comparing an older
// run (or OLD itself); the runs passed over are named.
func TestDiffGateNeverJudgesAMissingRun(t *testing.T) {
	out := t.TempDir()
	old := writeTestRun(t, out, "a-old", 0, oldRows())
	writeKilledRun(t, out, "b-killed", 1, newRows()[:1])
	// OLD against the results directory: it resolves to OLD itself.
	code, _, stderr := airpipe(t, diffCmd, "--fail-on-regression", old, out)
	if code != 1 || !strings.Contains(stderr, "skipped 1 newer: b-killed (not complete") || !strings.Contains(stderr, "same run a-old") {
		t.Fatalf("diff OLD results/: exit %d\n%s", code, stderr)
	}
	// A newer complete run exists but the newest is killed: the gate
	// refuses instead of judging the older one.
	out2 := t.TempDir()
	old2 := writeTestRun(t, out2, "a-old", 0, oldRows())
	writeTestRun(t, out2, "b-new", 1, oldRows())
	writeKilledRun(t, out2, "c-killed", 2, newRows())
	code, _, stderr = airpipe(t, diffCmd, "--fail-on-regression", old2, out2)
	if code != 1 || !strings.Contains(stderr, "newest run under") || !strings.Contains(stderr, "c-killed") {
		t.Fatalf("gate over a killed newest run: exit %d\n%s", code, stderr)
	}
	// Without the gate the diff runs, naming its choice.
	code, _, stderr = airpipe(t, diffCmd, old2, out2)
	if code != 0 || !strings.Contains(stderr, "latest complete run b-new; skipped 1 newer: c-killed") {
		t.Fatalf("plain diff: exit %d\n%s", code, stderr)
	}
	// report names the choice too.
	if code, _, stderr := airpipe(t, reportCmd, out2); code != 0 || !strings.Contains(stderr, "skipped 1 newer: c-killed") {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
}

// TestDiffMatchesContentNotPaths: the same corpus reached through another
// path is matched by content, so a planted regression fails the gate; two
// runs that share nothing are a refusal, not a pass.
func TestDiffMatchesContentNotPaths(t *testing.T) {
	at := func(root string, rows []analytics.Row) []analytics.Row {
		for i := range rows {
			rows[i].Source = root + "/x/lib.metallib"
			rows[i].LibrarySHA256 = "lib1"
			rows[i].FunctionIndex = int32(i)
		}
		return rows
	}
	out := t.TempDir()
	old := writeTestRunRoots(t, out, "old", 0, []string{"/srv/corpus"}, at("/srv/corpus", oldRows()))
	nw := writeTestRunRoots(t, out, "new", 1, []string{"../corpus"}, at("../corpus", newRows()))
	code, stdout, stderr := airpipe(t, diffCmd, "--fail-on-regression", old, nw)
	if code != 3 || !strings.Contains(stdout, "x/lib.metallib!b") {
		t.Fatalf("same corpus, other path: exit %d\n%s\n%s", code, stdout, stderr)
	}
	other := at("/srv/other", oldRows())
	for i := range other {
		other[i].LibrarySHA256 = "lib2"
	}
	disjoint := writeTestRunRoots(t, out, "disjoint", 2, []string{"/srv/other"}, other)
	code, _, stderr = airpipe(t, diffCmd, "--fail-on-regression", old, disjoint)
	if code != 1 || !strings.Contains(stderr, "no module of old (3) matches one of disjoint (3)") {
		t.Fatalf("disjoint runs: exit %d\n%s", code, stderr)
	}
}

// writeTestRunRoots is writeTestRun with the run's roots recorded.
func writeTestRunRoots(t *testing.T, out, id string, day int, roots []string, rows []analytics.Row) string {
	t.Helper()
	dir := writeTestRun(t, out, id, day, rows)
	p := filepath.Join(dir, "run.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["roots"] = roots
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

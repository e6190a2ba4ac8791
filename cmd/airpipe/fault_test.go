package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airpipe/airpipe/analytics"
)

// TestDiskFull: with the results file size capped (RLIMIT_FSIZE), writing
// fails; the error is surfaced, the exit status is non-zero, and the run is
// not passed off as complete.
func TestDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a child")
	}
	bin := buildAirpipe(t)
	corpusDir := bigCorpus(t, 400)
	out := t.TempDir()
	cmd := exec.Command("/bin/sh", "-c", `ulimit -f 16 && exec "$0" "$@"`, bin,
		"run", "--out", out, "--run-id", "full", "--progress", "none", "--no-cache", "--checkpoint", "1ms", corpusDir)
	stdout, err := cmd.Output()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1\nstdout %s", err, stdout)
	}
	if !strings.Contains(string(ee.Stderr), "writing results") {
		t.Errorf("stderr does not surface the write error: %s", ee.Stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "full", "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta analytics.RunMeta
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Complete {
		t.Errorf("run.json says complete after a write failure")
	}
	// Whatever landed is whole: every listed part reads.
	for _, p := range meta.Parts {
		if _, err := os.Stat(filepath.Join(out, "full", p.File)); err != nil {
			t.Errorf("listed part %s: %v", p.File, err)
		}
	}
	if tmps, _ := filepath.Glob(filepath.Join(out, "full", "part-*.parquet")); len(tmps) != len(meta.Parts) {
		t.Errorf("%d part files on disk, %d listed", len(tmps), len(meta.Parts))
	}
}

// TestToolFaultsStayInTheirModule: an exec stage whose tool segfaults on one
// module and hangs on another fails exactly those two (crash, timeout);
// every other module's row is intact and the run completes.
func TestToolFaultsStayInTheirModule(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "faulty.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncase \"$1\" in\n  scale) kill -SEGV $$ ;;\n  sum_sqrt) sleep 30 ;;\nesac\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "stages.json")
	if err := os.WriteFile(cfg, []byte(`{"stages": [{"name": "faulty", "after": "container", "command": ["`+script+`", "{function}"], "timeout": "1s"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, n := range []string{"compute.metallib", "render.metallib"} {
		if err := os.WriteFile(filepath.Join(root, n), sampleLibrary(t, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	start := time.Now()
	runOK(t, "run", "--out", out, "--progress", "none", "--no-cache", "--stage-config", cfg, root)
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("run took %s: the hung tool was not killed at its timeout", el)
	}
	meta, rows, err := analytics.ReadRun(onlyRun(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Complete || len(rows) != 4 {
		t.Fatalf("complete %v, %d rows", meta.Complete, len(rows))
	}
	want := map[string]string{"scale": "crash", "sum_sqrt": "timeout", "pass_vertex": "", "solid_fragment": ""}
	for _, r := range rows {
		if r.FailureCode != want[r.Function] {
			t.Errorf("%s: failure %q (%s), want %q", r.Function, r.FailureCode, r.FailureMessage, want[r.Function])
		}
		if want[r.Function] != "" && r.FailedStage != "faulty" {
			t.Errorf("%s: failed stage %q", r.Function, r.FailedStage)
		}
		if want[r.Function] == "" && r.ReaderStatus != "passed" {
			t.Errorf("%s: reader %q after the faulty stage", r.Function, r.ReaderStatus)
		}
	}
}

// TestInterrupt: Ctrl-C (SIGINT) stops taking work, writes every row
// finished, marks the run interrupted and incomplete, and exits 1; the
// file accounting still adds up; --resume then gives exactly the rows of an
// uninterrupted run. The signal goes once the first part has landed (not
// after a fixed delay, which a loaded machine outruns).
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a child")
	}
	bin := buildAirpipe(t)
	corpusDir := bigCorpus(t, 3000)
	out := t.TempDir()
	cmd := exec.Command(bin, "run", "--out", out, "--run-id", "int", "--progress", "none", "--no-cache", "--jobs", "1",
		"--checkpoint", "1ms", "--stages", "container,reader", corpusDir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	if !awaitPart(filepath.Join(out, "int"), exited, &err) {
		t.Fatalf("the run ended (%v) before any part landed; stderr %s", err, stderr.String())
	}
	_ = cmd.Process.Signal(os.Interrupt)
	err = <-exited
	meta, rows, rerr := analytics.ReadRun(filepath.Join(out, "int"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if meta.Complete && err == nil {
		t.Skip("the run finished before the interrupt")
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1; stderr %s", err, stderr.String())
	}
	if meta.Complete || !meta.Interrupted {
		t.Errorf("run.json: complete %v interrupted %v", meta.Complete, meta.Interrupted)
	}
	if int64(len(rows)) != meta.Counts.Modules || len(rows) == 0 {
		t.Errorf("%d rows written, run.json counts %d modules", len(rows), meta.Counts.Modules)
	}
	if err := meta.Counts.Check(); err != nil {
		t.Error(err)
	}
	if !strings.Contains(stderr.String(), "--resume") {
		t.Errorf("stderr does not say how to resume: %s", stderr.String())
	}
	t.Logf("interrupted with %d of 6000 rows; refused: %v", len(rows), meta.Counts.RefusedReasons)
	for _, r := range rows {
		if r.FailureCode == "cancelled" {
			t.Fatalf("row %s#%d landed as cancelled: --resume would keep it", r.Source, r.FunctionIndex)
		}
	}

	refOut := t.TempDir()
	runOK(t, "run", "--out", refOut, "--progress", "none", "--no-cache", "--stages", "container,reader", corpusDir)
	_, want, err := analytics.ReadRun(onlyRun(t, refOut))
	if err != nil {
		t.Fatal(err)
	}
	runOK(t, "run", "--resume", filepath.Join(out, "int"), "--progress", "none")
	meta, rows, err = analytics.ReadRun(filepath.Join(out, "int"))
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Complete || strings.Join(rowSet(t, rows), "\n") != strings.Join(rowSet(t, want), "\n") {
		t.Errorf("resumed run: complete %v, %d rows; an uninterrupted run has %d", meta.Complete, len(rows), len(want))
	}
}

// awaitPart waits until a part file has landed in the run directory dir
// (true) or the child has exited (false, its error in *err). It looks at
// the directory each millisecond: the event is the part's rename into place.
func awaitPart(dir string, exited <-chan error, err *error) bool {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		if parts, _ := filepath.Glob(filepath.Join(dir, "part-*.parquet")); len(parts) > 0 {
			return true
		}
		select {
		case *err = <-exited:
			parts, _ := filepath.Glob(filepath.Join(dir, "part-*.parquet"))
			return len(parts) > 0
		case <-tick.C:
		}
	}
}

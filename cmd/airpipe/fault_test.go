package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
)

// TestResumeOneShardInPlace follows the README's shard recipe (every shard
// into one shared run directory), tears shard 1 as a kill would, and
// resumes that shard alone in place: the directory then reads as the rows
// of one unsharded run. Resuming it without --shard, or with a shard that
// never ran there, refuses by name.
func TestResumeOneShardInPlace(t *testing.T) {
	root := bigCorpus(t, 40)
	one := t.TempDir()
	runOK(t, "run", "--out", one, "--progress", "none", "--no-cache", "--stages", "container,reader", root)
	_, want, err := analytics.ReadRun(onlyRun(t, one))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for i := range 2 {
		runOK(t, "run", "--out", out, "--run-id", "nightly", "--shard", fmt.Sprintf("%d/2", i), "--progress", "none", "--no-cache", "--stages", "container,reader", root)
	}
	dir := filepath.Join(out, "nightly")
	// Shard 1 killed: its run file says incomplete, its parts are torn.
	metaPath := filepath.Join(dir, "run-1of2.json")
	meta, err := os.ReadFile(metaPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(metaPath, []byte(strings.Replace(string(meta), `"complete": true`, `"complete": false`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "part-1of2-*.parquet"))
	if len(parts) == 0 {
		t.Fatal("shard 1 wrote no part")
	}
	for _, p := range parts {
		if err := os.WriteFile(p, []byte("PAR1 torn"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shard0, _ := os.ReadFile(filepath.Join(dir, "run-0of2.json"))

	for _, c := range []struct {
		args []string
		say  string
	}{
		{[]string{"run", "--resume", dir}, "--resume " + dir + " --shard I/N"},
		{[]string{"run", "--resume", dir, "--shard", "0/3"}, "holds no run-0of3.json"},
	} {
		var stdout, stderr strings.Builder
		if code := run(c.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.say) {
			t.Errorf("%v: exit %d, stderr %q; want 2 saying %q", c.args, code, stderr.String(), c.say)
		}
	}

	var stdout, stderr strings.Builder
	if code := run([]string{"run", "--resume", dir, "--shard", "1/2", "--progress", "none"}, &stdout, &stderr); code != 0 {
		t.Fatalf("resume --shard 1/2: exit %d: %s", code, stderr.String())
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "run-0of2.json")); string(after) != string(shard0) {
		t.Error("resuming shard 1 rewrote shard 0's run file")
	}
	m, got, err := analytics.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Complete {
		t.Error("the run is not complete after resuming its torn shard")
	}
	if strings.Join(rowSet(t, got), "\n") != strings.Join(rowSet(t, want), "\n") {
		t.Errorf("after resuming shard 1: %d rows, one run %d", len(got), len(want))
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airpipe/airpipe/analytics"
)

// builtAirpipe is the command built once for the tests that run it as a
// child process.
var builtAirpipe struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// buildAirpipe builds the command (once per test binary) and returns it.
func buildAirpipe(t *testing.T) string {
	t.Helper()
	b := &builtAirpipe
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "airpipe-bin-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, "airpipe")
		b.out, b.err = exec.Command("go", "build", "-o", b.path, ".").CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("go build: %v\n%s", b.err, b.out)
	}
	return b.path
}

// bigCorpus writes n copies of the sample libraries, each with its own
// name (identical bitcode across copies, as in a firmware).
func bigCorpus(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	libs := [][]byte{sampleLibrary(t, "compute.metallib"), sampleLibrary(t, "render.metallib")}
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", i/50))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("lib%05d.metallib", i)), libs[i%2], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// rowSet renders rows as sorted comparable lines (everything but run
// identity and timings), failing on a module written twice.
func rowSet(t *testing.T, rows []analytics.Row) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		id := fmt.Sprintf("%s#%d", r.Source, r.FunctionIndex)
		if seen[id] {
			t.Fatalf("module %s has two rows", id)
		}
		seen[id] = true
		out = append(out, fmt.Sprintf("%s %s %s %s %s %s", id, r.Function, r.BitcodeSHA256, r.StageReached, r.FailureCode, r.ContainerStatus))
	}
	sort.Strings(out)
	return out
}

// TestKillAndResume kills a child run with SIGKILL at random moments and
// checks that resuming yields exactly the rows of an uninterrupted run.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills child processes")
	}
	bin := buildAirpipe(t)
	corpusDir := bigCorpus(t, 3000)
	refOut := t.TempDir()
	runOK(t, "run", "--out", refOut, "--progress", "none", "--no-cache", "--stages", "container,reader", corpusDir)
	_, refRows, err := analytics.ReadRun(onlyRun(t, refOut))
	if err != nil {
		t.Fatal(err)
	}
	want := rowSet(t, refRows)

	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	for trial := range 4 {
		out := t.TempDir()
		id := fmt.Sprintf("kill%d", trial)
		cmd := exec.Command(bin, "run", "--out", out, "--run-id", id, "--progress", "none", "--no-cache",
			"--checkpoint", "20ms", "--jobs", "1", "--stages", "container,reader", corpusDir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(100+rng.IntN(300)) * time.Millisecond
		time.Sleep(delay)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		dir := filepath.Join(out, id)
		if _, err := os.Stat(filepath.Join(dir, "run.json")); os.IsNotExist(err) {
			// Killed before the run began: nothing half-made (at most the
			// run directory holding its lock, taken before run.json).
			// A hidden start temporary (.ID.tmp-*, which no reader
			// lists) may be left; the next start in the same --out
			// sweeps it once its lock is free.
			left, _ := filepath.Glob(filepath.Join(out, "*"))
			temps, _ := filepath.Glob(filepath.Join(out, "."+id+".tmp-*"))
			var inside []string
			des, _ := os.ReadDir(dir)
			for _, de := range des {
				// The lock, and the temporary of run.json's atomic write
				// when the kill came between writing and renaming it: hidden,
				// listed by no reader, never taken for run.json.
				if de.Name() != ".lock" && !strings.HasPrefix(de.Name(), ".run.json.tmp-") {
					inside = append(inside, de.Name())
				}
			}
			if len(inside) != 0 || len(left) > 1 || (len(left) == 1 && left[0] != dir) {
				t.Fatalf("trial %d: killed while starting, left %v %v", trial, left, inside)
			}
			if len(temps) > 0 {
				// The next start of that run id sweeps them.
				if code := run([]string{"run", "--out", out, "--run-id", id, "--progress", "none", "--no-cache", "--stages", "container", corpusDir}, io.Discard, io.Discard); code != 0 {
					t.Fatalf("trial %d: the next run exits %d", trial, code)
				}
				for _, tmp := range temps {
					if _, err := os.Stat(filepath.Join(tmp, ".lock")); err == nil {
						if _, err := os.Stat(tmp); err == nil {
							t.Errorf("trial %d: %s, whose lock is free, was not swept", trial, tmp)
						}
					}
				}
			}
			t.Logf("trial %d: killed after %s, before the run began (start temporaries %v)", trial, delay, temps)
			continue
		}
		meta, partial, err := analytics.ReadRun(dir)
		if err != nil {
			t.Fatalf("trial %d: reading the killed run: %v", trial, err)
		}
		if meta.Complete {
			t.Logf("trial %d: run finished within %s before the kill", trial, delay)
			continue
		}
		t.Logf("trial %d: killed after %s with %d of %d rows landed", trial, delay, len(partial), len(want))
		var stdout, stderr strings.Builder
		if code := run([]string{"run", "--resume", dir, "--progress", "none"}, &stdout, &stderr); code != 0 {
			t.Fatalf("trial %d: resume exit %d: %s", trial, code, stderr.String())
		}
		meta, rows, err := analytics.ReadRun(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !meta.Complete {
			t.Errorf("trial %d: resumed run not complete", trial)
		}
		got := rowSet(t, rows)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("trial %d: resumed rows differ: %d rows, want %d", trial, len(got), len(want))
		}
		if err := meta.Counts.Check(); err != nil || meta.Counts.Modules != int64(len(want)) {
			t.Errorf("trial %d: counts %+v (%v)", trial, meta.Counts, err)
		}
	}
}

// TestResumeCorruptPart: a damaged part file is set aside on resume and its
// rows are recomputed.
func TestResumeCorruptPart(t *testing.T) {
	corpusDir := bigCorpus(t, 20)
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--run-id", "r1", "--progress", "none", "--no-cache", corpusDir)
	dir := filepath.Join(out, "r1")
	_, want, _ := analytics.ReadRun(dir)
	// Make it look interrupted, with a torn part.
	meta, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(strings.Replace(string(meta), `"complete": true`, `"complete": false`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-00000.parquet"), []byte("PAR1 torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"run", "--resume", dir, "--progress", "none"}, &stdout, &stderr); code != 0 {
		t.Fatalf("resume exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "set aside unreadable part-00000.parquet") {
		t.Errorf("resume did not report the torn part: %s", stderr.String())
	}
	_, rows, err := analytics.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rowSet(t, rows), "\n") != strings.Join(rowSet(t, want), "\n") {
		t.Errorf("rows after resume differ (%d vs %d)", len(rows), len(want))
	}
}

// TestShardsEqualOneRun: two shards into one run directory give together
// the rows of one unsharded run.
func TestShardsEqualOneRun(t *testing.T) {
	root := os.Getenv("AIRPIPE_CORPUS")
	if root == "" {
		root = bigCorpus(t, 40)
	}
	// Sharding splits the work by library before any stage runs, so the
	// stages that read every module of the real corpus show it; the later
	// stages over 4,700 modules would take many minutes and shard no
	// differently.
	stages := "container,reader"
	one := t.TempDir()
	runOK(t, "run", "--out", one, "--progress", "none", "--no-cache", "--stages", stages, root)
	_, want, err := analytics.ReadRun(onlyRun(t, one))
	if err != nil {
		t.Fatal(err)
	}
	sharded := t.TempDir()
	for i := range 2 {
		runOK(t, "run", "--out", sharded, "--run-id", "nightly", "--shard", fmt.Sprintf("%d/2", i), "--progress", "none", "--no-cache", "--stages", stages, root)
	}
	meta, got, err := analytics.ReadRun(filepath.Join(sharded, "nightly"))
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Complete {
		t.Error("sharded run not complete")
	}
	if strings.Join(rowSet(t, got), "\n") != strings.Join(rowSet(t, want), "\n") {
		t.Errorf("two shards give %d rows, one run %d", len(got), len(want))
	}
	if err := meta.Counts.Check(); err != nil {
		t.Error(err)
	}
}

// TestWarmRerunDoesNoWork: a rerun over an unchanged corpus reuses every
// shared-stage outcome and writes the same rows.
func TestWarmRerunSameRows(t *testing.T) {
	root := bigCorpus(t, 10)
	cache := t.TempDir()
	var sets [2][]string
	var reused [2]summaryJSON
	for i := range 2 {
		out := t.TempDir()
		stdout := runOK(t, "run", "--out", out, "--progress", "none", "--json", "--cache", cache, root)
		if err := json.Unmarshal([]byte(stdout), &reused[i]); err != nil {
			t.Fatal(err)
		}
		_, rows, err := analytics.ReadRun(onlyRun(t, out))
		if err != nil {
			t.Fatal(err)
		}
		sets[i] = rowSet(t, rows)
	}
	if strings.Join(sets[0], "\n") != strings.Join(sets[1], "\n") {
		t.Error("warm rerun rows differ from the cold run")
	}
	// Cold: the 4 distinct modules ran; warm: no module did stage work.
	if reused[0].Reused != reused[0].Modules-4 || reused[1].Reused != reused[1].Modules {
		t.Errorf("reused: cold %d of %d, warm %d of %d", reused[0].Reused, reused[0].Modules, reused[1].Reused, reused[1].Modules)
	}
}

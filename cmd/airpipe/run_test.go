package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

// runOK runs airpipe with args and returns stdout, failing on a non-zero
// exit status.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("airpipe %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String()
}

// onlyRun returns the single run directory under out.
func onlyRun(t *testing.T, out string) string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(out, "*", "run*.json"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("want one run under %s, got %v (%v)", out, dirs, err)
	}
	return filepath.Dir(dirs[0])
}

func sampleLibrary(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sample", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRunBadCorpus: a corpus with a truncated library, a corrupted HASH, a
// zero-byte file, a directory loop and a random file named .metallib
// completes; each bad case is named, every good module keeps its row. A
// file named .metallib that holds no library has a row saying so
// (container/not-a-library); another file without one is only counted.
func TestRunBadCorpus(t *testing.T) {
	root := t.TempDir()
	good := sampleLibrary(t, "compute.metallib")
	lib, err := mtlb.Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good/compute.metallib", good)
	write("bad/truncated.metallib", good[:len(good)/2])
	corrupt := bytes.Clone(good)
	f0 := lib.Functions[0]
	corrupt[int(lib.Sections.Bitcode.Offset+f0.BitcodeOffset)+40] ^= 0xff // inside function 0's bitcode
	write("bad/corrupt-hash.metallib", corrupt)
	write("bad/empty.metallib", nil)
	write("bad/random.metallib", bytes.Repeat([]byte("not a library "), 20))
	write("notes.txt", []byte("hello"))
	if err := os.Symlink(root, filepath.Join(root, "bad", "loop")); err != nil {
		t.Fatal(err)
	}

	out := t.TempDir()
	runOK(t, "run", "--out", out, "--progress", "none", "--jobs", "2", root)
	meta, rows, err := analytics.ReadRun(onlyRun(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Complete {
		t.Errorf("run not complete")
	}
	type key struct{ source, fn, code string }
	got := map[key]int{}
	for _, r := range rows {
		got[key{filepath.Base(r.Source), r.Function, r.FailureCode}]++
	}
	want := map[key]int{
		{"compute.metallib", "scale", ""}:                             1,
		{"compute.metallib", "sum_sqrt", ""}:                          1,
		{"corrupt-hash.metallib", "scale", "container/hash-mismatch"}: 1,
		{"corrupt-hash.metallib", "sum_sqrt", ""}:                     1,
		{"truncated.metallib", "", "container/malformed-library"}:     1,
		{"empty.metallib", "", "container/not-a-library"}:             1,
		{"random.metallib", "", "container/not-a-library"}:            1,
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("rows %+v: got %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
	// The good modules go all the way through the stages that run here.
	for _, r := range rows {
		if r.FailureCode == "" && filepath.Base(r.Source) == "compute.metallib" {
			if r.TranslateStatus != "passed" || (r.CompileStatus != "passed" && r.CompileStatus != "unavailable") {
				t.Errorf("%s: translate %s compile %s (%s)", r.Function, r.TranslateStatus, r.CompileStatus, r.StatusReason)
			}
			if r.CompileStatus == "passed" && r.CompileTarget != "radv-navi21,lavapipe" {
				t.Errorf("%s: compile target %q", r.Function, r.CompileTarget)
			}
		}
	}
	if len(rows) != 7 {
		t.Errorf("got %d rows, want 7: %v", len(rows), got)
	}
	c := meta.Counts
	// good, truncated, corrupt-hash, empty, random, notes.txt = 6 files, + the loop entry.
	if c.FilesSeen != 7 || c.FilesNotLibraries != 1 || c.LibrariesParsed != 2 || c.FilesRefused != 4 {
		t.Errorf("counts %+v", c)
	}
	if c.RefusedReasons["directory loop"] != 1 || c.RefusedReasons["container/malformed-library"] != 1 || c.RefusedReasons["container/not-a-library"] != 2 {
		t.Errorf("refused reasons %v", c.RefusedReasons)
	}
	if err := c.Check(); err != nil {
		t.Error(err)
	}
}

// TestRunRealCorpus: one row per function listed by the corpus MANIFEST, and
// every library parses.
func TestRunRealCorpus(t *testing.T) {
	root := os.Getenv("AIRPIPE_CORPUS")
	if root == "" {
		t.Skip("AIRPIPE_CORPUS not set: the real corpus is not available")
	}
	want, libs := manifestFunctions(t, root)
	out := t.TempDir()
	stdout := runOK(t, "run", "--out", out, "--progress", "none", "--stages", "container", root)
	meta, rows, err := analytics.ReadRun(onlyRun(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(rows)) != want || meta.Counts.Modules != want {
		t.Errorf("rows %d, modules %d, want %d (MANIFEST)", len(rows), meta.Counts.Modules, want)
	}
	if meta.Counts.LibrariesParsed != libs || meta.Counts.FilesRefused != 0 {
		t.Errorf("counts %+v, want %d libraries parsed, none refused", meta.Counts, libs)
	}
	for _, r := range rows {
		if r.ContainerStatus != "passed" {
			t.Errorf("%s %s: container %s %s %s", r.Source, r.Function, r.ContainerStatus, r.FailureCode, r.FailureMessage)
		}
	}
	if !strings.Contains(stdout, "modules: "+strconv.FormatInt(want, 10)) {
		t.Errorf("summary does not state %d modules:\n%s", want, stdout)
	}
}

// manifestFunctions sums MANIFEST.tsv's function_count column.
func manifestFunctions(t *testing.T, root string) (functions, libraries int64) {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	col := -1
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if col < 0 {
			for i, h := range fields {
				if h == "function_count" {
					col = i
				}
			}
			continue
		}
		n, err := strconv.ParseInt(fields[col], 10, 64)
		if err != nil {
			t.Fatalf("MANIFEST: %v", err)
		}
		functions += n
		libraries++
	}
	return functions, libraries
}

func TestRunUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"run"}, 2, "no PATH"},
		{[]string{"run", "/nonexistent/xyz"}, 2, "no such file"},
		{[]string{"run", "--stages", "bogus", "."}, 2, "unknown stage"},
		{[]string{"run", "--stage-jobs", "container=0", "."}, 2, "STAGE=N"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"run", "--help"}, 0, ""},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%v: exit %d stderr %q, want %d and %q", tc.args, code, errb.String(), tc.code, tc.msg)
		}
	}
}

// TestRunDedup: the same library twice gives a row per occurrence, with
// identical bitcode hashes.
func TestRunDedup(t *testing.T) {
	root := t.TempDir()
	good := sampleLibrary(t, "compute.metallib")
	for _, n := range []string{"a.metallib", "b.bin"} {
		if err := os.WriteFile(filepath.Join(root, n), good, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--progress", "none", root)
	_, rows, err := analytics.ReadRun(onlyRun(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("got %d rows, want 4", len(rows))
	}
	bySHA := map[string]int{}
	for _, r := range rows {
		bySHA[r.BitcodeSHA256]++
	}
	if len(bySHA) != 2 {
		t.Errorf("bitcode hashes %v, want 2 distinct each twice", bySHA)
	}
}

// TestSkipStages: a skipped stage is recorded as skipped with its reason,
// the stages after it still run, and stage_reached stops before it.
func TestSkipStages(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "c.metallib"), sampleLibrary(t, "compute.metallib"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--progress", "none", "--no-cache", "--stages", "container,reader,translate,compile", "--skip-stages", "translate", root)
	_, rows, err := analytics.ReadRun(onlyRun(t, out))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.TranslateStatus != "skipped" || r.StageReached != "reader" || r.StatusReason != "excluded by --skip-stages" {
			t.Errorf("%s: translate %s reached %s reason %q", r.Function, r.TranslateStatus, r.StageReached, r.StatusReason)
		}
		// Compile ran after the skipped stage and says what it lacked.
		if r.CompileStatus != "failed" || r.FailureCode != "translate/no-ir" {
			t.Errorf("%s: compile %s %s", r.Function, r.CompileStatus, r.FailureCode)
		}
	}
	var o, e strings.Builder
	if code := run([]string{"run", "--skip-stages", "container", root}, &o, &e); code != 2 || !strings.Contains(e.String(), "cannot be skipped") {
		t.Errorf("skipping the container: exit %d %s", code, e.String())
	}
}

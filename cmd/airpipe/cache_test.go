package main

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/airpipe/airpipe/analytics"
)

// TestRunSkipsOwnOutput: --out and the caches inside the input tree are
// not read by the run: a second run over the same tree sees the one
// library, not the first run's parts, run.json and cache entries.
func TestRunSkipsOwnOutput(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.metallib"), sampleLibrary(t, "compute.metallib"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--out", filepath.Join(root, "results"), "--cache", filepath.Join(root, "cache"),
		"--reference-cache", filepath.Join(root, "refs"), "--firmware-cache", filepath.Join(root, "fw"), "--progress", "none"}
	for i, id := range []string{"first", "second"} {
		runOK(t, append(args, "--run-id", id, root)...)
		meta, _, err := analytics.ReadRun(filepath.Join(root, "results", id))
		if err != nil {
			t.Fatal(err)
		}
		if meta.Counts.FilesSeen != 1 || meta.Counts.LibrariesParsed != 1 {
			t.Errorf("run %d read its own output: counts %+v", i, meta.Counts)
		}
	}
}

// TestRunRefusesDamagedCacheEntries: every stage-cache entry damaged
// after a first run (a flipped byte; one replaced by a FIFO, one by a link
// to /dev/zero) is a counted miss: the second run's rows equal the first's,
// run.json counts the refusals and stderr says so.
func TestRunRefusesDamagedCacheEntries(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.metallib"), sampleLibrary(t, "compute.metallib"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, cache := t.TempDir(), t.TempDir()
	args := []string{"run", "--out", out, "--cache", cache, "--reference-cache", "", "--progress", "none"}
	runOK(t, append(args, "--run-id", "clean", root)...)
	var entries []string
	err := filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			entries = append(entries, p)
		}
		return err
	})
	if err != nil || len(entries) < 3 {
		t.Fatalf("cache entries %v (%v)", entries, err)
	}
	sort.Strings(entries)
	for i, p := range entries {
		switch i {
		case 0:
			mustOK(t, os.Remove(p))
			mustOK(t, syscall.Mkfifo(p, 0o644))
		case 1:
			mustOK(t, os.Remove(p))
			mustOK(t, os.Symlink("/dev/zero", p))
		default:
			b, err := os.ReadFile(p)
			mustOK(t, err)
			b[len(b)-3] ^= 0x01 // the body's last bytes: still JSON or not, never trusted
			mustOK(t, os.WriteFile(p, b, 0o644))
		}
	}
	var so, se bytes.Buffer
	if code := run(append(args, "--run-id", "damaged", root), &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	_, clean, err := analytics.ReadRun(filepath.Join(out, "clean"))
	mustOK(t, err)
	meta, damaged, err := analytics.ReadRun(filepath.Join(out, "damaged"))
	mustOK(t, err)
	// A miss ends the item's lookups, so not every damaged entry is read.
	if got := meta.Counts.CacheEntriesRefused; got == 0 || got > int64(len(entries)) {
		t.Errorf("cache_entries_refused %d, want 1..%d", got, len(entries))
	}
	if !strings.Contains(se.String(), "cache entries refused as damaged") {
		t.Errorf("stderr does not say so: %q", se.String())
	}
	if !reflect.DeepEqual(verdicts(clean), verdicts(damaged)) {
		t.Errorf("rows differ after damage:\nclean   %v\ndamaged %v", verdicts(clean), verdicts(damaged))
	}
	// The recomputed results replaced the damaged entries.
	runOK(t, append(args, "--run-id", "again", root)...)
	meta, _, err = analytics.ReadRun(filepath.Join(out, "again"))
	mustOK(t, err)
	if meta.Counts.CacheEntriesRefused != 0 {
		t.Errorf("third run refused %d entries", meta.Counts.CacheEntriesRefused)
	}
}

// verdicts is each row's statuses and code, by function.
func verdicts(rows []analytics.Row) map[string]string {
	out := map[string]string{}
	for _, r := range rows {
		out[r.Function] = strings.Join([]string{r.ContainerStatus, r.ReaderStatus, r.TranslateStatus, r.CompileStatus, r.EmulatorStatus, r.StageReached, r.FailureCode}, " ")
	}
	return out
}

func mustOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRunListsRefusedFiles: every file refused without a row — by the walk
// (a FIFO, a link leaving the roots, a loop) or when read (too large to
// scan) — is named in refused.jsonl with its reason, not only counted; the
// list agrees with run.json's refused_reasons for those files.
func TestRunListsRefusedFiles(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	mustOK(t, os.WriteFile(filepath.Join(root, "a.metallib"), sampleLibrary(t, "compute.metallib"), 0o644))
	mustOK(t, os.WriteFile(filepath.Join(root, "big.bin"), make([]byte, 4096), 0o644))
	mustOK(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644))
	mustOK(t, syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644))
	mustOK(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "escape")))
	mustOK(t, os.Symlink(root, filepath.Join(root, "loop")))
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--no-cache", "--reference-cache", "", "--max-scan-size", "1024", "--progress", "none", "--run-id", "r", root)
	b, err := os.ReadFile(filepath.Join(out, "r", "refused.jsonl"))
	mustOK(t, err)
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e refusedEntry
		mustOK(t, json.Unmarshal([]byte(line), &e))
		got[filepath.Base(e.Source)] = e.Reason
	}
	want := map[string]string{"fifo": "not a regular file", "escape": "symlink leaves the corpus roots", "loop": "directory loop", "big.bin": "container/file-too-large"}
	if len(got) != len(want) {
		t.Errorf("refused.jsonl lists %v, want %v", got, want)
	}
	for name, reason := range want {
		if !strings.HasPrefix(got[name], reason) {
			t.Errorf("%s: reason %q, want %q", name, got[name], reason)
		}
	}
	meta, _, err := analytics.ReadRun(filepath.Join(out, "r"))
	mustOK(t, err)
	if meta.Counts.FilesRefused != int64(len(want)) {
		t.Errorf("files_refused %d, refused.jsonl %d lines", meta.Counts.FilesRefused, len(got))
	}
}

// TestRebuiltBinaryReusesNoVerdict: a binary that differs from the one that
// filled the cache (here: the same build with bytes appended, standing for a
// changed translator with unchanged stage versions) reuses none of its
// verdicts, unless both carry the same clean VCS revision (the same build).
func TestRebuiltBinaryReusesNoVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a child")
	}
	bin := buildAirpipe(t)
	b, err := os.ReadFile(bin)
	mustOK(t, err)
	rebuilt := filepath.Join(t.TempDir(), "airpipe")
	mustOK(t, os.WriteFile(rebuilt, append(b, "\x00rebuilt"...), 0o755))
	root := t.TempDir()
	mustOK(t, os.WriteFile(filepath.Join(root, "a.metallib"), sampleLibrary(t, "compute.metallib"), 0o644))
	cache, out := t.TempDir(), t.TempDir()
	reused := func(bin, id string) string {
		t.Helper()
		cmd := exec.Command(bin, "run", "--out", out, "--cache", cache, "--reference-cache", "", "--progress", "none", "--run-id", id, root)
		so, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", id, err, so)
		}
		m := regexp.MustCompile(`modules: (\d+) \((\d+) reused`).FindStringSubmatch(string(so))
		if m == nil {
			t.Fatalf("%s: no module summary in\n%s", id, so)
		}
		return m[2] + " of " + m[1]
	}
	if got := reused(bin, "cold"); !strings.HasPrefix(got, "0 of") {
		t.Fatalf("cold run reused %s", got)
	}
	if got := reused(bin, "warm"); got != "2 of 2" {
		t.Fatalf("same binary: reused %s, want 2 of 2", got)
	}
	want := "0 of 2"
	if bi, err := buildinfo.ReadFile(bin); err == nil && analytics.BuildFrom(bi).Commit != "" && !analytics.BuildFrom(bi).Modified {
		want = "2 of 2" // a clean revision names the build, whatever its bytes
	}
	if got := reused(rebuilt, "rebuilt"); got != want {
		t.Errorf("rebuilt binary reused %s, want %s", got, want)
	}
}

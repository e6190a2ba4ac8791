package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/cpuref/refcache"
	"github.com/airpipe/airpipe/internal/buildkey"
	"github.com/airpipe/airpipe/internal/sealed"
	"github.com/airpipe/airpipe/pipeline"
)

// TestCachePrune: 'cache prune' removes from both caches what another build
// wrote and keeps this build's entries (a dry run first, which removes
// nothing); a missing cache directory is not created; a wrong action is a
// usage error.
func TestCachePrune(t *testing.T) {
	stages, refs := t.TempDir(), t.TempDir()
	c, err := pipeline.OpenDirCache(stages)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put("k", []pipeline.Result{pipeline.Pass()}); err != nil {
		t.Fatal(err)
	}
	// Another build's stage entry: what DirCache.Put writes for it.
	foreign := filepath.Join(stages, "00", strings.Repeat("0", 64)+".json")
	if err := sealed.Write(foreign, []byte(`{"build":"vcs:0000","key":"k","results":[{"status":"passed"}]}`), 1<<20); err != nil {
		t.Fatal(err)
	}
	res := &cpuref.Result{Outputs: []cpuref.Data{{Index: 0, Bytes: []byte{1, 2, 3, 4}}}}
	mine, theirs := "m|k|build="+buildkey.Key(), "m|k|build=vcs:0000"
	refcache.Dir(refs).Put(mine, mine, res, nil)
	refcache.Dir(refs).Put(theirs, theirs, res, nil)
	count := func(dir string) int {
		n := 0
		filepath.WalkDir(dir, func(_ string, d os.DirEntry, _ error) error {
			if d != nil && d.Type().IsRegular() {
				n++
			}
			return nil
		})
		return n
	}
	var out, errb bytes.Buffer
	if code := run([]string{"cache", "prune", "--dry-run", "--cache", stages, "--reference-cache", refs}, &out, &errb); code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "would remove 1 entries") || count(stages) != 2 || count(refs) != 2 {
		t.Fatalf("dry run removed something or says otherwise:\n%s", out.String())
	}
	out.Reset()
	if code := run([]string{"cache", "prune", "--cache", stages, "--reference-cache", refs}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Count(out.String(), "kept 1 entries") != 2 || strings.Count(out.String(), "removed 1 entries") != 2 {
		t.Errorf("output:\n%s", out.String())
	}
	if _, ok := c.Get("k"); !ok {
		t.Error("this build's stage entry is gone")
	}
	if _, err := os.Stat(foreign); err == nil {
		t.Error("another build's stage entry is still there")
	}
	if _, hit, _ := refcache.Dir(refs).Get(mine, mine); !hit {
		t.Error("this build's reference is gone")
	}
	if _, hit, _ := refcache.Dir(refs).Get(theirs, theirs); hit {
		t.Error("another build's reference is still there")
	}
	missing := filepath.Join(t.TempDir(), "none")
	if code := run([]string{"cache", "prune", "--cache", missing, "--reference-cache", missing}, &out, &errb); code != 0 {
		t.Errorf("missing directories: exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("prune created the missing cache directory")
	}
	if code := run([]string{"cache", "clear"}, &out, &errb); code != 2 {
		t.Errorf("an unknown action: exit %d, want 2", code)
	}
}

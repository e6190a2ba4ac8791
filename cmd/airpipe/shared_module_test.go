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

// sharedModuleCorpus assembles testdata/shared_module.ll with llvm-as-19 and
// packs it with airpipe's own pack twice: two libraries whose two functions
// both point at that one module, in either order.
func sharedModuleCorpus(t *testing.T) string {
	t.Helper()
	as, err := exec.LookPath("llvm-as-19")
	if err != nil {
		t.Skip("llvm-as-19 not installed: cannot assemble the fixture")
	}
	tmp := t.TempDir()
	bc := filepath.Join(tmp, "shared_module.bc")
	if out, err := exec.Command(as, filepath.Join("testdata", "shared_module.ll"), "-o", bc).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19: %v\n%s", err, out)
	}
	root := t.TempDir()
	runOK(t, "pack", "-o", filepath.Join(root, "a.metallib"), "_colorAbsDiff:kernel="+bc, "_max3x3:kernel="+bc)
	runOK(t, "pack", "-o", filepath.Join(root, "b.metallib"), "_max3x3:kernel="+bc, "_colorAbsDiff:kernel="+bc)
	return root
}

// TestSharedModuleOwnVerdicts: when several functions of a library point at
// one bitcode module, every row carries its own function's verdict (the
// reader's work is shared, translate's is not), cold and from the cache; no
// row's failure names another function of its library.
func TestSharedModuleOwnVerdicts(t *testing.T) {
	root := sharedModuleCorpus(t)
	cache := t.TempDir()
	for _, pass := range []string{"cold", "warm"} {
		out := t.TempDir()
		stdout := runOK(t, "run", "--out", out, "--progress", "none", "--json", "--cache", cache,
			"--stages", "container,reader,translate", root)
		var sum summaryJSON
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatal(err)
		}
		_, rows, err := analytics.ReadRun(onlyRun(t, out))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 4 {
			t.Fatalf("%s: %d rows, want 4", pass, len(rows))
		}
		names := map[string][]string{}
		for _, r := range rows {
			names[r.Source] = append(names[r.Source], r.Function)
		}
		for _, r := range rows {
			if r.ReaderStatus != "passed" {
				t.Errorf("%s: %s!%s reader %s", pass, r.Source, r.Function, r.ReaderStatus)
			}
			switch r.Function {
			case "_colorAbsDiff":
				if r.TranslateStatus != "passed" {
					t.Errorf("%s: %s!%s translate %s (%s %s), want passed", pass, r.Source, r.Function, r.TranslateStatus, r.FailureCode, r.FailureDetail)
				}
			case "_max3x3":
				if r.TranslateStatus != "failed" || r.FailureCode != "translate/unhandled-intrinsic" || r.FailureDetail != "air.airpipe_fixture_unhandled.f32" {
					t.Errorf("%s: %s!%s translate %s (%s %s), want the unhandled intrinsic", pass, r.Source, r.Function, r.TranslateStatus, r.FailureCode, r.FailureDetail)
				}
			}
			said := []string{r.FailureDetail, r.FailureMessage}
			for _, m := range r.Missing {
				said = append(said, m.Detail)
			}
			said = append(said, r.Data...)
			for _, other := range names[r.Source] {
				if other == r.Function {
					continue
				}
				for _, s := range said {
					if strings.Contains(s, other) {
						t.Errorf("%s: row %s!%s carries %s's verdict: %q", pass, r.Source, r.Function, other, s)
					}
				}
			}
		}
		// Cold: one module read once, each function translated once (3
		// rows took the reader from another, 2 took everything); warm:
		// every row's work came from the cache.
		want := map[string]int64{"cold": 2, "warm": 4}[pass]
		if sum.Reused != want {
			t.Errorf("%s: %d rows reused all their stage work, want %d", pass, sum.Reused, want)
		}
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
}

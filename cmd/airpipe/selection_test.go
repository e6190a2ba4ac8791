package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

// selectionCorpus writes a good library and one whose function "scale" fails
// its HASH check, and returns the root.
func selectionCorpus(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	good := sampleLibrary(t, "compute.metallib")
	lib, err := mtlb.Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := bytes.Clone(good)
	f0 := lib.Functions[0]
	corrupt[int(lib.Sections.Bitcode.Offset+f0.BitcodeOffset)+40] ^= 0xff
	for name, data := range map[string][]byte{"good.metallib": good, "sub/corrupt.metallib": corrupt} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// rowNames lists a run's rows as base-name!function, sorted.
func rowNames(t *testing.T, dir string) (analytics.RunMeta, []string) {
	t.Helper()
	meta, rows, err := analytics.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, filepath.Base(r.Source)+"!"+r.Function)
	}
	sort.Strings(out)
	return meta, out
}

// TestRunSelection: --library, --function and --only-failed each carry only
// the modules they select, count the others in run.json, and refuse bad
// patterns; a selection that keeps nothing exits 4.
func TestRunSelection(t *testing.T) {
	root := selectionCorpus(t)
	base := []string{"run", "--progress", "none", "--stages", "container,reader", "--no-cache"}
	cases := []struct {
		name  string
		flags []string
		want  string
	}{
		{"all", nil, "corrupt.metallib!scale corrupt.metallib!sum_sqrt good.metallib!scale good.metallib!sum_sqrt"},
		{"library base name", []string{"--library", "good*"}, "good.metallib!scale good.metallib!sum_sqrt"},
		{"library whole path", []string{"--library", filepath.Join(root, "sub", "*")}, "corrupt.metallib!scale corrupt.metallib!sum_sqrt"},
		{"function", []string{"--function", "^sum_"}, "corrupt.metallib!sum_sqrt good.metallib!sum_sqrt"},
		{"both", []string{"--function", "scale", "--library", "corrupt.metallib"}, "corrupt.metallib!scale"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			runOK(t, append(append(append([]string{}, base...), "--out", out), append(c.flags, root)...)...)
			meta, got := rowNames(t, onlyRun(t, out))
			if strings.Join(got, " ") != c.want {
				t.Errorf("rows %v, want %s", got, c.want)
			}
			if n := int64(4 - len(got)); meta.Counts.ModulesNotSelected != n {
				t.Errorf("modules_not_selected %d, want %d", meta.Counts.ModulesNotSelected, n)
			}
		})
	}

	// --only-failed: last night's run, then only its failure, found again
	// under the previous run's roots when no PATH is given.
	prev := t.TempDir()
	runOK(t, append(append([]string{}, base...), "--out", prev, root)...)
	again := t.TempDir()
	runOK(t, append(append([]string{}, base...), "--out", again, "--only-failed", prev)...)
	meta, got := rowNames(t, onlyRun(t, again))
	if strings.Join(got, " ") != "corrupt.metallib!scale" {
		t.Errorf("--only-failed rows %v, want the one failure", got)
	}
	if !meta.Complete || meta.Counts.ModulesNotSelected != 3 {
		t.Errorf("--only-failed run: complete %v, not selected %d", meta.Complete, meta.Counts.ModulesNotSelected)
	}
	// The run.json names the previous run's directory, not a results
	// directory whose latest run would change.
	if !strings.Contains(strings.Join(meta.Args, " "), "--only-failed="+onlyRun(t, prev)) {
		t.Errorf("args %q do not pin the previous run", meta.Args)
	}

	for _, bad := range [][]string{{"--function", "("}, {"--library", "["}, {"--only-failed", t.TempDir()}} {
		var o, e bytes.Buffer
		if code := run(append(append(append([]string{}, base...), "--out", t.TempDir()), append(bad, root)...), &o, &e); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", bad, code, e.String())
		}
	}
	var o, e bytes.Buffer
	if code := run(append(append([]string{}, base...), "--out", t.TempDir(), "--function", "^nothing$", root), &o, &e); code != exitEmpty || !strings.Contains(e.String(), "kept none") {
		t.Errorf("empty selection: exit %d, stderr %s", code, e.String())
	}
}

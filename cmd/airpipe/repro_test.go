package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

func TestRepro(t *testing.T) {
	root := t.TempDir()
	lib := sampleLibrary(t, "compute.metallib")
	libPath := filepath.Join(root, "compute.metallib")
	if err := os.WriteFile(libPath, lib, 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--progress", "none", "--no-cache", root)
	runDir := onlyRun(t, out)
	dest := filepath.Join(t.TempDir(), "case")
	msg := runOK(t, "repro", "--out", dest, runDir, libPath+"!sum_sqrt")
	if !strings.Contains(msg, "sum_sqrt") {
		t.Errorf("message %q", msg)
	}
	for _, f := range []string{"row.json", "run.json", "library.metallib", "module.bc", "module.spv", "module.spvasm", "rerun.sh", "README.txt"} {
		if _, err := os.Stat(filepath.Join(dest, f)); err != nil {
			t.Errorf("repro lacks %s: %v", f, err)
		}
	}
	readme, _ := os.ReadFile(filepath.Join(dest, "README.txt"))
	if !strings.Contains(string(readme), "stage    container") {
		t.Errorf("README.txt:\n%s", readme)
	}
	// Ambiguity and absence are refused by name.
	var o, e strings.Builder
	if code := run([]string{"repro", runDir, "nonexistent"}, &o, &e); code == 0 || !strings.Contains(e.String(), "no module") {
		t.Errorf("absent module: exit %d, %s", code, e.String())
	}
}

// TestReproRerun: rerun.sh runs the airpipe that wrote it by its absolute
// path (PATH holds none), exits 1 when the failure reproduces and 0 when the
// module no longer ends that way, and $AIRPIPE overrides the binary; a
// SHA-256 prefix shared by identical modules picks one and says so.
func TestReproRerun(t *testing.T) {
	bin := buildAirpipe(t)
	good := sampleLibrary(t, "compute.metallib")
	lib, err := mtlb.Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := bytes.Clone(good)
	f0 := lib.Functions[0]
	corrupt[int(lib.Sections.Bitcode.Offset+f0.BitcodeOffset)+40] ^= 0xff // function 0 fails its HASH
	root := t.TempDir()
	for name, data := range map[string][]byte{"a/bad.metallib": corrupt, "a/good.metallib": good, "b/good.metallib": good} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	ap := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, o.String(), e.String()
	}
	if code, _, e := ap("run", "--out", out, "--progress", "none", "--no-cache", "--stages", "container,reader,translate", root); code != 0 {
		t.Fatalf("run: %d %s", code, e)
	}
	runDir := onlyRun(t, out)
	rerun := func(dir string, env ...string) (int, string) {
		cmd := exec.Command("/bin/sh", filepath.Join(dir, "rerun.sh"))
		// PATH holds the shell's tools, not airpipe.
		cmd.Env = append([]string{"PATH=/usr/bin:/bin", "XDG_CACHE_HOME=" + t.TempDir()}, env...)
		b, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, string(b)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if code, _, e := ap("repro", "--out", bad, runDir, filepath.Join(root, "a/bad.metallib")+"!"+f0.Name); code != 0 {
		t.Fatalf("repro bad: %d %s", code, e)
	}
	if code, o := rerun(bad); code != 1 || !strings.Contains(o, "reproduces") {
		t.Fatalf("rerun.sh of a reproducing failure: exit %d\n%s", code, o)
	}
	// The library repaired: the failure no longer reproduces.
	if err := os.WriteFile(filepath.Join(bad, "library.metallib"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, o := rerun(bad); code != 0 || !strings.Contains(o, "does not reproduce") {
		t.Fatalf("rerun.sh after the fix: exit %d\n%s", code, o)
	}
	if code, o := rerun(bad, "AIRPIPE=/nonexistent/airpipe"); code != 125 || !strings.Contains(o, "set AIRPIPE") {
		t.Fatalf("rerun.sh with a missing $AIRPIPE: exit %d\n%s", code, o)
	}
	// The good module's bitcode sits in two libraries (and in the bad one,
	// whose other functions are intact): a prefix of it picks the first.
	var sha string
	_, rows, _ := analytics.ReadRun(runDir)
	for _, r := range rows {
		if r.FunctionIndex == 1 {
			sha = r.BitcodeSHA256
		}
	}
	code, o, e := ap("repro", "--out", filepath.Join(t.TempDir(), "shared"), runDir, sha[:12])
	if code != 0 || !strings.Contains(e, "identical modules; taking the first") || !strings.Contains(o, "a/bad.metallib!") {
		t.Fatalf("shared prefix: exit %d\n%s\n%s", code, o, e)
	}
}

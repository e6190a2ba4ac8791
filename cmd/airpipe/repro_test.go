package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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

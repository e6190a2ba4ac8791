package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecStageFeaturesRank: missing features reported by an exec stage
// (a user's translator, JSON protocol) are ranked by 'airpipe features'
// exactly as built-in ones are.
func TestExecStageFeaturesRank(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "mytranslator.sh")
	script := `#!/bin/sh
case "$1" in
  scale) echo '{"status": "failed", "code": "translate/unhandled-intrinsic", "detail": "air.only_one", "missing": [{"code": "translate/unhandled-intrinsic", "detail": "air.only_one"}]}' ;;
  sum_sqrt) echo '{"status": "failed", "code": "translate/unhandled-intrinsic", "detail": "air.only_one", "missing": [{"code": "translate/unhandled-intrinsic", "detail": "air.only_one"}, {"code": "translate/unhandled-intrinsic", "detail": "air.second"}]}' ;;
  *) echo '{"status": "passed"}' ;;
esac
`
	if err := os.WriteFile(tool, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "stages.json")
	if err := os.WriteFile(cfg, []byte(`{"stages": [{"name": "mytranslator", "replace": "translate", "protocol": "json", "command": ["`+tool+`", "{function}"]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "c.metallib"), sampleLibrary(t, "compute.metallib"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	runOK(t, "run", "--out", out, "--progress", "none", "--no-cache", "--stages", "container,reader,translate", "--stage-config", cfg, root)
	text := runOK(t, "features", onlyRun(t, out))
	// air.only_one blocks both modules and is the only blocker of one.
	// Columns: unlocks, blocks (occurrences), then the same for distinct
	// bitcode; a row may go on in the next line (its numbers under its
	// code and detail), so the words are read in order.
	words := strings.Join(strings.Fields(text), " ")
	if strings.Count(words, "air.only_one") != 1 || !strings.Contains(words, "air.only_one 1 2 1 2") || !strings.Contains(words, "air.second 0 1 0 1") {
		t.Fatalf("features output:\n%s", text)
	}
}

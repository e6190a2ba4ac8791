package cpuref

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHarnessObjectShared: the compiled harness lives in the per-user
// harness directory under a name made of its source's hash (every process
// reuses it), so nothing in the temporary directory grows with the number of
// runs; the directory is private to the user.
func TestHarnessObjectShared(t *testing.T) {
	obj, err := harnessObject()
	if err != nil {
		t.Skipf("no harness here: %v", err)
	}
	dir, err := harnessDir()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(obj) != dir || !strings.HasPrefix(filepath.Base(obj), "harness-") {
		t.Errorf("harness object %s, want harness-<hash> in %s", obj, dir)
	}
	if strings.HasPrefix(obj, os.TempDir()+string(filepath.Separator)) && os.Getenv("HOME") != "" {
		t.Errorf("harness object %s in the temporary directory", obj)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("harness directory %s has mode %v; want it private to the user", dir, fi.Mode())
	}
}

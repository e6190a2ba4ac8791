package cpuref

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScratchBase: runs use the memory file system unless TMPDIR names a
// directory or it is missing or not a directory.
func TestScratchBase(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tmpdir, dir, want string }{
		{"", dir, dir},
		{"/somewhere", dir, ""},
		{"", filepath.Join(dir, "missing"), ""},
		{"", file, ""},
	} {
		if got := scratchBaseFor(c.tmpdir, c.dir); got != c.want {
			t.Errorf("scratchBaseFor(%q, %q) = %q, want %q", c.tmpdir, c.dir, got, c.want)
		}
	}
}

package sealed

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestSealed: a body reads back as written; a flipped byte, an unsealed
// file, a link, an oversized file or an entry over the cap is refused, a
// missing one is fs.ErrNotExist.
func TestSealed(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "e.json")
	body := []byte(`{"a":1}`)
	if err := Write(p, body, 1<<10); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(p, 1<<10); err != nil || string(b) != string(body) {
		t.Fatalf("Read = %q, %v", b, err)
	}
	if err := Write(filepath.Join(dir, "big"), make([]byte, 100), 100); err == nil {
		t.Error("an entry over the cap was written")
	}
	if _, err := Read(filepath.Join(dir, "none"), 1<<10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing entry: %v", err)
	}
	raw, _ := os.ReadFile(p)
	flipped := append([]byte(nil), raw...)
	flipped[len(flipped)-2] ^= 1
	link := filepath.Join(dir, "link")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	for name, plant := range map[string][]byte{"flipped": flipped, "unsealed": body} {
		q := filepath.Join(dir, name)
		if err := os.WriteFile(q, plant, 0o644); err != nil {
			t.Fatal(err)
		}
		var de *DamagedError
		if _, err := Read(q, 1<<10); !errors.As(err, &de) {
			t.Errorf("%s: %v, want a DamagedError", name, err)
		}
	}
	var de *DamagedError
	if _, err := Read(link, 1<<10); !errors.As(err, &de) {
		t.Errorf("symlink: %v, want a DamagedError", err)
	}
	if _, err := Read(p, int64(len(raw)-1)); !errors.As(err, &de) {
		t.Errorf("oversized: %v, want a DamagedError", err)
	}
}

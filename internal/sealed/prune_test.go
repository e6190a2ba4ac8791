package sealed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPrune: Prune removes the entries keep rejects, at the top and one
// two-hex-digit directory down, and writers' temporary files over a day
// old; it leaves every other file and directory, links and what they
// point to, and in a dry run removes nothing but counts the same.
func TestPrune(t *testing.T) {
	hex := func(c byte) string { return strings.Repeat(string(c), 64) + ".json" }
	for _, dryRun := range []bool{false, true} {
		dir, outside := t.TempDir(), t.TempDir()
		files := []struct {
			path    string
			keep    bool // keep's answer
			removed bool
		}{
			{hex('a'), true, false},
			{hex('b'), false, true},
			{"0f/" + hex('c'), false, true},
			{"0f/" + hex('d'), true, false},
			{"zz/" + hex('e'), false, false},    // not a two-hex-digit directory
			{"0f/0f/" + hex('f'), false, false}, // too deep
			{"notes.txt", false, false},
			{"0f/" + strings.Repeat("1", 63) + ".json", false, false}, // not 64 digits
			{".tmp-old", false, true},
			{".tmp-new", false, false},
		}
		for _, f := range files {
			p := filepath.Join(dir, f.path)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := Write(p, []byte(f.path), 1<<20); err != nil {
				t.Fatal(err)
			}
		}
		old := time.Now().Add(-48 * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, ".tmp-old"), old, old); err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(outside, hex('9'))
		if err := Write(target, []byte("outside"), 1<<20); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, hex('8'))); err != nil {
			t.Fatal(err)
		}
		asked := map[string]bool{}
		p, err := Prune(dir, func(path string) bool {
			rel, _ := filepath.Rel(dir, path)
			asked[rel] = true
			for _, f := range files {
				if f.path == rel {
					return f.keep
				}
			}
			t.Errorf("keep asked about %s", rel)
			return true
		}, dryRun)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			_, err := os.Lstat(filepath.Join(dir, f.path))
			if gone := err != nil; gone != (f.removed && !dryRun) {
				t.Errorf("dry run %v: %s removed %v, want %v", dryRun, f.path, gone, f.removed && !dryRun)
			}
		}
		if _, err := os.Stat(target); err != nil {
			t.Errorf("the link's target: %v", err)
		}
		if p.Kept != 2 || p.Removed != 2 || p.Temporary != 1 || p.KeptBytes == 0 || p.RemovedBytes == 0 {
			t.Errorf("dry run %v: counts %+v, want 2 kept, 2 removed, 1 temporary", dryRun, p)
		}
		if len(asked) != 4 {
			t.Errorf("keep asked about %v, want the four entries", asked)
		}
	}
	if p, err := Prune(filepath.Join(t.TempDir(), "missing"), func(string) bool { return false }, false); err != nil || p != (Pruned{}) {
		t.Errorf("a missing directory: %+v, %v", p, err)
	}
}

// TestHead: Head gives the start of the body without the rest, and
// refuses a file Write did not write.
func TestHead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "e")
	if err := Write(p, []byte(`{"key":"k","result":"long"}`), 1<<20); err != nil {
		t.Fatal(err)
	}
	if b, err := Head(p, 9); err != nil || string(b) != `{"key":"k` {
		t.Errorf("Head: %q, %v", b, err)
	}
	if err := os.WriteFile(p, []byte(`{"key":"k"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Head(p, 9); err == nil {
		t.Error("a file without the header: no error")
	}
}

// FuzzHead: Head of what Write wrote is the body's start; of any other
// bytes it is the start after a valid header or an error, never a panic.
func FuzzHead(f *testing.F) {
	f.Add([]byte(`{"key":"k"}`), []byte("airpipe-sealed-v1 sha256="), 4)
	f.Fuzz(func(t *testing.T, body, raw []byte, n int) {
		n = max(n%(1<<16), 0)
		dir := t.TempDir()
		p := filepath.Join(dir, "e")
		if err := Write(p, body, 1<<20); err != nil {
			t.Skip(err)
		}
		got, err := Head(p, n)
		if want := body[:min(n, len(body))]; err != nil || string(got) != string(want) {
			t.Errorf("Head(%d) = %q, %v; want %q", n, got, err, want)
		}
		q := filepath.Join(dir, "raw")
		if err := os.WriteFile(q, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := Head(q, n); err == nil && len(b) > n {
			t.Errorf("Head(%d) of raw bytes gave %d bytes", n, len(b))
		}
	})
}

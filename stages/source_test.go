package stages

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// time0 is a modification time no rewrite during the test can have.
var time0 = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)

func entryFor(t *testing.T, path string) corpus.Entry {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return corpus.Entry{Path: path, Provenance: path, Size: st.Size()}
}

// TestScanFileShrinksWhileMapped: a file truncated while it is mapped
// (another process rewriting the corpus) faults on the pages past its new
// end. The fault is caught: the file becomes one container/file-changed
// row, and the process lives (the unguarded mapping died with SIGBUS).
func TestScanFileShrinksWhileMapped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "blob.bin")
	if err := os.WriteFile(p, bytes.Repeat([]byte("not a library "), 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	e := entryFor(t, p)
	mappedHook = func(path string) {
		if err := os.Truncate(path, 0); err != nil {
			t.Error(err)
		}
	}
	defer func() { mappedHook = nil }()
	x := LoadSource(context.Background(), e, LoadOptions{MaxFileSize: DefaultMaxFileSize, MaxScanSize: DefaultMaxScanSize})
	if x.Verdict != VerdictLibrary || len(x.Items) != 1 || x.Items[0].Index != -1 {
		t.Fatalf("verdict %q, %d items", x.Verdict, len(x.Items))
	}
	r := checkContainer(x.Items[0])
	if r.Status != pipeline.Failed || r.Code != codes.ContainerFileChanged {
		t.Fatalf("container: %s %s %s", r.Status, r.Code, r.Message)
	}
	t.Log(r.Message)
}

// TestScanFileChangedWithoutShrinking: a file rewritten in place while it
// is scanned (same size, new modification time) is refused by name too.
func TestScanFileChangedWithoutShrinking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "blob.bin")
	data := bytes.Repeat([]byte("not a library "), 100)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, time0, time0); err != nil {
		t.Fatal(err)
	}
	e := entryFor(t, p)
	mappedHook = func(path string) {
		if err := os.WriteFile(path, bytes.ToUpper(data), 0o644); err != nil {
			t.Error(err)
		}
	}
	defer func() { mappedHook = nil }()
	x := LoadSource(context.Background(), e, LoadOptions{MaxFileSize: DefaultMaxFileSize, MaxScanSize: DefaultMaxScanSize})
	if len(x.Items) != 1 || checkContainer(x.Items[0]).Code != codes.ContainerFileChanged {
		t.Fatalf("verdict %q, %d items", x.Verdict, len(x.Items))
	}
}

// TestNamedLibraryWithoutLibraryGetsARow: the rule for files that are not
// libraries. A file whose name ends in .metallib but whose bytes hold no
// library (megabytes of zeros) gets a library-level row naming why; any
// other such file is counted as not a library. The name never makes bytes
// a library: a real library under another name is still read.
func TestNamedLibraryWithoutLibraryGetsARow(t *testing.T) {
	dir := t.TempDir()
	zeros := make([]byte, 3<<20)
	write := func(name string, b []byte) corpus.Entry {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return entryFor(t, p)
	}
	opts := LoadOptions{MaxFileSize: DefaultMaxFileSize, MaxScanSize: DefaultMaxScanSize}
	tests := []struct {
		entry corpus.Entry
		opts  LoadOptions
		code  codes.Code // "" : no row, counted as not a library
	}{
		{write("x.metallib", zeros), opts, codes.ContainerNotALibrary},
		{write("UPPER.METALLIB", zeros), opts, codes.ContainerNotALibrary},
		{write("empty.metallib", nil), opts, codes.ContainerNotALibrary},
		{write("short.metallib", []byte("MTL")), opts, codes.ContainerNotALibrary},
		{write("big.metallib", zeros), LoadOptions{MaxFileSize: 1 << 20, MaxScanSize: 1 << 20}, codes.ContainerFileTooLarge},
		{write("x.bin", zeros), opts, ""},
		{corpus.Entry{Path: filepath.Join(dir, "x.ipsw-extracted"), Provenance: "fw.ipsw!/img.dmg!/System/default.metallib"}, opts, codes.ContainerUnreadable},
	}
	for _, tc := range tests {
		t.Run(tc.entry.Provenance, func(t *testing.T) {
			x := LoadSource(context.Background(), tc.entry, tc.opts)
			if tc.code == "" {
				if x.Verdict != VerdictNotLibrary || len(x.Items) != 0 {
					t.Fatalf("verdict %q, %d items; want a counted non-library", x.Verdict, len(x.Items))
				}
				return
			}
			if x.Verdict != VerdictLibrary || len(x.Items) != 1 || x.Items[0].Index != -1 || x.Items[0].Library.Source != tc.entry.Provenance {
				t.Fatalf("verdict %q, %d items; want one library-level row", x.Verdict, len(x.Items))
			}
			if r := checkContainer(x.Items[0]); r.Status != pipeline.Failed || r.Code != tc.code {
				t.Fatalf("container: %s %s %s; want %s", r.Status, r.Code, r.Message, tc.code)
			}
		})
	}
}

// TestLibraryChangedWhileRead: a library file that shrinks between being
// opened and read is a container/file-changed row, not a malformed library
// (its remaining bytes are not what the file held).
func TestLibraryChangedWhileRead(t *testing.T) {
	lib, err := os.ReadFile(filepath.Join("..", "testdata", "sample", "compute.metallib"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "lib.metallib")
	if err := os.WriteFile(p, lib, 0o644); err != nil {
		t.Fatal(err)
	}
	e := entryFor(t, p)
	openedHook = func(path string) {
		if err := os.Truncate(path, int64(len(lib)/2)); err != nil {
			t.Error(err)
		}
	}
	defer func() { openedHook = nil }()
	x := LoadSource(context.Background(), e, LoadOptions{MaxFileSize: DefaultMaxFileSize, MaxScanSize: DefaultMaxScanSize})
	if len(x.Items) != 1 || x.Items[0].Index != -1 {
		t.Fatalf("verdict %q, %d items", x.Verdict, len(x.Items))
	}
	if r := checkContainer(x.Items[0]); r.Code != codes.ContainerFileChanged {
		t.Fatalf("container: %s %s %s", r.Status, r.Code, r.Message)
	}
	// Untouched, the same file reads whole.
	openedHook = nil
	if err := os.WriteFile(p, lib, 0o644); err != nil {
		t.Fatal(err)
	}
	if x := LoadSource(context.Background(), entryFor(t, p), LoadOptions{MaxFileSize: DefaultMaxFileSize}); len(x.Items) < 2 {
		t.Fatalf("intact library: %d items", len(x.Items))
	}
}

// TestLoadLeavesSourceArchivesCompressed: the pipeline parses a library
// with embedded sources without decompressing their archives (no row reads
// their file lists; 'airpipe inspect' lists them).
func TestLoadLeavesSourceArchivesCompressed(t *testing.T) {
	path := filepath.Join("..", "corpus", "mtlb", "testdata", "modern_style.metallib")
	x := LoadSource(context.Background(), entryFor(t, path), LoadOptions{MaxFileSize: 1 << 30})
	if len(x.Items) == 0 || x.Items[0].Library.Lib == nil || x.Items[0].Library.Lib.Source == nil {
		t.Fatalf("no library with embedded sources: %+v", x)
	}
	for _, a := range x.Items[0].Library.Lib.Source.Archives {
		if a.Entries != nil || a.CompressedBytes == 0 {
			t.Errorf("archive %s: %d entries listed, %d bytes compressed", a.ID, len(a.Entries), a.CompressedBytes)
		}
	}
}

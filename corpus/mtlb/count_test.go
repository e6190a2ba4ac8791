package mtlb

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// TestDeclaredFunctions: the header-only count equals the parsed library's
// function count; damaged headers are unknown, never a wrong number.
func TestDeclaredFunctions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sample", "compute.metallib"))
	if err != nil {
		t.Fatal(err)
	}
	lib, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	huge := bytes.Clone(data)
	binary.LittleEndian.PutUint32(huge[lib.Sections.FunctionList.Offset:], 1<<30)
	badOffset := bytes.Clone(data)
	binary.LittleEndian.PutUint64(badOffset[24:], uint64(len(data)))
	cases := []struct {
		name string
		data []byte
		n    int
		ok   bool
	}{
		{"library", data, len(lib.Functions), true},
		{"short", data[:HeaderSize-1], 0, false},
		{"magic", append([]byte("MTLX"), data[4:]...), 0, false},
		{"count larger than its list", huge, 0, false},
		{"list past the end", badOffset, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.metallib")
			if err := os.WriteFile(p, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			n, ok := DeclaredFunctions(p)
			if n != c.n || ok != c.ok {
				t.Errorf("got (%d, %v), want (%d, %v)", n, ok, c.n, c.ok)
			}
		})
	}
	if _, ok := DeclaredFunctions(t.TempDir()); ok {
		t.Error("a directory has a declared count")
	}
}

package mtlb

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: it must not panic, every result
// must be self-consistent, and its consumers (HashMatches, RawBitcode,
// WriteText, JSON) must cope with whatever Parse returns. Seeds: the small
// libraries in testdata (also under testdata/fuzz/FuzzParse).
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.metallib"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lib, err := Parse(data)
		valid := ValidHeader(data)
		if err != nil {
			if _, ok := err.(*FormatError); !ok {
				t.Fatalf("error %T is not a *FormatError: %v", err, err)
			}
			return
		}
		if !valid {
			t.Fatal("Parse accepted data ValidHeader rejects")
		}
		if n, ok := declaredFunctions(bytes.NewReader(data), int64(len(data))); !ok || n != len(lib.Functions) {
			t.Fatalf("header declares (%d, %v) functions, Parse found %d", n, ok, len(lib.Functions))
		}
		if lib.FileSize > uint64(len(data)) {
			t.Fatalf("file size 0x%x beyond 0x%x bytes", lib.FileSize, len(data))
		}
		for i := range lib.Functions {
			fn := &lib.Functions[i]
			if fn.Bitcode != nil && uint64(len(fn.Bitcode)) != fn.BitcodeSize {
				t.Fatalf("function %d: %d bytes of bitcode, size field 0x%x", i, len(fn.Bitcode), fn.BitcodeSize)
			}
			fn.HashMatches()
			fn.RawBitcode()
		}
		if err := lib.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(lib); err != nil {
			t.Fatal(err)
		}
	})
}

// Package corpustest gives tests the real corpus that AIRPIPE_CORPUS points
// at (CI sets it to ../shared/corpus): its root, and its distinct function
// modules read through the project's own container parser. Tests skip, with
// the reason, when the variable is unset.
package corpustest

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/mtlb"
)

// Root returns the corpus directory, resolving a relative AIRPIPE_CORPUS
// against the module root, or skips the test.
func Root(t testing.TB) string {
	t.Helper()
	root := os.Getenv("AIRPIPE_CORPUS")
	if root == "" {
		t.Skip("AIRPIPE_CORPUS is not set: the real corpus is not available")
	}
	if !filepath.IsAbs(root) {
		dir, _ := os.Getwd()
		for d := dir; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				root = filepath.Join(d, root)
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if _, err := os.Stat(root); err != nil {
		t.Skipf("AIRPIPE_CORPUS=%s: %v", root, err)
	}
	return root
}

// Function is one distinct function module of the corpus.
type Function struct {
	// Bitcode is the raw module (the wrapper header stripped).
	Bitcode []byte
	// Wrapped is the function's slice as the library holds it.
	Wrapped []byte
	// Name and Type are the first occurrence's function name and TYPE code.
	Name string
	Type uint8
	// Library is the first occurrence's library, relative to the root.
	Library string
	// SHA256 is the hex SHA-256 of Bitcode.
	SHA256 string
	// Count is how many times the module occurs in the corpus.
	Count int
}

// Functions returns the corpus's distinct function modules (by SHA-256 of
// the raw bitcode), in the sorted order of their first library. A library
// that does not parse fails the test: the corpus is known to parse.
func Functions(t testing.TB) []*Function {
	t.Helper()
	root := Root(t)
	var libs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".metallib") {
			libs = append(libs, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(libs)
	seen := map[[32]byte]*Function{}
	var out []*Function
	for _, p := range libs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lib, err := mtlb.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		rel, _ := filepath.Rel(root, p)
		for _, f := range lib.Functions {
			raw, err := f.RawBitcode()
			if err != nil {
				t.Fatalf("%s %s: %v", rel, f.Name, err)
			}
			sum := sha256.Sum256(raw)
			if fn, ok := seen[sum]; ok {
				fn.Count++
				continue
			}
			fn := &Function{Bitcode: raw, Wrapped: f.Bitcode, Name: f.Name, Type: f.Type, Library: rel, SHA256: hex.EncodeToString(sum[:]), Count: 1}
			seen[sum] = fn
			out = append(out, fn)
		}
	}
	if len(out) == 0 {
		t.Skipf("no modules under %s", root)
	}
	return out
}

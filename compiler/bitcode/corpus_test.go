package bitcode

import (
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusModule is one distinct bitcode module of the real corpus.
type corpusModule struct {
	name string // library path relative to the corpus, and the slice offset
	data []byte
}

// corpusRoot returns AIRPIPE_CORPUS, resolved against the module root when
// relative, or skips the test.
func corpusRoot(t testing.TB) string {
	root := os.Getenv("AIRPIPE_CORPUS")
	if root == "" {
		t.Skip("AIRPIPE_CORPUS is not set: no real corpus to read")
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

// corpusModules extracts every distinct bitcode module from the corpus's
// .metallib files by finding LLVM wrapper headers (magic 0x0B17C0DE,
// version 0, offset 20, a size that stays in the file, then 'BC' 0xC0DE):
// each header states its own extent, so no container parser is needed.
func corpusModules(t testing.TB) []corpusModule {
	root := corpusRoot(t)
	var libs []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".metallib") {
			libs = append(libs, p)
		}
		return nil
	})
	sort.Strings(libs)
	seen := map[[32]byte]bool{}
	var out []corpusModule
	for _, lib := range libs {
		b, err := os.ReadFile(lib)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, lib)
		for i := 0; i+24 <= len(b); i++ {
			if binary.LittleEndian.Uint32(b[i:]) != wrapperMagic || binary.LittleEndian.Uint32(b[i+4:]) != 0 ||
				binary.LittleEndian.Uint32(b[i+8:]) != 20 {
				continue
			}
			size := int(binary.LittleEndian.Uint32(b[i+12:]))
			if i+20+size > len(b) || size < 4 || string(b[i+20:i+24]) != "BC\xc0\xde" {
				continue
			}
			mod := b[i : i+20+size]
			h := sha256.Sum256(mod)
			if !seen[h] {
				seen[h] = true
				out = append(out, corpusModule{name: rel + "@" + itoa(uint64(i)), data: mod})
			}
			i += 20 + size - 1
		}
	}
	if len(out) == 0 {
		t.Skipf("no bitcode modules under %s", root)
	}
	return out
}

// TestReadCorpus reads every distinct module of the real corpus and counts
// refusals by code and detail. Measured: 980 of 980 read.
func TestReadCorpus(t *testing.T) {
	mods := corpusModules(t)
	refused := map[string]int{}
	for _, m := range mods {
		if _, err := ReadModule(m.data); err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("%s: error of type %T: %v", m.name, err, err)
			}
			refused[e.Code+" "+e.Detail]++
		}
	}
	n := 0
	for k, v := range refused {
		t.Logf("refused %d: %s", v, k)
		n += v
	}
	t.Logf("read %d of %d distinct modules", len(mods)-n, len(mods))
	if n > 0 {
		t.Errorf("%d modules refused; all %d were read when this was measured", n, len(mods))
	}
}

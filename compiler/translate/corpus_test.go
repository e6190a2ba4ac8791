package translate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// corpusModules returns every distinct bitcode module in the corpus's
// metallibs, found by the LLVM wrapper magic 0x0B17C0DE whose header states
// the bitcode's offset and size.
func corpusModules(t testing.TB) [][]byte {
	t.Helper()
	root := os.Getenv("AIRPIPE_CORPUS")
	if root == "" {
		t.Skip("AIRPIPE_CORPUS is not set: no real corpus to translate")
	}
	seen := map[[32]byte]bool{}
	var mods [][]byte
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".metallib") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		magic := []byte{0xDE, 0xC0, 0x17, 0x0B}
		for i := 0; i+20 <= len(data); i++ {
			j := bytes.Index(data[i:], magic)
			if j < 0 {
				break
			}
			i += j
			if i+20 > len(data) {
				break
			}
			off := uint64(binary.LittleEndian.Uint32(data[i+8:]))
			size := uint64(binary.LittleEndian.Uint32(data[i+12:]))
			end := uint64(i) + off + size
			if off < 20 || end > uint64(len(data)) {
				continue
			}
			bc := data[i:end]
			h := sha256.Sum256(bc)
			if !seen[h] {
				seen[h] = true
				mods = append(mods, bc)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mods
}

// TestCorpus translates every entry point of every distinct corpus module
// and validates the result; it logs the funnel and the top missing features.
func TestCorpus(t *testing.T) {
	mods := corpusModules(t)
	validate := true
	if _, err := spirvValAvailable(); err != nil {
		validate = false
		t.Logf("spirv-val unavailable: %v", err)
	}
	var total, translated, accepted, library, readErr int
	missing := map[Finding]int{}
	only := map[Finding]int{}
	rejected := map[string]int{}
	for _, bc := range mods {
		m, err := bitcode.ReadModule(bc)
		if err != nil {
			readErr++
			continue
		}
		eps, err := air.EntryPoints(m)
		if err != nil {
			readErr++
			continue
		}
		for _, ep := range eps {
			total++
			out, err := Translate(m, ep)
			var me *MissingError
			switch {
			case errors.As(err, &me):
				if len(me.Missing) == 1 && me.Missing[0].Code == CodeLibraryFunction {
					library++
				}
				for _, f := range me.Missing {
					missing[f]++
				}
				if len(me.Missing) == 1 {
					only[me.Missing[0]]++
				}
				continue
			case err != nil:
				t.Errorf("%s: %v", ep.Function.Name, err)
				continue
			}
			translated++
			if !validate {
				continue
			}
			if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
				var ve *spirv.ValidationError
				if errors.As(err, &ve) {
					rejected[firstErrorLine(ve.Output)]++
					continue
				}
				t.Fatal(err)
			}
			accepted++
		}
	}
	t.Logf("modules %d (unreadable %d); translated %d of %d entry points, spirv-val accepts %d (library functions %d)",
		len(mods), readErr, translated, total, accepted, library)
	if validate && accepted*100 < 95*total {
		t.Errorf("only %d of %d entry points translate and validate, below 95%%", accepted, total)
	}
	logTop(t, "missing", missing, 25)
	logTop(t, "only blocker", only, 15)
	var rej []string
	for k, n := range rejected {
		rej = append(rej, fmt.Sprintf("%s ×%d", k, n))
	}
	sort.Strings(rej)
	for _, r := range rej {
		t.Logf("rejected: %s", r)
	}
}

func logTop(t *testing.T, what string, m map[Finding]int, n int) {
	type kv struct {
		f Finding
		n int
	}
	var list []kv
	for f, c := range m {
		list = append(list, kv{f, c})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].n != list[j].n {
			return list[i].n > list[j].n
		}
		return list[i].f.String() < list[j].f.String()
	})
	for i, e := range list {
		if i == n {
			break
		}
		t.Logf("%s: %5d %s", what, e.n, e.f)
	}
}

func firstErrorLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "error:") {
			if len(l) > 160 {
				l = l[:160]
			}
			return l
		}
	}
	return strings.TrimSpace(s)
}

func spirvValAvailable() (string, error) {
	return execLookPath("spirv-val")
}

package translate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/corpus/corpustest"
)

// corpusModules returns every distinct module of the real corpus
// (AIRPIPE_CORPUS), as raw bitcode.
func corpusModules(t testing.TB) [][]byte {
	t.Helper()
	var mods [][]byte
	for _, f := range corpustest.Functions(t) {
		mods = append(mods, f.Bitcode)
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

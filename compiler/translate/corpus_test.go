package translate

import (
	"context"
	"errors"
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

// Floors and ceilings measured on ../shared/corpus (616 libraries, 3,407
// distinct modules). They are ratchets, raised (or lowered, for invalid
// SPIR-V) as features land — never moved to hide a regression.
const (
	// minAccepted is the fewest entry points that must translate and pass
	// spirv-val (measured 2,135 of 3,405 on main 1b21ef4; 3,222 of 3,407
	// on 2026-12-01 after the simdgroup, multisample, pack, interface, CFG and
	// bfloat work; 3,370 of 3,407 on 2026-12-02 after programmable blending,
	// texture objects, float atomics and simdgroup matrices).
	minAccepted = 3370
)

// knownInvalid counts, by spirv-val's first line with numbers as N, the
// entry points whose SPIR-V the validator rejects. Each is a translator
// defect; the goal is an empty table. A line not listed, or more of one,
// fails TestCorpus; fewer fails too, so the table is lowered as fixes land.
var knownInvalid = map[string]int{}

// validatorLine makes spirv-val's first error line stable: the "line N: "
// prefix dropped and every run of digits written as N.
func validatorLine(out string) string {
	line := firstErrorLine(out)
	line = strings.TrimPrefix(line, "error: ")
	if strings.HasPrefix(line, "line ") {
		if _, rest, ok := strings.Cut(line, ": "); ok {
			line = rest
		}
	}
	var b strings.Builder
	digits := false
	for _, r := range line {
		if r >= '0' && r <= '9' {
			if !digits {
				b.WriteByte('N')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	return b.String()
}

// TestCorpus translates every entry point of every distinct corpus module
// and validates the result. Every entry point either validates or fails
// with named findings (code and detail), counted; the funnel and the top
// missing features are logged.
func TestCorpus(t *testing.T) {
	mods := corpusModules(t)
	needValidator(t)
	var total, translated, accepted, library, readErr int
	missing := map[Finding]int{}
	only := map[Finding]int{}
	rejected := map[string]int{}
	for _, bc := range mods {
		m, err := bitcode.ReadModule(bc)
		if err != nil {
			readErr++ // judged by compiler/bitcode's TestReadCorpus
			continue
		}
		eps, err := air.EntryPoints(m)
		if err != nil {
			t.Errorf("EntryPoints: %v", err)
			continue
		}
		for _, ep := range eps {
			total++
			out, err := Translate(m, ep)
			var me *MissingError
			switch {
			case errors.As(err, &me):
				if len(me.Missing) == 0 {
					t.Errorf("%s: refused with no finding", ep.Function.Name)
				}
				if len(me.Missing) == 1 && me.Missing[0].Code == CodeLibraryFunction {
					library++
				}
				for _, f := range me.Missing {
					if f.Code == "" || f.Detail == "" {
						t.Errorf("%s: finding without a name: %+v", ep.Function.Name, f)
					}
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
			if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
				var ve *spirv.ValidationError
				if errors.As(err, &ve) {
					rejected[validatorLine(ve.Output)]++
					continue
				}
				t.Fatal(err)
			}
			accepted++
		}
	}
	t.Logf("modules %d (unreadable %d); translated %d of %d entry points, spirv-val accepts %d = %.1f%% (library functions %d)",
		len(mods), readErr, translated, total, accepted, 100*float64(accepted)/float64(max(total, 1)), library)
	if accepted < minAccepted {
		t.Errorf("only %d of %d entry points translate and validate; the floor is %d", accepted, total, minAccepted)
	} else if accepted > minAccepted {
		t.Logf("%d entry points validate, above the floor %d: raise minAccepted", accepted, minAccepted)
	}
	corpustest.Ratchet(t, "invalid SPIR-V", rejected, knownInvalid)
	logTop(t, "missing", missing, 40)
	logTop(t, "only blocker", only, 25)
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

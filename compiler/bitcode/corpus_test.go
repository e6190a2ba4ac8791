package bitcode

import (
	"testing"

	"github.com/airpipe/airpipe/corpus/corpustest"
)

// corpusModule is one distinct bitcode module of the real corpus.
type corpusModule struct {
	name string // library path relative to the corpus, and the slice offset
	data []byte
}

// corpusModules returns every distinct module of the real corpus
// (AIRPIPE_CORPUS), as its library holds it (wrapper header included).
func corpusModules(t testing.TB) []corpusModule {
	var out []corpusModule
	for _, f := range corpustest.Functions(t) {
		out = append(out, corpusModule{name: f.Library + "!" + f.Name, data: f.Wrapped})
	}
	return out
}

// knownRefusals lists, by code and detail, the corpus modules the reader
// still refuses and how many of them were measured (AIRPIPE_CORPUS =
// ../shared/corpus, 3,407 distinct modules). It is a ratchet: a refusal not
// listed, or more of one than listed, fails TestReadCorpus; fewer fails too,
// so the table is lowered (and the read floor raised) as forms land.
// All 3,407 were read on 2026-12-01.
var knownRefusals = map[string]int{}

// TestReadCorpus reads every distinct module of the real corpus and counts
// refusals by code and detail against knownRefusals.
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
	t.Logf("read %d of %d distinct modules", len(mods)-sumCounts(refused), len(mods))
	checkRatchet(t, "refused", refused, knownRefusals)
}

// sumCounts adds up a count table.
func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// checkRatchet compares measured counts with a table of known ones: a key
// not in the table, or more of one, is a regression; fewer means the table
// must be lowered to keep the floor where it now is.
func checkRatchet(t reporter, what string, got, known map[string]int) {
	t.Helper()
	for k, n := range got {
		switch want, ok := known[k]; {
		case !ok:
			t.Errorf("%s %d: %s — not a known refusal", what, n, k)
		case n > want:
			t.Errorf("%s %d: %s — %d were measured", what, n, k, want)
		default:
			t.Logf("%s %d: %s (known)", what, n, k)
		}
	}
	for k, want := range known {
		if got[k] < want {
			t.Errorf("%s %d: %s — the table says %d: lower it, the floor has risen", what, got[k], k, want)
		}
	}
}

// reporter is the part of testing.T that checkRatchet uses.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
}

// errCounter counts checkRatchet's errors.
type errCounter struct{ errors int }

func (*errCounter) Helper()                 {}
func (c *errCounter) Errorf(string, ...any) { c.errors++ }
func (*errCounter) Logf(string, ...any)     {}

// TestCheckRatchet shows the ratchet able to fail: a new refusal, more of a
// known one, and fewer of a known one each fail; the measured table passes.
func TestCheckRatchet(t *testing.T) {
	known := map[string]int{"a": 2}
	for _, tc := range []struct {
		name   string
		got    map[string]int
		errors int
	}{
		{"as measured", map[string]int{"a": 2}, 0},
		{"new refusal", map[string]int{"a": 2, "b": 1}, 1},
		{"more refused", map[string]int{"a": 3}, 1},
		{"fewer refused", map[string]int{"a": 1}, 1},
		{"none refused", map[string]int{}, 1},
	} {
		var c errCounter
		checkRatchet(&c, "refused", tc.got, known)
		if c.errors != tc.errors {
			t.Errorf("%s: %d errors, want %d", tc.name, c.errors, tc.errors)
		}
	}
}

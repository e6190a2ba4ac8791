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
	corpustest.Ratchet(t, "refused", refused, knownRefusals)
}

// sumCounts adds up a count table.
func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

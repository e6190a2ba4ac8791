package bitcode

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
)

// allocBound is the most a read may allocate (AllocationBound).
func allocBound(n int) uint64 { return AllocationBound(n) }

// FuzzReadModule feeds arbitrary bytes to the reader and printer: no
// panic, no hang, and allocations bounded by the input's size. Seeds are
// the project's own bitcode fixtures (testdata/*.bc, assembled from the
// .ll fixtures beside them) and a few truncated and corrupted variants.
func FuzzReadModule(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.bc")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
		c := append([]byte(nil), b...)
		c[len(c)/3] ^= 0x5a
		f.Add(c)
	}
	f.Add([]byte("BC\xc0\xde"))
	f.Add([]byte{0xde, 0xc0, 0x17, 0x0b, 0, 0, 0, 0, 20, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 'B', 'C', 0xc0, 0xde})
	f.Fuzz(func(t *testing.T, data []byte) {
		before := allocated()
		m, err := ReadModule(data)
		if got := allocated() - before; got > allocBound(len(data)) {
			t.Fatalf("reading %d bytes allocated %d bytes (bound %d)", len(data), got, allocBound(len(data)))
		}
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if err := WriteLL(io.Discard, m); err != nil {
			t.Fatal(err)
		}
		air.Features(m)
		air.EntryPoints(m)
		// What the reader accepts holds the IR's invariants (the
		// translator relies on them): a module that breaks one is the
		// reader's bug, never the translator's input.
		if err := air.Verify(m); err != nil {
			t.Fatalf("the reader accepted a module that does not verify: %v", err)
		}
	})
}

// allocated is the bytes allocated so far (runtime/metrics: cheaper than
// ReadMemStats, which stops the world).
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestAllocationBoundOnCorpus checks the fuzz target's allocation bound
// against real modules, so the bound is known to hold for valid input.
func TestAllocationBoundOnCorpus(t *testing.T) {
	mods := corpusModules(t)
	var ms runtime.MemStats
	worst := 0.0
	for _, m := range mods {
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		if _, err := ReadModule(m.data); err != nil {
			continue
		}
		runtime.ReadMemStats(&ms)
		got := ms.TotalAlloc - before
		if r := float64(got) / float64(len(m.data)); r > worst {
			worst = r
		}
		if got > allocBound(len(m.data)) {
			t.Errorf("%s: %d bytes allocated for %d", m.name, got, len(m.data))
		}
	}
	t.Logf("worst allocation ratio over %d modules: %.1f bytes per input byte", len(mods), worst)
}

package judge

import (
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/codes"
)

// TestPermittedOnly: over the four references a module disabling denormals
// and permitting contraction allows (flushed/kept × unfused/fused), a
// device word matching any of them is fine; one matching none is unjudged
// where they differ — denormal-dependent when flushing or keeping moves it,
// contraction-dependent when only fusing does — and a mismatch (false)
// where they all agree.
func TestPermittedOnly(t *testing.T) {
	// Word 0: fixed (all 1.0). Word 1: moved by denormals (0 flushed,
	// 2^-40 kept). Word 2: moved by contraction only. Word 3: both.
	const one, kept, fusedW = 0x3f800000, 0x2b800000, 0x3f800001
	refs := func() []*cpuref.Result {
		mk := func(fused, preserved bool, ws ...uint32) *cpuref.Result {
			r := typedResult("float", true, ws...)
			r.Fused, r.DenormalsPreserved = fused, preserved
			return r
		}
		return []*cpuref.Result{
			mk(false, false, one, 0, one, 0),
			mk(true, false, one, 0, fusedW, one),
			mk(false, true, one, kept, one, kept),
			mk(true, true, one, kept, fusedW, fusedW),
		}
	}
	for _, c := range []struct {
		name   string
		refs   []*cpuref.Result
		got    map[int][]byte
		ok     bool
		code   codes.Code
		detail string
	}{
		{"each word some reference's", refs(), words(one, kept, fusedW, one), false, "", ""},
		{"a third value where denormals move it", refs(), words(one, 0x2b800001, one, 0), true, codes.EmulatorDenormalDependent, "buffer 0 word 1"},
		{"a third value where only contraction moves it", refs(), words(one, 0, 0x3f800002, 0), true, codes.EmulatorContractionDependent, "buffer 0 word 2"},
		{"a wrong fixed word beside a third value", refs(), words(0x3f800002, 0x2b800001, one, 0), false, "", ""},
		{"one reference only", refs()[:1], words(one, 1, one, 0), false, "", ""},
		{"kept only: the third value at word 3 moves with denormals", refs()[0:3:3], words(one, 0, one, 0x2b800001), true, codes.EmulatorDenormalDependent, "buffer 0 word 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, ok := PermittedOnly(c.refs, c.got)
			if ok != c.ok || ok && (v.Status != Unjudged || v.Code != c.code || v.Detail != c.detail) {
				t.Fatalf("got %v %s %s %q %s, want %v %s %q", ok, v.Status, v.Code, v.Detail, v.Message, c.ok, c.code, c.detail)
			}
		})
	}
}

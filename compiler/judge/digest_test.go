package judge

import (
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

// TestOutputDigest: NaNs of float outputs digest alike whatever their sign
// and payload; any other change of a compared word changes the digest, and
// AgainstEmulator says so.
func TestOutputDigest(t *testing.T) {
	frag := &cpuref.Result{Kernel: &cpuref.Kernel{Stage: "fragment", Targets: []cpuref.RenderTarget{{Index: 0, Kind: 'f', Components: 4}}},
		Outputs: []cpuref.Data{{Index: cpuref.RenderTargetBase, Bytes: make([]byte, 16)}}}
	buf := &cpuref.Result{Kernel: &cpuref.Kernel{Stage: "kernel"}, Outputs: []cpuref.Data{{Index: 0, Bytes: make([]byte, 16)}}}
	words := func(index int, ws ...uint32) map[int][]byte {
		b := make([]byte, 4*len(ws))
		for i, w := range ws {
			putLE(b[4*i:], w)
		}
		return map[int][]byte{index: b}
	}
	rt := cpuref.RenderTargetBase
	for _, tc := range []struct {
		name string
		ref  *cpuref.Result
		a, b map[int][]byte
		same bool
	}{
		{"equal", buf, words(0, 1, 2, 3, 4), words(0, 1, 2, 3, 4), true},
		{"one bit", buf, words(0, 1, 2, 3, 4), words(0, 1, 2, 3, 5), false},
		{"float NaNs", frag, words(rt, 0x7fffffff, 0, 0, 0), words(rt, 0xffc00000, 0, 0, 0), true},
		{"buffer NaNs are words", buf, words(0, 0x7fffffff, 0, 0, 0), words(0, 0xffc00000, 0, 0, 0), false},
		{"NaN is not infinity", frag, words(rt, 0x7f800000, 0, 0, 0), words(rt, 0x7fc00000, 0, 0, 0), false},
		{"length", buf, words(0, 1, 2, 3), words(0, 1, 2, 3, 0), false},
	} {
		a, b := Digest(tc.ref, tc.a), Digest(tc.ref, tc.b)
		if (a == b) != tc.same {
			t.Errorf("%s: digests %s and %s, want same=%v", tc.name, a, b, tc.same)
		}
		v := AgainstEmulator(a, b)
		if (v == "same") != tc.same || !tc.same && !strings.HasPrefix(v, "differs") {
			t.Errorf("%s: AgainstEmulator = %q", tc.name, v)
		}
	}
	if v := AgainstEmulator("", "x"); !strings.HasPrefix(v, "not compared") {
		t.Errorf("no emulator output: %q", v)
	}
}

func putLE(b []byte, w uint32) {
	b[0], b[1], b[2], b[3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
}

package judge

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
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

// digestByWords is Digest as it was written before it hashed each output in
// one write: four bytes a write. Published digests (emulator.output_sha256)
// must not change, so TestDigestStream holds Digest to it.
func digestByWords(ref *cpuref.Result, got map[int][]byte) string {
	h := sha256.New()
	var b [4]byte
	put := func(w uint32) {
		binary.LittleEndian.PutUint32(b[:], w)
		h.Write(b[:])
	}
	for _, o := range ref.Outputs {
		have := got[o.Index]
		put(uint32(o.Index))
		put(uint32(len(have)))
		kinds := kindsOf(ref.Kernel, o.Index)
		for w := 0; w*4 < len(have); w++ {
			put(kinds.at(w).canonical(Word(have, w)))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestDigestStream: Digest hashes the same bytes as digestByWords, over
// outputs of several kinds and lengths (a tail shorter than a word, an
// absent output), so every digest already published stays what it was.
func TestDigestStream(t *testing.T) {
	ref := &cpuref.Result{Kernel: &cpuref.Kernel{Stage: "fragment", Targets: []cpuref.RenderTarget{{Index: 0, Kind: 'f', Components: 4}, {Index: 1, Kind: 'u', Components: 1}}},
		Outputs: []cpuref.Data{{Index: cpuref.RenderTargetBase}, {Index: cpuref.RenderTargetBase + 1}, {Index: 3}, {Index: 7}}}
	rng := uint32(1)
	bytesOf := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			rng = rng*1664525 + 1013904223
			b[i] = byte(rng >> 24)
		}
		return b
	}
	for _, n := range []int{0, 3, 16, 17, 4096, 4099} {
		got := map[int][]byte{cpuref.RenderTargetBase: bytesOf(n), cpuref.RenderTargetBase + 1: bytesOf(n + 4), 3: bytesOf(n / 2)}
		if n >= 4 {
			copy(got[cpuref.RenderTargetBase], []byte{0x01, 0x00, 0xc0, 0xff}) // a NaN lane to make canonical
		}
		if a, b := Digest(ref, got), digestByWords(ref, got); a != b {
			t.Fatalf("%d bytes: Digest %s, word by word %s", n, a, b)
		}
	}
}

package judge

import (
	"math"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

func TestULPDistance(t *testing.T) {
	f := math.Float32bits
	for _, c := range []struct {
		a, b uint32
		d    uint32
		ok   bool
	}{
		{f(1), f(1), 0, true},
		{f(1), math.Float32bits(math.Nextafter32(1, 2)), 1, true},
		{f(0), 0x80000000, 0, true},                                     // +0 and -0
		{0x00000001, 0x80000001, 2, true},                               // the two smallest denormals
		{f(1), f(-1), 2 * 0x3f800000, true},                             // across zero
		{f(math.MaxFloat32), 0x7f800000, 0, false},                      // infinity is never close
		{0x7fc00000, 0x7fc00000, 0, false},                              // nor NaN
		{f(-math.MaxFloat32), f(math.MaxFloat32), 2 * 0x7f7fffff, true}, // the widest finite gap
	} {
		d, ok := ulpDistance(c.a, c.b)
		if d != c.d || ok != c.ok {
			t.Errorf("ulpDistance(%#x, %#x) = %d, %v; want %d, %v", c.a, c.b, d, ok, c.d, c.ok)
		}
	}
}

// TestCompareWithinULPBound: with order-only operations a float render
// target word may differ by up to ULPBound and passes saying so; one ULP
// more is a mismatch naming the distance; buffer words stay exact; and
// without order-only operations one ULP is a mismatch.
func TestCompareWithinULPBound(t *testing.T) {
	rt := cpuref.RenderTargetBase
	base := math.Float32bits(0.75)
	mk := func(approx []string, index int, delta uint32) (*cpuref.Result, map[int][]byte) {
		k := &cpuref.Kernel{Stage: "fragment", Targets: []cpuref.RenderTarget{{Index: 0, Kind: 'f', Components: 1}}}
		want := make([]byte, 4)
		putLE(want, base)
		have := make([]byte, 4)
		putLE(have, base+delta)
		ref := &cpuref.Result{Kernel: k, Grid: cpuref.DefaultGrid(), Approximate: approx, Inputs: []cpuref.Data{{Index: index, Bytes: make([]byte, 4)}},
			Outputs: []cpuref.Data{{Index: index, Bytes: want}}}
		return ref, map[int][]byte{index: have}
	}
	dot := []string{"air.dot.v3f32"}
	for _, c := range []struct {
		name   string
		approx []string
		index  int
		delta  uint32
		status Status
		want   string // in the message or data
	}{
		{"exact", dot, rt, 0, Passed, "max_ulp=0"},
		{"within", dot, rt, ULPBound, Passed, "max_ulp=16"},
		{"beyond", dot, rt, ULPBound + 1, Failed, "17 ULP apart, beyond the bound of 16"},
		{"no order-only op", nil, rt, 1, Failed, "expected"},
		{"buffer word", dot, 0, 1, Failed, "expected"},
	} {
		ref, got := mk(c.approx, c.index, c.delta)
		r := Compare(ref, got)
		text := r.Message
		for k, v := range r.Data {
			text += " " + k + "=" + v
		}
		if r.Status != c.status || !strings.Contains(text, c.want) {
			t.Errorf("%s: %s %q %v; want %s with %q", c.name, r.Status, r.Message, r.Data, c.status, c.want)
		}
	}
}

// TestCompareLanesWithinULPBound: with an order-only operation, half and
// bfloat buffer words pass when each 16-bit lane lies within the bound in
// its own type's ULPs (an order-only float sum rounded to bfloat moves by a
// bfloat ULP); beyond it, an infinity, or without the operation they fail.
func TestCompareLanesWithinULPBound(t *testing.T) {
	for _, c := range []struct {
		name     string
		typ      string
		approx   []string
		ref, got uint32
		status   Status
	}{
		{"bfloat lane one ULP", "bfloat2", []string{"air.dot.v4f32"}, 0x3f4e3ef5, 0x3f4e3ef4, Passed},
		{"half lane sixteen ULP", "half2", []string{"air.dot.v4f32"}, 0x3c003c00, 0x3c003c10, Passed},
		{"half lane seventeen ULP", "half2", []string{"air.dot.v4f32"}, 0x3c003c00, 0x3c003c11, Failed},
		{"bfloat infinity lane", "bfloat2", []string{"air.dot.v4f32"}, 0x3f807f80, 0x3f807f7f, Failed},
		{"no order-only operation", "bfloat2", nil, 0x3f4e3ef5, 0x3f4e3ef4, Failed},
	} {
		ref := typedResult(c.typ, false, c.ref)
		ref.Approximate = c.approx
		r := Compare(ref, words(c.got))
		if r.Status != c.status {
			t.Errorf("%s: %s %s %v", c.name, r.Status, r.Message, r.Data)
		}
	}
}

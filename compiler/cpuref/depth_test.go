package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// outputsByIndex maps a run's outputs by harness buffer index.
func outputsByIndex(res *Result) map[int][]byte {
	m := map[int][]byte{}
	for _, o := range res.Outputs {
		m[o.Index] = o.Bytes
	}
	return m
}

// checkTargetPixel compares the words of pixel (x, y) of render target rt of a 4×4 draw,
// among outs (outputsByIndex), with want.
func checkTargetPixel(t *testing.T, outs map[int][]byte, rt, x, y int, want []uint32) {
	t.Helper()
	p := (y*4 + x) * TexelSize
	for c, w := range want {
		if got := binary.LittleEndian.Uint32(outs[RenderTargetBase+rt][p+4*c:]); got != w {
			t.Errorf("target %d pixel (%d,%d)[%d] = %#x, want %#x", rt, x, y, c, got, w)
		}
	}
}

// checkDepthWords compares DepthBuffer's 16 words with want(x, y) and checks that the run
// started it at ClearDepth.
func checkDepthWords(t *testing.T, res *Result, want func(x, y int) uint32) {
	t.Helper()
	var in []byte
	for _, d := range res.Inputs {
		if d.Index == DepthBuffer {
			in = d.Bytes
		}
	}
	if len(in) != 4*4*4 {
		t.Fatalf("depth input has %d bytes, want 64", len(in))
	}
	for i := 0; i < len(in); i += 4 {
		if w := binary.LittleEndian.Uint32(in[i:]); w != ClearDepth {
			t.Fatalf("depth input word %d = %#x, want ClearDepth", i/4, w)
		}
	}
	out := outputsByIndex(res)[DepthBuffer]
	if len(out) != 64 {
		t.Fatalf("depth output has %d bytes, want 64", len(out))
	}
	for y := range 4 {
		for x := range 4 {
			if got, w := binary.LittleEndian.Uint32(out[4*(y*4+x):]), want(x, y); got != w {
				t.Errorf("depth pixel (%d,%d) = %#x (%g), want %#x (%g)", x, y, got, math.Float32frombits(got), w, math.Float32frombits(w))
			}
		}
	}
}

// TestDepthFragment runs a function returning a float render target (field 0), a float4
// colour (field 1) and a depth (pos.x + pos.y)/8 (field 2) and checks every depth word and
// every colour word. Listing the outputs in the other order (break on purpose) makes the
// depth the first field: its words become pos.x/8, and the checks see it.
func TestDepthFragment(t *testing.T) {
	needTools(t)
	ll := readFixture(t, "testdata/depth_fragment.ll")
	swapped := replaceAll(t, ll, "!1 = !{!2, !3, !4}", "!1 = !{!4, !3, !2}")
	half := func(v int) float32 { return float32(v) + 0.5 }
	sum := func(x, y int) uint32 { return math.Float32bits((half(x) + half(y)) * 0.125) }
	eighth := func(x, _ int) uint32 { return math.Float32bits(half(x) * 0.125) }
	if sum(0, 0) != math.Float32bits(0.125) || sum(3, 3) != math.Float32bits(0.875) || eighth(1, 0) != math.Float32bits(0.1875) {
		t.Fatal("expected depth values are not (x+y+1)/8 and (x+0.5)/8")
	}
	for _, c := range []struct {
		name        string
		ll          string
		field       int
		depth, rt1  func(x, y int) uint32
		wantChanged bool
	}{
		{"depth in field 2", ll, 2, sum, eighth, false},
		{"outputs listed in the other order", swapped, 0, eighth, sum, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(context.Background(), assemble(t, c.ll), "frag", Options{})
			if err != nil {
				t.Fatal(err)
			}
			k := res.Kernel
			if !k.WritesDepth || k.DepthField != c.field || len(k.Targets) != 2 {
				t.Fatalf("interface: depth %v field %d targets %+v", k.WritesDepth, k.DepthField, k.Targets)
			}
			checkDepthWords(t, res, c.depth)
			if c.wantChanged && c.depth(1, 1) == sum(1, 1) {
				t.Fatal("the break-on-purpose variant expects the same depth")
			}
			outs := outputsByIndex(res)
			for y := range 4 {
				for x := range 4 {
					checkTargetPixel(t, outs, 0, x, y, []uint32{math.Float32bits(half(x) * 0.25), math.Float32bits(half(y) * 0.25), math.Float32bits(0.5), math.Float32bits(1)})
					checkTargetPixel(t, outs, 1, x, y, []uint32{c.rt1(x, y), Clear[1], Clear[2], Clear[3]})
				}
			}
		})
	}
}

// TestDepthOnly runs functions that return only air.depth, as ps_blit_2d_depth does: a float
// alone (field -1) or a one-field struct, from a uniform depth texture or a varying.
func TestDepthOnly(t *testing.T) {
	needTools(t)
	ll := readFixture(t, "testdata/depth_only.ll")
	structured := replaceAll(t, ll, "define float @depth", "define <{ float }> @depth",
		"  ret float %d\n", "  %r = insertvalue <{ float }> undef, float %d, 0\n  ret <{ float }> %r\n")
	varying := replaceAll(t, ll, "  ret float %d\n", "  %u = extractelement <4 x float> %uv, i32 0\n  ret float %u\n")
	texel := TexelWords(5, 'd')[0]
	if texel != math.Float32bits(0.375) || inputValue(0, 0, 'f') != math.Float32bits(0.25) {
		t.Fatal("depth texture 5 is not 6/16 or the first varying's x is not 2/8")
	}
	for _, c := range []struct {
		name  string
		ll    string
		field int
		word  uint32
	}{
		{"float from the texture", ll, -1, texel},
		{"<{ float }> from the texture", structured, 0, texel},
		{"float from a varying", varying, -1, math.Float32bits(0.25)},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(context.Background(), assemble(t, c.ll), "depth", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if k := res.Kernel; !k.WritesDepth || k.DepthField != c.field || len(k.Targets) != 0 {
				t.Fatalf("interface: depth %v field %d targets %+v", k.WritesDepth, k.DepthField, k.Targets)
			}
			if len(res.Inputs) != 1 || len(res.Outputs) != 1 {
				t.Fatalf("inputs %d outputs %d, want only DepthBuffer", len(res.Inputs), len(res.Outputs))
			}
			checkDepthWords(t, res, func(int, int) uint32 { return c.word })
		})
	}
}

// TestDepthNotFloat breaks the depth output's type: a half depth is set aside naming it.
func TestDepthNotFloat(t *testing.T) {
	needTools(t)
	ll := replaceAll(t, readFixture(t, "testdata/depth_only.ll"), "define float @depth", "define half @depth",
		"  ret float %d\n", "  %h = fptrunc float %d to half\n  ret half %h\n")
	_, err := Run(context.Background(), assemble(t, ll), "depth", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindArgument || !strings.Contains(nj.Detail, "air.depth half") {
		t.Fatalf("got %v, want not judgeable (%s) naming air.depth half", err, KindArgument)
	}
}

// TestNoDepthBuffer checks that a fragment function without air.depth gets no DepthBuffer.
func TestNoDepthBuffer(t *testing.T) {
	needTools(t)
	res, err := Run(context.Background(), assemble(t, readFixture(t, "testdata/fragment.ll")), "frag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kernel.WritesDepth {
		t.Fatal("WritesDepth set")
	}
	if _, ok := outputsByIndex(res)[DepthBuffer]; ok {
		t.Fatal("a function without air.depth was given a DepthBuffer")
	}
}

// TestClearDepthBuffer checks the clear value: 1.0 in every word.
func TestClearDepthBuffer(t *testing.T) {
	b := ClearDepthBuffer(3, 2)
	if len(b) != 24 {
		t.Fatalf("%d bytes, want 24", len(b))
	}
	for i := 0; i < len(b); i += 4 {
		if math.Float32frombits(binary.LittleEndian.Uint32(b[i:])) != 1 {
			t.Fatalf("word %d is not 1.0", i/4)
		}
	}
}

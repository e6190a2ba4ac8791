package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// blendLL reads colour attachment 0 (half4) and 1 (short) as inputs and writes
// out0 = dst0 · 2 and out1 = dst1 − 1 (as int).
const blendLL = `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <{ <4 x half>, i32 }> @frag(<4 x half> %dst0, i16 %dst1) {
entry:
  %d = fmul <4 x half> %dst0, <half 0xH4000, half 0xH4000, half 0xH4000, half 0xH4000>
  %s = sext i16 %dst1 to i32
  %m = sub i32 %s, 1
  %r0 = insertvalue <{ <4 x half>, i32 }> undef, <4 x half> %d, 0
  %r1 = insertvalue <{ <4 x half>, i32 }> %r0, i32 %m, 1
  ret <{ <4 x half>, i32 }> %r1
}

!air.fragment = !{!0}
!0 = !{ptr @frag, !1, !4}
!1 = !{!2, !3}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"half4"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"int"}
!4 = !{!5, !6}
!5 = !{i32 0, !"air.render_target", i32 0, !"air.arg_type_name", !"half4", !"air.arg_name", !"dst0"}
!6 = !{i32 1, !"air.render_target", i32 1, !"air.arg_type_name", !"short", !"air.arg_name", !"dst1"}
`

// TestDestinationWords: every attachment and component has its own destination, none is
// Clear, floats are exact in half and ints fit a char.
func TestDestinationWords(t *testing.T) {
	seen := map[uint32]bool{}
	for n := range 8 {
		for _, kind := range []byte{'f', 'i', 'u'} {
			w := DestinationWords(n, kind)
			for c := range 4 {
				if w[c] == Clear[c] || seen[w[c]] {
					t.Errorf("DestinationWords(%d, %q)[%d] = %#x repeats a word", n, kind, c, w[c])
				}
				seen[w[c]] = true
				switch kind {
				case 'f':
					f := math.Float32frombits(w[c])
					if f == 0 || float32(destHalfValue(halfBits(f))) != f {
						t.Errorf("DestinationWords(%d, 'f')[%d] = %g is not a half", n, c, f)
					}
				case 'i':
					if v := int32(w[c]); v != int32(int8(v)) {
						t.Errorf("DestinationWords(%d, 'i')[%d] = %d does not fit a char", n, c, v)
					}
				}
			}
		}
	}
}

// destHalfValue is the float a normal half's bits stand for.
func destHalfValue(h uint16) float64 {
	v := math.Ldexp(1+float64(h&0x3ff)/1024, int(h>>10&0x1f)-15)
	if h&0x8000 != 0 {
		return -v
	}
	return v
}

// TestBlend: the reference passes each render target input its attachment's destination,
// converted to the parameter's type, and starts the target's buffer with it: out0 = 2·dst0
// (half), out1 = dst1 − 1 with dst1 the destination truncated to short. A target written as
// one kind and read as another is set aside.
func TestBlend(t *testing.T) {
	needTools(t)
	res, err := Run(context.Background(), assemble(t, blendLL), "frag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := res.Kernel
	if len(k.Destinations) != 2 || k.Destinations[0].Index != 0 || k.Destinations[1].Kind != 'i' {
		t.Fatalf("destinations %+v", k.Destinations)
	}
	if k.TargetClear(0) != DestinationWords(0, 'f') || k.TargetClear(2) != Clear {
		t.Fatalf("target clears %v %v", k.TargetClear(0), k.TargetClear(2))
	}
	outs := outputsByIndex(res)
	d0, d1 := DestinationWords(0, 'f'), DestinationWords(1, 'i')
	for p := range 16 {
		for c := range 4 {
			want := math.Float32bits(2 * math.Float32frombits(d0[c]))
			if got := binary.LittleEndian.Uint32(outs[RenderTargetBase][16*p+4*c:]); got != want {
				t.Fatalf("render target 0 pixel %d component %d: %#x, want %#x", p, c, got, want)
			}
		}
		if got, want := int32(binary.LittleEndian.Uint32(outs[RenderTargetBase+1][16*p:])), int32(int16(d1[0]))-1; got != want {
			t.Fatalf("render target 1 pixel %d: %d, want %d", p, got, want)
		}
		// Components the int output lacks keep the destination.
		if got := binary.LittleEndian.Uint32(outs[RenderTargetBase+1][16*p+4:]); got != d1[1] {
			t.Fatalf("render target 1 pixel %d component 1: %#x, want the destination %#x", p, got, d1[1])
		}
	}
	mixed := strings.Replace(blendLL, "i16 %dst1) {", "half %dst1) {", 1)
	mixed = strings.Replace(mixed, "%s = sext i16 %dst1 to i32", "%s = fptosi half %dst1 to i32", 1)
	_, err = Run(context.Background(), assemble(t, mixed), "frag", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindArgument || nj.Detail != "render target read as another kind" {
		t.Fatalf("a float read of an int target: %v, want set aside (argument)", err)
	}
}

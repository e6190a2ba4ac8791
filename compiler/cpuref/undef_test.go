package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// TestUndefVariant checks which undef operands the variant replaces and with what.
func TestUndefVariant(t *testing.T) {
	for _, c := range []struct {
		in, want string
	}{
		{"  %r = phi i32 [ undef, %a ], [ %m, %b ]", "  %r = phi i32 [ -91, %a ], [ %m, %b ]"},
		{"  %r = phi fast <2 x float> [ undef, %a ], [ %m, %b ]", "  %r = phi fast <2 x float> [ <float -1.360000e+02, float -1.360000e+02>, %a ], [ %m, %b ]"},
		{"  %v = insertelement <2 x half> undef, half %h, i32 0", "  %v = insertelement <2 x half> <half -1.360000e+02, half -1.360000e+02>, half %h, i32 0"},
		{"  %s = select i1 %c, i1 undef, i1 %d", "  %s = select i1 %c, i1 true, i1 %d"},
		{"  %s = shufflevector <2 x float> %a, <2 x float> undef, <4 x i32> <i32 0, i32 undef, i32 1, i32 1>", ""},
		{"@g = internal global i32 undef", ""},
		{"  %x = insertvalue { i32, float } undef, i32 1, 0", "  %x = insertvalue { i32, float } { i32 -91, float -1.360000e+02 }, i32 1, 0"},
		{"  %x = insertvalue <{ <2 x half>, i8 }> undef, i8 1, 1", "  %x = insertvalue <{ <2 x half>, i8 }> <{ <2 x half> <half -1.360000e+02, half -1.360000e+02>, i8 -91 }>, i8 1, 1"},
		{"  %x = insertvalue [2 x { i1 }] undef, { i1 } %e, 0", "  %x = insertvalue [2 x { i1 }] [{ i1 } { i1 true }, { i1 } { i1 true }], { i1 } %e, 0"},
		{"%struct.S = type { float, [1 x i16] }\n  %x = insertvalue %struct.S undef, float 1.0, 0", "%struct.S = type { float, [1 x i16] }\n  %x = insertvalue %struct.S { float -1.360000e+02, [1 x i16] [i16 -91] }, float 1.0, 0"},
		{"  %r = phi fast { float, i32 } [ %a, %x ], [ undef, %y ]", "  %r = phi fast { float, i32 } [ %a, %x ], [ { float -1.360000e+02, i32 -91 }, %y ]"},
		{"  ret <{ i32, i32 }> undef", "  ret <{ i32, i32 }> <{ i32 -91, i32 -91 }>"},
		// Pointers, unknown named types and undef that is part of a name stay.
		{"  %x = insertvalue { ptr, i32 } undef, i32 1, 1", ""},
		{"  %x = insertvalue %struct.Unknown undef, i32 1, 1", ""},
		{"  %x = insertvalue { i32 } %undef, i32 1, 0", ""},
	} {
		vs, changed := undefVariants(c.in)
		got := vs[0]
		if c.want == "" {
			if changed || got != c.in {
				t.Errorf("%q: changed to %q", c.in, got)
			}
			continue
		}
		if !changed || got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// TestUndefOutput runs a kernel whose output is a phi's undef unless the value it reads has a
// case: with the case it runs (its insertelement's undef lane is overwritten and changes
// nothing), without it the output is set aside as undefined.
func TestUndefOutput(t *testing.T) {
	needTools(t)
	freshBuildCache(t)
	ll := readFixture(t, "testdata/undef_output.ll")
	builds := kernelBuilds.Load()
	res, err := RunText(context.Background(), strings.Replace(ll, "i32 KIND", "i32 13", 1), "undef_out", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two builds, one per undef fill: the first is the reference, never the
	// function as it is besides.
	if n := kernelBuilds.Load() - builds; n != int64(len(undefFills)) {
		t.Errorf("%d builds of a module with live undef, want %d", n, len(undefFills))
	}
	for _, o := range res.Outputs {
		if o.Index == 1 {
			for tid := range 16 {
				if got := binary.LittleEndian.Uint32(o.Bytes[4*tid:]); got != uint32(3*tid) {
					t.Errorf("thread %d: %d, want %d", tid, got, 3*tid)
				}
			}
		}
	}
	_, err = RunText(context.Background(), strings.Replace(ll, "i32 KIND", "i32 99", 1), "undef_out", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindUndefined || !strings.Contains(nj.Reason, "buffer 1") {
		t.Fatalf("got %v, want %s naming buffer 1", err, KindUndefined)
	}
}

// TestUndefTarget runs a fragment function whose returned struct never sets its render
// target 2 member (the insertvalue chain's undef base): that target is set aside as
// undefined, and with the member set the same function runs and keeps its destination.
func TestUndefTarget(t *testing.T) {
	needTools(t)
	ll := readFixture(t, "testdata/undef_target.ll")
	set := "  %r2 = insertvalue <{ <4 x half>, i32, <4 x half> }> %r1, <4 x half> %dst2, 2\n  ret <{ <4 x half>, i32, <4 x half> }> %r2"
	res, err := RunText(context.Background(), strings.Replace(ll, "MEMBER2", set, 1), "undef_target", Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range res.Outputs {
		if o.Index == RenderTargetBase+2 {
			found = true
			want := DestinationWords(2, 'f')
			if got := binary.LittleEndian.Uint32(o.Bytes); got != want[0] {
				t.Errorf("render target 2 word 0 = %#x, want the destination %#x", got, want[0])
			}
		}
	}
	if !found {
		t.Fatal("no render target 2 in the outputs")
	}
	_, err = RunText(context.Background(), strings.Replace(ll, "MEMBER2", "  ret <{ <4 x half>, i32, <4 x half> }> %r1", 1), "undef_target", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindUndefined || !strings.Contains(nj.Reason, "render target 2") {
		t.Fatalf("got %v, want %s naming render target 2", err, KindUndefined)
	}
	t.Log(nj.Reason)
}

// TestUndefFillsDiffer checks that the two undef fills tell every scalar type apart, also
// after a conversion that saturates to [0, 1] (a unorm render target): were they equal
// there, an output reaching undef through such a conversion would go unnoticed.
func TestUndefFillsDiffer(t *testing.T) {
	sat := func(v float64) float64 { return min(max(v, 0), 1) }
	a, b := undefFills[0], undefFills[1]
	for _, ty := range []string{"half", "bfloat", "float", "double", "i1", "i8", "i16", "i32", "i64"} {
		ca, cb := a.undefConstant(ty), b.undefConstant(ty)
		if ca == cb {
			t.Errorf("%s: both fills are %s", ty, ca)
		}
	}
	if sat(a.float) == sat(b.float) {
		t.Errorf("saturated to [0, 1] the float fills are both %g", sat(a.float))
	}
	if (a.integer < 0) == (b.integer < 0) {
		t.Errorf("integer fills %d and %d have the same sign: clamped to 0 they may agree", a.integer, b.integer)
	}
}

package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"
)

// packKernel is a one-thread kernel that calls op count times and stores
// each result at out[i]. word computes the i32 operand from %i (unpack), or
// the operand is lanes consecutive floats of @vals (pack).
func packKernel(op, ret, param, word string, vals []uint32, count int) string {
	var vs []string
	for _, v := range vals {
		vs = append(vs, fmt.Sprintf("i32 %d", int32(v)))
	}
	global := ""
	if len(vals) > 0 {
		global = fmt.Sprintf("@vals = internal constant [%d x i32] [%s]\n", len(vals), strings.Join(vs, ", "))
	}
	return `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

` + global + `
declare ` + ret + ` @` + op + `(` + param + `)

define void @k(ptr addrspace(1) noalias %out, i32 %gid) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %i64 = zext i32 %i to i64
` + word + `
  %r = call ` + ret + ` @` + op + `(` + param + ` %arg)
  %op = getelementptr inbounds ` + ret + `, ptr addrspace(1) %out, i64 %i64
  store ` + ret + ` %r, ptr addrspace(1) %op
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, ` + fmt.Sprint(count) + `
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1}
!4 = !{i32 1, !"air.thread_position_in_grid"}
`
}

var oneThread = Options{Grid: Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}}, BufferSize: 1 << 20}

// bigHalf rounds q (|q| at most 1) to half, ties to even, subnormals kept.
func bigHalf(q *big.Float) uint16 {
	sign := uint16(0)
	a := new(big.Float).Abs(q)
	if q.Sign() < 0 {
		sign = 0x8000
	}
	if a.Cmp(big.NewFloat(math.Ldexp(1, -14))) < 0 {
		// Subnormal: a multiple of 2^-24.
		n := new(big.Float).SetMode(big.ToNearestEven).SetPrec(64).Mul(a, big.NewFloat(math.Ldexp(1, 24)))
		i := roundEvenBig(n)
		return sign | uint16(i)
	}
	r, _ := new(big.Float).SetMode(big.ToNearestEven).SetPrec(11).Set(a).Float64()
	m, e := math.Frexp(r) // r = m·2^e, m in [0.5, 1)
	return sign | uint16(e-1+15)<<10 | uint16((m*2-1)*1024)
}

// roundEvenBig rounds a non-negative big.Float to the nearest integer, ties to even.
func roundEvenBig(x *big.Float) uint64 {
	fl, _ := x.Uint64()
	frac := new(big.Float).Sub(x, new(big.Float).SetUint64(fl))
	switch frac.Cmp(big.NewFloat(0.5)) {
	case 1:
		return fl + 1
	case 0:
		return fl + fl&1
	}
	return fl
}

// normQuotient is c / (2^n − 1) (unorm) or max(−1, c / (2^(n−1) − 1))
// (snorm, c two's complement in n bits), exact to 256 bits.
func normQuotient(c uint32, bits int, signed bool) *big.Float {
	v := int64(c)
	if signed && c >= 1<<(bits-1) {
		v -= 1 << bits
	}
	q := new(big.Float).SetPrec(256).Quo(new(big.Float).SetInt64(v), new(big.Float).SetInt64(int64(normScale(bits, signed))))
	if q.Cmp(big.NewFloat(-1)) < 0 {
		q = big.NewFloat(-1)
	}
	return q
}

// TestUnpackExhaustive runs every unpack form over every code (all 256
// bytes; all 65536 16-bit codes) and checks each lane against the
// correctly rounded quotient computed with math/big.
func TestUnpackExhaustive(t *testing.T) {
	needTools(t)
	for _, c := range []struct {
		family string
		elem   string
	}{{"unorm4x8", "float"}, {"snorm4x8", "float"}, {"unorm4x8", "half"}, {"snorm4x8", "half"},
		{"unorm2x16", "float"}, {"snorm2x16", "float"}, {"unorm2x16", "half"}, {"snorm2x16", "half"}} {
		lanes, bits, signed, _ := packLayout(c.family)
		suffix := map[string]string{"float": "f32", "half": "f16"}[c.elem]
		op := fmt.Sprintf("air.unpack.%s.v%d%s", c.family, lanes, suffix)
		t.Run(op, func(t *testing.T) {
			// Word i holds codes lanes·i .. lanes·i + lanes − 1.
			var word string
			var count int
			if bits == 8 {
				word = "  %m = mul i32 %i, 67372036\n  %arg = add i32 %m, 50462976\n" // 4i·0x01010101 + 0x03020100
				count = 64
			} else {
				word = "  %m = mul i32 %i, 131074\n  %arg = add i32 %m, 65536\n" // 2i·0x00010001 + 0x00010000
				count = 32768
			}
			ret := fmt.Sprintf("<%d x %s>", lanes, c.elem)
			res, err := RunText(context.Background(), packKernel(op, ret, "i32", word, nil, count), "k", oneThread)
			if err != nil {
				t.Fatal(err)
			}
			out := res.Outputs[0].Bytes
			for code := uint32(0); code < uint32(lanes*count); code++ {
				q := normQuotient(code, bits, signed)
				if c.elem == "float" {
					f, _ := q.Float32()
					if got := binary.LittleEndian.Uint32(out[4*code:]); got != math.Float32bits(f) {
						t.Fatalf("code %#x: got %#08x, want %#08x (%g)", code, got, math.Float32bits(f), f)
					}
					continue
				}
				if got, want := binary.LittleEndian.Uint16(out[2*code:]), bigHalf(q); got != want {
					t.Fatalf("code %#x: got half %#04x, want %#04x", code, got, want)
				}
			}
		})
	}
}

// packBoundaries are float inputs at pack's edges: each code's rounding
// midpoint (k + 0.5)/(2^n − 1) and its float neighbours, ±0, ±1, beyond
// the clamp, infinities, NaNs and subnormals.
func packBoundaries(scale int) []float32 {
	vs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1.5, -1.5, 2, -2, 1e30, -1e30,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0xffc12345),
		math.Float32frombits(1), math.Float32frombits(0x80000001), math.Nextafter32(1, 2), math.Nextafter32(-1, -2)}
	for _, k := range []int{0, 1, 2, 63, 64, 126, 127, 128, 200, 253, 254, scale - 2, scale - 1} {
		for _, sgn := range []float64{1, -1} {
			m := float32(sgn * (float64(k) + 0.5) / float64(scale))
			vs = append(vs, m, math.Nextafter32(m, 2), math.Nextafter32(m, -2),
				float32(sgn*float64(k)/float64(scale)))
		}
	}
	return vs
}

// packWant is Metal's formula: NaN → 0, clamp, the float product, round to
// nearest even, the code's low bits.
func packWant(x float32, bits int, signed bool) uint32 {
	if x != x {
		return 0
	}
	lo := float32(0)
	if signed {
		lo = -1
	}
	x = min(max(x, lo), 1)
	scale := float32(normScale(bits, signed))
	p := x * scale
	return uint32(int32(math.RoundToEven(float64(p)))) & (1<<bits - 1)
}

// TestPackBoundaries runs every pack form on packBoundaries and checks each
// word against packWant.
func TestPackBoundaries(t *testing.T) {
	needTools(t)
	if packWant(float32(0.5)/255, 8, false) != 0 || packWant(float32(1.5)/255, 8, false) != 2 || packWant(-1, 8, true) != 0x81 {
		t.Fatal("packWant does not round to nearest even or misplaces snorm's −1")
	}
	for _, c := range []struct {
		family string
		elem   string
	}{{"unorm4x8", "float"}, {"snorm4x8", "float"}, {"unorm4x8", "half"}, {"snorm4x8", "half"},
		{"unorm2x16", "float"}, {"snorm2x16", "float"}} {
		lanes, bits, signed, _ := packLayout(c.family)
		suffix := map[string]string{"float": "f32", "half": "f16"}[c.elem]
		op := fmt.Sprintf("air.pack.%s.v%d%s", c.family, lanes, suffix)
		t.Run(op, func(t *testing.T) {
			in := packBoundaries(normScale(bits, signed))
			if c.elem == "half" {
				// Round the inputs to half first (exactly what the kernel
				// receives), so the expected value is computed on them.
				for i, v := range in {
					in[i] = halfToFloat(floatToHalfRTNE(v))
				}
			}
			for len(in)%lanes != 0 {
				in = append(in, 0.25)
			}
			vals := make([]uint32, len(in))
			for i, v := range in {
				vals[i] = math.Float32bits(v)
			}
			param := fmt.Sprintf("<%d x %s>", lanes, c.elem)
			loaded := "%arg"
			if c.elem == "half" {
				loaded = "%fv"
			}
			word := fmt.Sprintf("  %%vi = mul i64 %%i64, %d\n  %%vp = getelementptr inbounds i32, ptr @vals, i64 %%vi\n  %s = load <%d x float>, ptr %%vp, align 4\n", lanes, loaded, lanes)
			if c.elem == "half" {
				word += fmt.Sprintf("  %%arg = fptrunc <%d x float> %%fv to %s\n", lanes, param)
			}
			res, err := RunText(context.Background(), packKernel(op, "i32", param, word, vals, len(in)/lanes), "k", oneThread)
			if err != nil {
				t.Fatal(err)
			}
			out := res.Outputs[0].Bytes
			for w := 0; w < len(in)/lanes; w++ {
				var want uint32
				for l := range lanes {
					want |= packWant(in[w*lanes+l], bits, signed) << (bits * l)
				}
				if got := binary.LittleEndian.Uint32(out[4*w:]); got != want {
					t.Fatalf("%v: got %#08x, want %#08x", in[w*lanes:w*lanes+lanes], got, want)
				}
			}
		})
	}
}

// floatToHalfRTNE and halfToFloat convert the test inputs (normal and
// special values; subnormal halves flush to the nearest by the same rule).
func floatToHalfRTNE(f float32) uint16 {
	if f != f {
		return 0x7e00
	}
	q := new(big.Float).SetFloat64(float64(f))
	if math.IsInf(float64(f), 0) || math.Abs(float64(f)) >= 65520 {
		return uint16(math.Float32bits(f)>>16)&0x8000 | 0x7c00
	}
	h := bigHalf(q)
	if f == 0 && math.Signbit(float64(f)) {
		h |= 0x8000
	}
	return h
}

func halfToFloat(h uint16) float32 {
	sign := float32(1)
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * float32(math.Ldexp(m, -24))
	case 31:
		if m != 0 {
			return float32(math.NaN())
		}
		return sign * float32(math.Inf(1))
	}
	return sign * float32(math.Ldexp(1+m/1024, e-15))
}

// TestPackSRGBApproximate: the sRGB forms are set aside by name, never
// defined.
func TestPackSRGBApproximate(t *testing.T) {
	for _, d := range []declaration{
		{Name: "air.pack.unorm4x8.srgb.v4f32", Ret: "i32", Params: []string{"<4 x float>"}},
		{Name: "air.unpack.unorm4x8.srgb.v4f16", Ret: "<4 x half>", Params: []string{"i32"}},
	} {
		_, err := defineOp(d)
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != KindApproximate || nj.Detail != d.Name {
			t.Fatalf("%s: %v, want approximate naming it", d.Name, err)
		}
	}
	for _, d := range []declaration{
		{Name: "air.pack.unorm4x8.v4f32", Ret: "i32", Params: []string{"<3 x float>"}},
		{Name: "air.unpack.unorm3x8.v3f32", Ret: "<3 x float>", Params: []string{"i32"}},
		{Name: "air.unpack.snorm4x8.v4f32", Ret: "<4 x float>", Params: []string{"i64"}},
	} {
		_, err := defineOp(d)
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != KindUnknownOp {
			t.Fatalf("%s: %v, want unknown-op", d.Name, err)
		}
	}
}

// TestBFloatHalfConvert converts every half to bfloat and every bfloat to
// half and checks both against one rounding of the exact value (bfRound for
// bfloat; math/big for half, NaN a quiet NaN of the same sign).
func TestBFloatHalfConvert(t *testing.T) {
	needTools(t)
	word := "  %t = trunc i32 %i to i16\n  %arg = bitcast i16 %t to "
	t.Run("half to bfloat", func(t *testing.T) {
		res, err := RunText(context.Background(), packKernel("air.convert.f.bf16.f.f16", "bfloat", "half", word+"half\n", nil, 65536), "k", oneThread)
		if err != nil {
			t.Fatal(err)
		}
		for h := range 65536 {
			f := halfToFloat(uint16(h))
			want := bfRound(math.Float32bits(f))
			if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
				// A half NaN widens to a float NaN with the payload shifted up.
				want = uint16(h&0x8000) | 0x7fc0 | uint16(h&0x3ff)>>3
			}
			if got := binary.LittleEndian.Uint16(res.Outputs[0].Bytes[2*h:]); got != want {
				t.Fatalf("half %#04x: got bfloat %#04x, want %#04x", h, got, want)
			}
		}
	})
	t.Run("bfloat to half", func(t *testing.T) {
		res, err := RunText(context.Background(), packKernel("air.convert.f.f16.f.bf16", "half", "bfloat", word+"bfloat\n", nil, 65536), "k", oneThread)
		if err != nil {
			t.Fatal(err)
		}
		for b := range 65536 {
			f := math.Float32frombits(uint32(b) << 16)
			got := binary.LittleEndian.Uint16(res.Outputs[0].Bytes[2*b:])
			if f != f {
				if got&0x7c00 != 0x7c00 || got&0x3ff == 0 || got&0x8000 != uint16(b)&0x8000 {
					t.Fatalf("bfloat NaN %#04x: got %#04x, want a half NaN of its sign", b, got)
				}
				continue
			}
			if want := floatToHalfRTNE(f); got != want {
				t.Fatalf("bfloat %#04x (%g): got half %#04x, want %#04x", b, f, got, want)
			}
		}
	})
}

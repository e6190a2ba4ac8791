package opcheck

import (
	"math"
	"math/big"
)

// want is the reference for one output element: the values a correct
// result is judged against (the nearest counts), or the exact bits of an
// integer result; undefined names why Metal defines no result here.
type want struct {
	cands     []float64
	bits      uint64
	undefined string
}

// floatRef is the exact value of an element-wise float operation on x
// (float64 is enough for every family here: each argument is a float32 or
// narrower, and the C library's double functions are within an ulp of
// double, 2^-29 of a float ulp). fma and mix use exact arithmetic.
func floatRef(fam string, x []float64, f format) want {
	a := x[0]
	one := func(v float64) want { return want{cands: []float64{v}} }
	switch fam {
	case "fabs":
		return one(math.Abs(a))
	case "floor":
		return one(math.Floor(a))
	case "ceil":
		return one(math.Ceil(a))
	case "trunc":
		return one(math.Trunc(a))
	case "rint":
		return one(math.RoundToEven(a))
	case "round":
		return one(math.Round(a))
	case "fract":
		if math.IsInf(a, 0) {
			return want{undefined: "fract of an infinity: no value stated"}
		}
		below := 1 - math.Ldexp(1, -f.p)
		return one(math.Min(f.round(a-math.Floor(a)), below))
	case "sqrt":
		return one(math.Sqrt(a))
	case "rsqrt":
		return one(1 / math.Sqrt(a))
	case "exp":
		return one(math.Exp(a))
	case "exp2":
		return one(math.Exp2(a))
	case "exp10":
		return one(math.Pow(10, a))
	case "log":
		return one(math.Log(a))
	case "log2":
		return one(math.Log2(a))
	case "log10":
		return one(math.Log10(a))
	case "sin":
		return one(math.Sin(a))
	case "cos":
		return one(math.Cos(a))
	case "tan":
		return one(math.Tan(a))
	case "asin":
		return one(math.Asin(a))
	case "acos":
		return one(math.Acos(a))
	case "atan":
		return one(math.Atan(a))
	case "sinh":
		return one(math.Sinh(a))
	case "cosh":
		return one(math.Cosh(a))
	case "tanh":
		return one(math.Tanh(a))
	case "sign":
		switch {
		case a > 0:
			return one(1)
		case a < 0:
			return one(-1)
		case a == 0:
			return one(a)
		}
		return one(0)
	case "saturate":
		return floatRef("clamp", []float64{a, 0, 1}, f)
	case "pow":
		return one(math.Pow(a, x[1]))
	case "powr":
		// powr is pow for x >= 0 (MSL §6.5); its special cases at 0, 1 and
		// infinity are those of C's pow only where both agree.
		if a < 0 || math.IsNaN(a) && !math.IsNaN(x[1]) {
			return want{undefined: "powr of x < 0"}
		}
		if (a == 0 && x[1] == 0) || (math.IsInf(a, 1) && x[1] == 0) || (a == 1 && math.IsInf(x[1], 0)) {
			return want{undefined: "powr at 0^0, inf^0 or 1^inf"}
		}
		return one(math.Pow(a, x[1]))
	case "fmax", "fmin":
		b := x[1]
		if a == 0 && b == 0 && math.Signbit(a) != math.Signbit(b) {
			return want{cands: []float64{0, math.Copysign(0, -1)}} // either zero (IEEE 754 maxNum)
		}
		if math.IsNaN(a) {
			return one(b)
		}
		if math.IsNaN(b) {
			return one(a)
		}
		if fam == "fmax" {
			return one(math.Max(a, b))
		}
		return one(math.Min(a, b))
	case "fmax3", "fmin3":
		two := fam[:4]
		ab := floatRef(two, x[:2], f)
		var out []float64
		for _, c := range ab.cands {
			out = append(out, floatRef(two, []float64{c, x[2]}, f).cands...)
		}
		return want{cands: out}
	case "clamp":
		if x[1] > x[2] {
			return want{undefined: "clamp with minval > maxval"}
		}
		lo := floatRef("fmax", x[:2], f)
		var out []float64
		for _, c := range lo.cands {
			out = append(out, floatRef("fmin", []float64{c, x[2]}, f).cands...)
		}
		return want{cands: out}
	case "fmod":
		return one(math.Mod(a, x[1]))
	case "atan2":
		return one(math.Atan2(a, x[1]))
	case "fma":
		return one(exactFMA(a, x[1], x[2]))
	case "mix":
		y, t := x[1], x[2]
		if !(t >= 0 && t <= 1) {
			return want{undefined: "mix with a outside [0, 1]"}
		}
		d := f.round(y - a)
		unfused := f.round(a + f.round(d*t))
		fused := f.round(exactFMA(d, t, a))
		return want{cands: []float64{unfused, fused}}
	}
	panic("opcheck: no reference for " + fam)
}

// exactFMA is a*b+c rounded once to float64 (exactly computed first).
func exactFMA(a, b, c float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(c) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(c, 0) {
		return a*b + c
	}
	p := new(big.Float).SetPrec(2048).SetFloat64(a)
	p.Mul(p, new(big.Float).SetFloat64(b))
	p.Add(p, new(big.Float).SetFloat64(c))
	v, _ := p.Float64()
	if v == 0 {
		return a*b + c // the sign of an exact zero as IEEE gives it
	}
	return v
}

// exactDot is the sum of products of x and y, exactly, rounded once.
func exactDot(x, y []float64) float64 {
	s := 0.0
	finite := true
	for i := range x {
		s += x[i] * y[i]
		finite = finite && !math.IsInf(x[i], 0) && !math.IsInf(y[i], 0) && !math.IsNaN(x[i]) && !math.IsNaN(y[i])
	}
	if !finite {
		return s
	}
	acc := new(big.Float).SetPrec(4096)
	for i := range x {
		p := new(big.Float).SetPrec(4096).SetFloat64(x[i])
		p.Mul(p, new(big.Float).SetFloat64(y[i]))
		acc.Add(acc, p)
	}
	v, _ := acc.Float64()
	return v
}

// intRef is an integer family's exact result bits.
func intRef(fam string, t Type, a []uint64) uint64 {
	m := t.mask()
	s := func(i int) int64 { return t.signed(a[i]) }
	switch fam {
	case "abs.s":
		v := s(0)
		if v < 0 {
			v = -v
		}
		return uint64(v) & m
	case "min.s":
		return uint64(min(s(0), s(1))) & m
	case "max.s":
		return uint64(max(s(0), s(1))) & m
	case "min.u":
		return min(a[0]&m, a[1]&m)
	case "max.u":
		return max(a[0]&m, a[1]&m)
	}
	panic("opcheck: no reference for " + fam)
}

// convertRef is air.convert's result for one element: float to float and
// integer to float round to nearest even; float to integer truncates
// toward zero and saturates, NaN giving 0 (ABI.md, "Metal semantics
// kept"); to bool is a non-zero test; integer to integer truncates or
// extends by the source's signedness.
func convertRef(op *Op, bits uint64) want {
	d, s := op.Ret.Elem(), op.Args[0].Elem()
	switch {
	case op.Dst == 'f' && op.Src == 'f':
		return want{cands: []float64{fmtOf(d).round(decodeFloat(s, bits))}}
	case op.Dst == 'f':
		v := float64(bits & s.mask())
		if op.Src == 's' {
			v = float64(s.signed(bits))
		}
		if s.Bits == 64 {
			return want{undefined: "64-bit integer source"}
		}
		return want{cands: []float64{fmtOf(d).round(v)}}
	case op.Src == 'f':
		x := decodeFloat(s, bits)
		if d.Bits == 1 {
			if x != 0 {
				return want{bits: 1}
			}
			return want{bits: 0}
		}
		if math.IsNaN(x) {
			return want{bits: 0}
		}
		x = math.Trunc(x)
		var lo, hi float64
		if op.Dst == 's' {
			lo, hi = -math.Ldexp(1, d.Bits-1), math.Ldexp(1, d.Bits-1)-1
		} else {
			lo, hi = 0, math.Ldexp(1, d.Bits)-1
		}
		x = math.Max(lo, math.Min(hi, x))
		if op.Dst == 's' {
			return want{bits: uint64(int64(x)) & d.mask()}
		}
		return want{bits: uint64(x) & d.mask()}
	}
	v := bits & s.mask()
	if op.Src == 's' {
		v = uint64(s.signed(bits))
	}
	if d.Bits == 1 {
		if v != 0 {
			return want{bits: 1}
		}
		return want{bits: 0}
	}
	return want{bits: v & d.mask()}
}

// normRef is the reference of a pack or unpack for one invocation: the
// four float lanes or the word's four bytes.
func normRef(op *Op, in []uint64) []want {
	srgb := op.Family == "pack.unorm4x8.srgb" || op.Family == "unpack.unorm4x8.srgb"
	snorm := op.Family == "pack.snorm4x8" || op.Family == "unpack.snorm4x8"
	if op.Family[0] == 'p' {
		var word uint64
		for l := range 4 {
			x := decodeFloat(op.Args[0].Elem(), in[l])
			var c float64
			switch {
			case math.IsNaN(x):
				c = 0
			case snorm:
				c = math.RoundToEven(math.Max(-1, math.Min(1, x)) * 127)
			case srgb && l < 3:
				c = math.RoundToEven(srgbEncode(math.Max(0, math.Min(1, x))) * 255)
			default:
				c = math.RoundToEven(math.Max(0, math.Min(1, x)) * 255)
			}
			word |= (uint64(int64(c)) & 0xff) << (8 * l)
		}
		return []want{{bits: word}}
	}
	w := in[0]
	out := make([]want, 4)
	f := fmtOf(op.Ret.Elem())
	for l := range 4 {
		c := (w >> (8 * l)) & 0xff
		var v float64
		switch {
		case snorm:
			v = math.Max(-1, float64(int8(uint8(c)))/127)
		case srgb && l < 3:
			v = srgbDecode(float64(c) / 255)
		default:
			v = float64(c) / 255
		}
		out[l] = want{cands: []float64{f.round(v)}}
	}
	return out
}

// srgbEncode is the linear-to-sRGB transfer function of x in [0, 1].
func srgbEncode(x float64) float64 {
	if x <= 0.0031308 {
		return x * 12.92
	}
	return 1.055*math.Pow(x, 1/2.4) - 0.055
}

// srgbDecode is the sRGB-to-linear transfer function of c in [0, 1].
func srgbDecode(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

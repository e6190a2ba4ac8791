package opcheck

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/mathbound"
)

// Type is a scalar or vector AIR value type: kind 'f' (IEEE binary float),
// 'b' (bfloat) or 'i' (integer), the element's bits and the lanes (1 for a
// scalar).
type Type struct {
	Kind  byte
	Bits  int
	Lanes int
}

// Elem is t's element type.
func (t Type) Elem() Type { return Type{t.Kind, t.Bits, 1} }

// IsFloat reports whether t's elements are floating point.
func (t Type) IsFloat() bool { return t.Kind == 'f' || t.Kind == 'b' }

// Suffix is the type as AIR names spell it ("f32", "v3f16", "i1", "bf16").
func (t Type) Suffix() string {
	s := ""
	if t.Lanes > 1 {
		s = "v" + strconv.Itoa(t.Lanes)
	}
	switch t.Kind {
	case 'b':
		return s + "bf16"
	case 'f':
		return s + "f" + strconv.Itoa(t.Bits)
	}
	return s + "i" + strconv.Itoa(t.Bits)
}

// LLVM is the type as LLVM text spells it.
func (t Type) LLVM() string {
	e := ""
	switch {
	case t.Kind == 'b':
		e = "bfloat"
	case t.Kind == 'f' && t.Bits == 16:
		e = "half"
	case t.Kind == 'f' && t.Bits == 32:
		e = "float"
	case t.Kind == 'f' && t.Bits == 64:
		e = "double"
	default:
		e = "i" + strconv.Itoa(t.Bits)
	}
	if t.Lanes > 1 {
		return fmt.Sprintf("<%d x %s>", t.Lanes, e)
	}
	return e
}

// parseType reads an AIR type suffix ("f32", "v4f16", "i1", "v2bf16").
func parseType(s string) (Type, bool) {
	lanes := 1
	if strings.HasPrefix(s, "v") {
		i := 1
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		n, err := strconv.Atoi(s[1:i])
		if err != nil || n < 2 || n > 16 {
			return Type{}, false
		}
		lanes, s = n, s[i:]
	}
	if s == "bf16" {
		return Type{'b', 16, lanes}, true
	}
	if len(s) < 2 || (s[0] != 'f' && s[0] != 'i') {
		return Type{}, false
	}
	bits, err := strconv.Atoi(s[1:])
	if err != nil {
		return Type{}, false
	}
	if s[0] == 'f' && bits != 16 && bits != 32 {
		return Type{}, false
	}
	if s[0] == 'i' && bits != 1 && bits != 8 && bits != 16 && bits != 32 && bits != 64 {
		return Type{}, false
	}
	return Type{s[0], bits, lanes}, true
}

// format is an IEEE-style binary float format: p significand bits (with
// the implicit one), emin the least normal exponent, emax the greatest.
type format struct{ p, emin, emax int }

var (
	binary32 = format{24, -126, 127}
	binary16 = format{11, -14, 15}
	bfloat16 = format{8, -126, 127}
)

// fmtOf is the float format of a float element type.
func fmtOf(t Type) format {
	switch {
	case t.Kind == 'b':
		return bfloat16
	case t.Bits == 16:
		return binary16
	}
	return binary32
}

// maxFinite is f's largest finite value.
func (f format) maxFinite() float64 {
	return math.Ldexp(2-math.Ldexp(1, 1-f.p), f.emax)
}

// minNormal is f's least positive normal value.
func (f format) minNormal() float64 { return math.Ldexp(1, f.emin) }

// round rounds x to f, to nearest with ties to even, with gradual
// underflow and overflow to infinity.
func (f format) round(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	e := max(math.Ilogb(x), f.emin)
	q := math.Ldexp(1, e-(f.p-1))
	r := math.RoundToEven(x/q) * q
	if math.Abs(r) > f.maxFinite() {
		return math.Copysign(math.Inf(1), x)
	}
	if r == 0 {
		return math.Copysign(0, x)
	}
	return r
}

// ulp is the spacing of f's values in the binade of x (at least that of
// the denormals).
func (f format) ulp(x float64) float64 {
	if x == 0 {
		return math.Ldexp(1, f.emin-(f.p-1))
	}
	return math.Ldexp(1, max(math.Ilogb(x), f.emin)-(f.p-1))
}

// isDenormal reports whether x is a non-zero value below f's normals.
func (f format) isDenormal(x float64) bool { return x != 0 && math.Abs(x) < f.minNormal() }

// decodeFloat is the exact value of a float element's bits.
func decodeFloat(t Type, bits uint64) float64 {
	switch {
	case t.Kind == 'b':
		return float64(math.Float32frombits(uint32(bits&0xffff) << 16))
	case t.Bits == 32:
		return float64(math.Float32frombits(uint32(bits)))
	}
	return mathbound.HalfValue(uint16(bits))
}

// encodeFloat is the bits of x, which must already be a value of t's
// format (round it first); a NaN becomes the quiet NaN.
func encodeFloat(t Type, x float64) uint64 {
	switch {
	case t.Kind == 'b':
		if math.IsNaN(x) {
			return 0x7fc0
		}
		return uint64(math.Float32bits(float32(x)) >> 16)
	case t.Bits == 32:
		return uint64(math.Float32bits(float32(x)))
	}
	var s uint64
	if math.Signbit(x) {
		s = 0x8000
	}
	a := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return 0x7e00
	case math.IsInf(x, 0):
		return s | 0x7c00
	case a < math.Ldexp(1, -14):
		return s | uint64(a*math.Ldexp(1, 24))
	}
	e := math.Ilogb(a)
	m := uint64(math.Ldexp(a, 10-e)) - 1024
	return s | uint64(e+15)<<10 | m
}

// mask is the low bits of an element of t.
func (t Type) mask() uint64 {
	if t.Bits == 64 {
		return ^uint64(0)
	}
	return 1<<t.Bits - 1
}

// signed is the two's-complement value of an integer element's bits.
func (t Type) signed(bits uint64) int64 {
	sh := 64 - t.Bits
	return int64(bits<<sh) >> sh
}

package mathbound

import "math"

// Format is a binary floating-point format: P significand bits (with the
// implicit one), Emin the least normal exponent, Emax the greatest.
type Format struct{ P, Emin, Emax int }

// The formats of Metal's float types.
var (
	Binary32 = Format{24, -126, 127}
	Binary16 = Format{11, -14, 15}
	BFloat16 = Format{8, -126, 127}
)

// HalfValue is the exact value of the IEEE binary16 whose bits are h (a
// NaN for every NaN).
func HalfValue(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * math.Ldexp(m, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1024+m, e-25)
}

// MaxFinite is f's largest finite value.
func (f Format) MaxFinite() float64 { return math.Ldexp(2-math.Ldexp(1, 1-f.P), f.Emax) }

// MinNormal is f's least positive normal value.
func (f Format) MinNormal() float64 { return math.Ldexp(1, f.Emin) }

// IsDenormal reports whether x is a non-zero value below f's normals.
func (f Format) IsDenormal(x float64) bool { return x != 0 && math.Abs(x) < f.MinNormal() }

// quantum is the spacing of f's values around x (x finite, non-zero).
func (f Format) quantum(x float64) float64 {
	return math.Ldexp(1, max(math.Ilogb(x), f.Emin)-(f.P-1))
}

// ULP is the spacing of f's values in the binade of x (at least that of the
// denormals).
func (f Format) ULP(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		if math.IsInf(x, 0) {
			return math.Ldexp(1, f.Emax-(f.P-1))
		}
		return math.Ldexp(1, f.Emin-(f.P-1))
	}
	return f.quantum(x)
}

func (f Format) snap(x float64, to func(float64) float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	q := f.quantum(x)
	r := to(x/q) * q
	if math.Abs(r) > f.MaxFinite() {
		return math.Copysign(math.Inf(1), x)
	}
	if r == 0 {
		return math.Copysign(0, x)
	}
	return r
}

// Round rounds x to f, to nearest with ties to even, with gradual underflow
// and overflow to infinity.
func (f Format) Round(x float64) float64 { return f.snap(x, math.RoundToEven) }

// Down is the greatest value of f not above x (-Inf below -MaxFinite).
func (f Format) Down(x float64) float64 {
	r := f.snap(x, math.Floor)
	if math.IsInf(r, 1) {
		return f.MaxFinite()
	}
	return r
}

// Up is the least value of f not below x (+Inf above MaxFinite).
func (f Format) Up(x float64) float64 {
	r := f.snap(x, math.Ceil)
	if math.IsInf(r, -1) {
		return -f.MaxFinite()
	}
	return r
}

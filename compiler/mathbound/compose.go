package mathbound

import "math"

// iv is a closed interval of format values.
type iv struct{ lo, hi float64 }

func point(v float64) iv { return iv{v, v} }

func (a iv) finite() bool {
	return !math.IsInf(a.lo, 0) && !math.IsInf(a.hi, 0) && !math.IsNaN(a.lo) && !math.IsNaN(a.hi)
}

// flushable widens a to zero where it reaches the denormals (§8.5: a
// denormal result may be flushed to zero).
func (a iv) flushable(f Format) iv {
	if f.IsDenormal(a.lo) || f.IsDenormal(a.hi) || a.lo < 0 && a.hi > 0 {
		a.lo, a.hi = math.Min(a.lo, 0), math.Max(a.hi, 0)
	}
	return a
}

// cr is a correctly rounded step whose exact result lies in [lo, hi]:
// either neighbour of each (ties to even or toward zero, §8.2).
func cr(f Format, lo, hi float64) iv { return iv{f.Down(lo), f.Up(hi)}.flushable(f) }

// within is a step within n ulps of an exact result in [lo, hi].
func within(f Format, lo, hi, n float64) iv {
	return iv{f.Up(lo - n*f.ULP(lo)), f.Down(hi + n*f.ULP(hi))}.flushable(f)
}

// withinAbs is a step within an absolute error e of an exact result in
// [lo, hi].
func withinAbs(f Format, lo, hi, e float64) iv { return iv{f.Up(lo - e), f.Down(hi + e)}.flushable(f) }

func corners(a, b iv, op func(x, y float64) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range []float64{a.lo, a.hi} {
		for _, y := range []float64{b.lo, b.hi} {
			v := op(x, y)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return lo, hi
}

func mul(f Format, a, b iv) iv {
	lo, hi := corners(a, b, func(x, y float64) float64 { return x * y })
	return cr(f, lo, hi)
}
func add(f Format, a, b iv) iv { return cr(f, a.lo+b.lo, a.hi+b.hi) }
func sub(f Format, a, b iv) iv { return cr(f, a.lo-b.hi, a.hi-b.lo) }

// div is Table 8.2's x / y: <= 2.5 ulp for y in the domain of 2^-126 to
// 2^126 (in magnitude), no bound otherwise.
func div(f Format, a, b iv) (iv, string) {
	for _, y := range []float64{b.lo, b.hi} {
		if m := math.Abs(y); m < 0x1p-126 || m > 0x1p126 {
			return iv{}, "a divisor outside 2^-126 to 2^126 (Table 8.2, x / y)"
		}
	}
	if b.lo < 0 && b.hi > 0 {
		return iv{}, "a divisor that may be either sign"
	}
	lo, hi := corners(a, b, func(x, y float64) float64 { return x / y })
	return within(f, lo, hi, 2.5), ""
}

// constant is a composition's constant: its exact value or its rounding.
func constant(f Format, c float64) iv {
	r := f.Round(c)
	return iv{math.Min(c, r), math.Max(c, r)}
}

// log2Step is Table 8.2's log2(x) at one argument.
func log2Step(f Format, x float64) (iv, string) {
	if !(x > 0) {
		return iv{}, undef + "log2 of x <= 0 (Table 8.2, log2(x))"
	}
	l := math.Log2(x)
	if x >= 0.5 && x <= 2 {
		return withinAbs(f, l, l, 0x1p-22), ""
	}
	return within(f, l, l, 2), ""
}

// exp2Step is Table 8.2's exp2 over arguments in p.
func exp2Step(f Format, p iv) (iv, string) {
	if !p.finite() {
		return iv{}, undef + "an infinite intermediate (fast math, §8.1)"
	}
	n := expULP(math.Max(math.Abs(p.lo), math.Abs(p.hi)))
	return within(f, math.Exp2(p.lo), math.Exp2(p.hi), n), ""
}

// expStep is Table 8.2's exp at one argument.
func expStep(f Format, x float64) iv {
	e := math.Exp(x)
	return within(f, e, e, expULP(x))
}

// trigStep is Table 8.2's sin or cos at one argument.
func trigStep(f Format, fn func(float64) float64, x float64) (iv, string) {
	if !(x >= -math.Pi && x <= math.Pi) {
		return iv{}, "sin or cos of x outside [-pi, pi] (Table 8.2: larger otherwise)"
	}
	v := fn(x)
	return withinAbs(f, v, v, 0x1p-13), ""
}

// undef begins the reason of a composition that Metal leaves undefined at
// these arguments (any other reason means only that no bound is stated).
const undef = "undefined: "

type composition struct {
	row, text string
	fn        func(x []float64, f Format) (lo, hi float64, why string)
}

func result(a iv, why string) (float64, float64, string) { return a.lo, a.hi, why }

func pow(x []float64, f Format) (float64, float64, string) {
	if x[0] == 0 && x[1] == 0 {
		return result(iv{}, undef+"pow at x = 0 and y = 0")
	}
	l, why := log2Step(f, x[0])
	if why != "" {
		return result(l, why)
	}
	return result(exp2Step(f, mul(f, point(x[1]), l)))
}

// compositions are Table 8.2's "Implemented as" rows this package
// evaluates; acosh, asinh, atanh and tanpi are composed of rows whose
// intervals it does not evaluate, and stay unbounded here.
var compositions = map[string]composition{
	"pow":  {"pow(x,y)", "implemented as exp2(y*log2(x)); undefined for x = 0 and y = 0", pow},
	"powr": {"powr(x,y)", "implemented as exp2(y*log2(x)); undefined for x = 0 and y = 0", pow},
	"sqrt": {"sqrt(x)", "implemented as x*rsqrt(x), special cases handled correctly", func(x []float64, f Format) (float64, float64, string) {
		switch {
		case x[0] == 0 || math.IsInf(x[0], 1):
			return x[0], x[0], ""
		case !(x[0] > 0):
			return result(iv{}, undef+"sqrt of x < 0 is NaN (fast math, §8.1)")
		}
		r := 1 / math.Sqrt(x[0])
		return result(mul(f, point(x[0]), within(f, r, r, 2)), "")
	}},
	"exp10": {"exp10(x)", "implemented as exp2(x*log2(10))", func(x []float64, f Format) (float64, float64, string) {
		return result(exp2Step(f, mul(f, point(x[0]), constant(f, math.Log2(10)))))
	}},
	"log10": {"log10(x)", "implemented as log2(x)*log10(2)", func(x []float64, f Format) (float64, float64, string) {
		l, why := log2Step(f, x[0])
		if why != "" {
			return result(l, why)
		}
		return result(mul(f, l, constant(f, math.Log10(2))), "")
	}},
	"tan": {"tan(x)", "implemented as sin(x)*(1.0/cos(x))", func(x []float64, f Format) (float64, float64, string) {
		s, why := trigStep(f, math.Sin, x[0])
		if why != "" {
			return result(s, why)
		}
		c, _ := trigStep(f, math.Cos, x[0])
		for _, v := range []float64{c.lo, c.hi} {
			if m := math.Abs(v); m < 0x1p-126 || m > 0x1p126 || c.lo < 0 && c.hi > 0 {
				return result(iv{}, "1.0/cos(x) outside 2^-126 to 2^126 (Table 8.2, 1.0 / x)")
			}
		}
		q := within(f, 1/c.hi, 1/c.lo, 1) // 1/c decreases on either side of 0
		return result(mul(f, s, q), "")
	}},
	"sinh": {"sinh(x)", "implemented as 0.5*(exp(x) - exp(-x))", func(x []float64, f Format) (float64, float64, string) {
		d := sub(f, expStep(f, x[0]), expStep(f, -x[0]))
		if !d.finite() {
			return result(iv{}, undef+"an infinite intermediate (fast math, §8.1)")
		}
		return result(mul(f, point(0.5), d), "")
	}},
	"cosh": {"cosh(x)", "implemented as 0.5*(exp(x) + exp(-x))", func(x []float64, f Format) (float64, float64, string) {
		s := add(f, expStep(f, x[0]), expStep(f, -x[0]))
		if !s.finite() {
			return result(iv{}, undef+"an infinite intermediate (fast math, §8.1)")
		}
		return result(mul(f, point(0.5), s), "")
	}},
	"tanh": {"tanh(x)", "implemented as (t - 1.0)/(t + 1.0), t = exp(2.0*x)", func(x []float64, f Format) (float64, float64, string) {
		t := expStep(f, 2*x[0])
		if !t.finite() {
			return result(iv{}, undef+"an infinite intermediate (fast math, §8.1)")
		}
		return result(div(f, sub(f, t, point(1)), add(f, t, point(1))))
	}},
	"atan2": {"atan2(y,x)", "implemented as atan(y/x), +M_PI_F if x < 0 and y > 0, -M_PI_F if x < 0 and y < 0; undefined if x = 0 or y = 0",
		func(a []float64, f Format) (float64, float64, string) {
			y, x := a[0], a[1]
			if x == 0 || y == 0 {
				return result(iv{}, undef+"atan2 with x = 0 or y = 0")
			}
			q, why := div(f, point(y), point(x))
			if why != "" {
				return result(q, why)
			}
			at := within(f, math.Atan(q.lo), math.Atan(q.hi), 5)
			switch {
			case x > 0:
				return result(at, "")
			case y > 0:
				return result(add(f, at, constant(f, math.Pi)), "")
			}
			return result(sub(f, at, constant(f, math.Pi)), "")
		}},
	"acosh": {"acosh(x)", "implemented as log(x + sqrt(x*x - 1.0)) (not evaluated here)", nil},
	"asinh": {"asinh(x)", "implemented as log(x + sqrt(x*x + 1.0)) (not evaluated here)", nil},
	"atanh": {"atanh(x)", "implemented as 0.5*(log(1.0 + x)/(1.0 - x)) (not evaluated here)", nil},
	"tanpi": {"tanpi(x)", "implemented as tan(x*pi) (not evaluated here)", nil},
}

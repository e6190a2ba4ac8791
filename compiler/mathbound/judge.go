package mathbound

import (
	"fmt"
	"math"
	"strings"
)

// ExactValue is the exact value of family at x, in float64 (every argument here
// is a float32 or narrower, and the C library's double functions are within
// an ulp of double, 2^-29 of a float ulp); false for a family it does not
// compute.
func ExactValue(family string, x []float64) (float64, bool) {
	a := x[0]
	switch family {
	case "sqrt":
		return math.Sqrt(a), true
	case "rsqrt":
		return 1 / math.Sqrt(a), true
	case "exp":
		return math.Exp(a), true
	case "exp2":
		return math.Exp2(a), true
	case "exp10":
		return math.Pow(10, a), true
	case "log":
		return math.Log(a), true
	case "log2":
		return math.Log2(a), true
	case "log10":
		return math.Log10(a), true
	case "sin":
		return math.Sin(a), true
	case "cos":
		return math.Cos(a), true
	case "tan":
		return math.Tan(a), true
	case "asin":
		return math.Asin(a), true
	case "acos":
		return math.Acos(a), true
	case "atan":
		return math.Atan(a), true
	case "sinh":
		return math.Sinh(a), true
	case "cosh":
		return math.Cosh(a), true
	case "tanh":
		return math.Tanh(a), true
	case "asinh":
		return math.Asinh(a), true
	case "acosh":
		return math.Acosh(a), true
	case "atanh":
		return math.Atanh(a), true
	case "sinpi":
		return math.Sin(math.Pi * a), true
	case "cospi":
		return math.Cos(math.Pi * a), true
	case "pow":
		return math.Pow(a, x[1]), true
	case "powr":
		if a < 0 {
			return math.NaN(), true
		}
		return math.Pow(a, x[1]), true
	case "atan2":
		return math.Atan2(a, x[1]), true
	case "fmod":
		return math.Mod(a, x[1]), true
	case "fdiv":
		return a / x[1], true
	}
	return 0, false
}

// Verdict is one result judged against its row.
type Verdict struct {
	// Bound is the row at these arguments (Bound.At).
	Bound Bound
	// Exact is the exact value; ULP the distance of the result from it in
	// ulps of it (Inf for a wrong NaN, infinity or zero sign where judged).
	Exact, ULP float64
	// Lo and Hi are a composition's admitted results.
	Lo, Hi float64
	// Within: the result is within the bound. Flushed: only because a
	// denormal argument or result was taken as flushed to zero (§8.5).
	Within, Flushed bool
	// Undefined names why Metal defines no result here; Unbounded why the
	// table states no bound here. Either way the result is not judged.
	Undefined, Unbounded string
}

// Judged reports whether v judged the result (it was neither undefined nor
// unbounded).
func (v Verdict) Judged() bool { return v.Undefined == "" && v.Unbounded == "" }

// Judge judges got, a result of family at x in table t.
func Judge(family string, t Table, x []float64, got float64) Verdict {
	return JudgeWith(Of(family, t), family, t, x, got)
}

// JudgeWith is Judge under bound b in place of family's row (a planted wrong
// bound, in tests).
func JudgeWith(b Bound, family string, t Table, x []float64, got float64) Verdict {
	f := t.Format()
	v := judge(b, family, t, x, got)
	if !v.Judged() || v.Within {
		return v
	}
	// §8.5: a denormal argument may have been flushed to zero (either sign).
	for k := range x {
		if !f.IsDenormal(x[k]) {
			continue
		}
		for _, z := range []float64{0, math.Copysign(0, -1)} {
			y := append([]float64(nil), x...)
			y[k] = z
			alt := judge(b, family, t, y, got)
			if alt.Undefined != "" {
				// Flushed, the argument leaves the result undefined (fast
				// log of 0 is -inf): any result conforms.
				v.Undefined = "a denormal argument flushed to zero (§8.5) gives " + alt.Undefined
				return v
			}
			if alt.Judged() && alt.Within {
				alt.Flushed, alt.Exact, alt.ULP = true, v.Exact, v.ULP
				return alt
			}
		}
	}
	return v
}

func judge(b Bound, family string, t Table, x []float64, got float64) Verdict {
	f := t.Format()
	v := Verdict{Bound: b}
	exact, ok := ExactValue(family, x)
	if !ok {
		v.Unbounded = "no exact reference for " + family
		return v
	}
	v.Exact = exact
	if t.Fast() {
		for _, a := range x {
			if math.IsNaN(a) || math.IsInf(a, 0) {
				v.Undefined = "fast math: a NaN or infinite argument (§8.1)"
				return v
			}
		}
		if math.IsNaN(exact) || math.IsInf(f.Round(exact), 0) {
			v.Undefined = "fast math: a NaN or infinite result (§8.1)"
			return v
		}
	}
	rb := b.At(x)
	v.Bound = rb
	switch rb.Kind {
	case Undefined:
		v.Undefined = fmt.Sprintf("%s: %s", rb.Source, rb.Text)
		return v
	case None:
		v.Unbounded = fmt.Sprintf("%s: no bound at these arguments (%s)", rb.Source, rb.Text)
		return v
	}
	if rb.Kind == Composed {
		lo, hi, why := rb.Interval(x, f)
		if r, ok := strings.CutPrefix(why, undef); ok {
			v.Undefined = fmt.Sprintf("%s: %s", rb.Source, r)
			return v
		}
		if why != "" {
			v.Unbounded = fmt.Sprintf("%s: %s", rb.Source, why)
			return v
		}
		v.Lo, v.Hi = lo, hi
	}
	v.ULP = distance(f, exact, got)
	switch {
	case math.IsNaN(exact) || math.IsInf(f.Round(exact), 0) || math.IsNaN(got) || math.IsInf(got, 0):
		v.Within = v.ULP == 0 || rb.Kind == Composed && got >= v.Lo && got <= v.Hi
		return v
	case f.IsDenormal(f.Round(exact)) && got == 0:
		v.Within, v.Flushed = true, true
		return v
	}
	switch rb.Kind {
	case Exact:
		v.Within = got == f.Round(exact) && (t.Fast() || math.Signbit(got) == math.Signbit(f.Round(exact)))
	case ULP:
		v.Within = v.ULP <= rb.ULP+slack
		if rb.ULP <= 0.5 && !t.Fast() && got == 0 && exact == 0 && math.Signbit(got) != math.Signbit(exact) {
			v.Within = false
		}
	case Abs:
		v.Within = math.Abs(got-exact) <= rb.Abs
	case Composed:
		v.Within = got >= v.Lo && got <= v.Hi
	}
	return v
}

// slack absorbs the reference's own float64 rounding (at most 2^-29 of a
// float ulp) so that a correctly rounded result next to a tie passes.
const slack = 1e-6

// distance is how far got is from the exact x in ulps of x (Inf for a NaN
// or infinity that is not x).
func distance(f Format, x, got float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(got):
		if math.IsNaN(x) && math.IsNaN(got) {
			return 0
		}
		return math.Inf(1)
	case math.IsInf(x, 0) || math.IsInf(got, 0):
		if f.Round(x) == got {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(got-x) / f.ULP(x)
}

// Error is a result beyond its bound: the operation, its arguments, the
// result, the exact value and the distance, as a mismatch names them.
type Error struct {
	Op      string
	Args    []float64
	Got     float64
	Verdict Verdict
}

func (e *Error) Error() string {
	v := e.Verdict
	s := fmt.Sprintf("%s%v = %.9g (%#x), exact %.9g: %.4g ulp", e.Op, e.Args, e.Got, math.Float32bits(float32(e.Got)), v.Exact, v.ULP)
	if v.Bound.Kind == Composed {
		s += fmt.Sprintf(", outside [%.9g, %.9g] which %s admits (%s)", v.Lo, v.Hi, v.Bound.Source, v.Bound.Text)
	} else {
		s += fmt.Sprintf(", beyond %s (%s)", v.Bound.Source, v.Bound.Text)
	}
	return s
}

package mathbound

import (
	"fmt"
	"math"
)

// Table is one of the specification's accuracy tables.
type Table int

// The tables (MSL §8.4).
const (
	// Single is Table 8.1: single precision, fast math off.
	Single Table = iota
	// SingleFast is Table 8.2: single precision, fast math on.
	SingleFast
	// Half is Table 8.3: half precision (fast math changes nothing).
	Half
	// BFloat is Tables 8.4 and 8.5: bfloat, which list no math function.
	BFloat
)

// TableFor is the table of a function on a float of bits bits (brain: bfloat)
// in its fast (fast_) or precise variant.
func TableFor(bits int, brain, fast bool) Table {
	switch {
	case brain:
		return BFloat
	case bits == 16:
		return Half
	case fast:
		return SingleFast
	}
	return Single
}

// Fast reports whether t is a fast-math table, under which NaN and infinity
// handling is undefined (§8.1).
func (t Table) Fast() bool { return t == SingleFast }

// Format is t's float format.
func (t Table) Format() Format {
	switch t {
	case Half:
		return Binary16
	case BFloat:
		return BFloat16
	}
	return Binary32
}

func (t Table) String() string {
	return [...]string{"Table 8.1", "Table 8.2", "Table 8.3", "Tables 8.4/8.5"}[t]
}

// Kind says how a bound judges a result.
type Kind int

// The kinds of bound.
const (
	// Exact: the result is the defined value ("0 ulp").
	Exact Kind = iota
	// ULP: within ULP units in the last place of the exact value (0.5 is
	// "correctly rounded").
	ULP
	// Abs: within an absolute error Abs of the exact value.
	Abs
	// Composed: "Implemented as" a composition of other rows; judged by
	// Interval.
	Composed
	// Undefined: the table says the result is undefined here.
	Undefined
	// None: the table states no bound here (no row, or a row's "larger
	// otherwise").
	None
)

// Bound is one row of a table, or what it says at particular arguments.
type Bound struct {
	Kind Kind
	// ULP is the bound of Kind ULP, Abs that of Kind Abs.
	ULP, Abs float64
	// Text is the row as the table states it; Source the table and row.
	Text, Source string

	at      func(x []float64) Bound
	compose func(x []float64, f Format) (lo, hi float64, why string)
}

// At is what b states at arguments x: a row with a domain, pieces or a
// formula of its argument resolves to Exact, ULP, Abs, Composed, Undefined
// or None; any other row is itself.
func (b Bound) At(x []float64) Bound {
	if b.at == nil {
		return b
	}
	r := b.at(x)
	r.Text, r.Source = b.Text, b.Source
	return r
}

// Interval is the set of results a Composed row admits at x, in format f:
// [lo, hi], or why none is stated (an intermediate outside a step's domain,
// an infinite or NaN intermediate under fast math).
func (b Bound) Interval(x []float64, f Format) (lo, hi float64, why string) {
	switch {
	case b.Kind != Composed:
		return 0, 0, "not a composition"
	case b.compose == nil:
		return 0, 0, "a composition this package does not evaluate (" + b.Text + ")"
	}
	return b.compose(x, f)
}

func src(t Table, row string) string { return "MSL 4.1 §8.4 " + t.String() + ", row " + row }

func exactRow(t Table, row string) Bound {
	return Bound{Kind: Exact, Text: "0 ulp", Source: src(t, row)}
}
func crRow(t Table, row string) Bound {
	return Bound{Kind: ULP, ULP: 0.5, Text: "correctly rounded", Source: src(t, row)}
}
func ulpRow(t Table, row string, n float64) Bound {
	return Bound{Kind: ULP, ULP: n, Text: fmt.Sprintf("<= %g ulp", n), Source: src(t, row)}
}

var single = map[string]Bound{}
var singleFast = map[string]Bound{}
var half = map[string]Bound{}

func init() {
	t := Single
	for _, r := range []string{"ceil", "fdim", "floor", "fma", "fract", "ldexp", "rint", "round", "rsqrt", "sqrt", "trunc"} {
		single[r] = crRow(t, r)
	}
	for _, r := range []string{"copysign", "fabs", "fmax", "fmin", "fmod", "frexp", "ilogb", "modf", "nextafter"} {
		single[r] = exactRow(t, r)
	}
	// "fdiv" is the division operator's row, x / y (LLVM's fdiv).
	single["fdiv"] = crRow(t, "x / y")
	for r, n := range map[string]float64{"acos": 4, "acosh": 4, "asin": 4, "asinh": 4, "atan": 5, "atan2": 6, "atanh": 5,
		"cos": 4, "cosh": 4, "cospi": 4, "exp": 4, "exp2": 4, "exp10": 4, "log": 4, "log2": 4, "log10": 4,
		"pow": 16, "powr": 16, "sin": 4, "sincos": 4, "sinh": 4, "sinpi": 4, "tan": 6, "tanpi": 6, "tanh": 5} {
		single[r] = ulpRow(t, r, n)
	}

	t = SingleFast
	for _, r := range []string{"ceil", "fdim", "floor", "fma", "fract", "ldexp", "rint", "round", "trunc"} {
		singleFast[r] = crRow(t, r)
	}
	for _, r := range []string{"copysign", "fabs", "fmax", "fmin", "frexp", "ilogb", "modf"} {
		singleFast[r] = exactRow(t, r)
	}
	singleFast["atan"] = ulpRow(t, "atan(x)", 5)
	singleFast["rsqrt"] = ulpRow(t, "rsqrt", 2)
	singleFast["fdiv"] = Bound{Kind: ULP, ULP: 2.5, Text: "<= 2.5 ulp for y in the domain of 2^-126 to 2^126", Source: src(t, "x / y"),
		at: func(x []float64) Bound {
			if m := math.Abs(x[1]); m >= 0x1p-126 && m <= 0x1p126 {
				return Bound{Kind: ULP, ULP: 2.5}
			}
			return Bound{Kind: None}
		}}
	singleFast["fmod"] = Bound{Kind: Undefined, Text: "Undefined", Source: src(t, "fmod")}
	in := func(lo, hi float64, inside Bound) func([]float64) Bound {
		return func(x []float64) Bound {
			if x[0] >= lo && x[0] <= hi {
				return inside
			}
			return Bound{Kind: None}
		}
	}
	singleFast["acos"] = Bound{Kind: ULP, ULP: 5, Text: "<= 5 ulp for x in [-1, 1]", Source: src(t, "acos(x)"),
		at: in(-1, 1, Bound{Kind: ULP, ULP: 5})}
	singleFast["asin"] = Bound{Kind: ULP, ULP: 5, Text: "<= 5 ulp for x in [-1, 1] and |x| >= 2^-125", Source: src(t, "asin(x)"),
		at: func(x []float64) Bound {
			if math.Abs(x[0]) >= 0x1p-125 && math.Abs(x[0]) <= 1 {
				return Bound{Kind: ULP, ULP: 5}
			}
			return Bound{Kind: None}
		}}
	trig := func(row string) Bound {
		return Bound{Kind: Abs, Abs: 0x1p-13, Text: "abs err <= 2^-13 for x in [-pi, pi], larger otherwise", Source: src(t, row),
			at: in(-math.Pi, math.Pi, Bound{Kind: Abs, Abs: 0x1p-13})}
	}
	singleFast["sin"], singleFast["cos"] = trig("sin(x)"), trig("cos(x)")
	singleFast["sincos"] = trig("sincos(x): as sin(x) and cos(x)")
	trigpi := func(row string) Bound {
		return Bound{Kind: Abs, Abs: 0x1p-13, Text: "abs err <= 2^-13 for x in [-1, 1], larger otherwise", Source: src(t, row),
			at: in(-1, 1, Bound{Kind: Abs, Abs: 0x1p-13})}
	}
	singleFast["sinpi"], singleFast["cospi"] = trigpi("sinpi(x)"), trigpi("cospi(x)")
	expRow := func(row string) Bound {
		return Bound{Kind: ULP, Text: "<= 3 + floor(fabs(2*x)) ulp", Source: src(t, row),
			at: func(x []float64) Bound { return Bound{Kind: ULP, ULP: expULP(x[0])} }}
	}
	singleFast["exp"], singleFast["exp2"] = expRow("exp(x)"), expRow("exp2(x)")
	logRow := func(row string, abs, n float64, text string) Bound {
		return Bound{Kind: ULP, ULP: n, Text: text, Source: src(t, row), at: func(x []float64) Bound {
			switch {
			case x[0] >= 0.5 && x[0] <= 2:
				return Bound{Kind: Abs, Abs: abs}
			case x[0] > 0:
				return Bound{Kind: ULP, ULP: n}
			}
			return Bound{Kind: Undefined}
		}}
	}
	singleFast["log"] = logRow("log(x)", 0x1p-21, 3, "abs err <= 2^-21 for x in [0.5, 2]; else <= 3 ulp for x > 0; else undefined")
	singleFast["log2"] = logRow("log2(x)", 0x1p-22, 2, "abs err <= 2^-22 for x in [0.5, 2]; else <= 2 ulp for x > 0; else undefined")
	for fam, c := range compositions {
		singleFast[fam] = Bound{Kind: Composed, Text: c.text, Source: src(t, c.row), compose: c.fn}
	}

	t = Half
	for _, r := range []string{"ceil", "fdim", "floor", "fma", "fract", "ldexp", "rint", "round", "rsqrt", "sqrt", "trunc"} {
		half[r] = crRow(t, r)
	}
	for _, r := range []string{"copysign", "fabs", "fmax", "fmin", "fmod", "frexp", "ilogb", "modf", "nextafter"} {
		half[r] = exactRow(t, r)
	}
	for _, r := range []string{"acos", "acosh", "asin", "asinh", "atan", "atanh", "atan2", "cos", "cosh", "cospi", "exp", "exp2", "exp10",
		"log", "log2", "log10", "sin", "sinh", "sinpi", "tan", "tanh", "tanpi"} {
		half[r] = ulpRow(t, r, 1)
	}
	half["fdiv"] = crRow(t, "x / y")
	half["sincos"] = ulpRow(t, "sincos: as sin(x) and cos(x)", 1)
}

// expULP is fast exp's and exp2's 3 + floor(fabs(2*x)).
func expULP(x float64) float64 { return 3 + math.Floor(math.Abs(2*x)) }

// rows is table t's rows by family (nil for a table that has none).
func rows(t Table) map[string]Bound {
	switch t {
	case Single:
		return single
	case SingleFast:
		return singleFast
	case Half:
		return half
	}
	return nil
}

// Of is the row of function family (the air.* name without fast_/precise_
// prefix and type: "pow", "sqrt", "sincos"; "fdiv" for the division
// operator x / y) in table t; a function t does not
// list is Kind None.
func Of(family string, t Table) Bound {
	if b, ok := rows(t)[family]; ok {
		return b
	}
	return Bound{Kind: None, Text: "no row", Source: "MSL 4.1 §8.4 " + t.String() + ": no row for " + family}
}

// Families lists the functions t has a row for.
func Families(t Table) []string {
	var out []string
	for k := range rows(t) {
		out = append(out, k)
	}
	return out
}

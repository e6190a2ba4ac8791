package mathbound

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRows checks rows against the specification's text (the transcription
// the package comment names); each case is a row that the recalled bounds
// had otherwise.
func TestRows(t *testing.T) {
	for _, tc := range []struct {
		fam  string
		tab  Table
		x    []float64
		kind Kind
		n    float64
	}{
		{"rsqrt", Single, []float64{2}, ULP, 0.5}, // Table 8.1: correctly rounded (recalled: 2 ulp)
		{"rsqrt", SingleFast, []float64{2}, ULP, 2},
		{"rsqrt", Half, []float64{2}, ULP, 0.5}, // Table 8.3: correctly rounded (recalled: 1 ulp)
		{"sqrt", Single, []float64{2}, ULP, 0.5},
		{"tanh", Single, []float64{2}, ULP, 5},
		{"pow", Single, []float64{2, 3}, ULP, 16},
		{"pow", Half, []float64{2, 3}, None, 0}, // Table 8.3 has no pow row (recalled: 1 ulp)
		{"fmod", SingleFast, []float64{2, 3}, Undefined, 0},
		{"fmod", Single, []float64{2, 3}, Exact, 0},
		{"exp", SingleFast, []float64{10.7}, ULP, 24},
		{"exp2", SingleFast, []float64{-0.2}, ULP, 3},
		{"log", SingleFast, []float64{1.5}, Abs, 0x1p-21},
		{"log", SingleFast, []float64{8}, ULP, 3},
		{"log", SingleFast, []float64{-1}, Undefined, 0},
		{"log2", SingleFast, []float64{3}, ULP, 2},
		{"sin", SingleFast, []float64{3}, Abs, 0x1p-13},
		{"sin", SingleFast, []float64{4}, None, 0},
		{"asin", SingleFast, []float64{0x1p-126}, None, 0},
		{"acos", SingleFast, []float64{0.5}, ULP, 5},
		{"atan2", SingleFast, []float64{1, 2}, Composed, 0}, // recalled: 5 ulp
		{"exp10", SingleFast, []float64{1}, Composed, 0},    // recalled: Table 8.1's 4 ulp
		{"tanh", SingleFast, []float64{1}, Composed, 0},     // recalled: Table 8.1's 5 ulp
		{"pow", SingleFast, []float64{2, 3}, Composed, 0},
		{"sqrt", SingleFast, []float64{2}, Composed, 0},
		{"pow", BFloat, []float64{2, 3}, None, 0},
		{"fdiv", Single, []float64{1, 3}, ULP, 0.5},     // Table 8.1: x / y correctly rounded
		{"fdiv", SingleFast, []float64{1, 3}, ULP, 2.5}, // Table 8.2: <= 2.5 ulp for y in [2^-126, 2^126]
		{"fdiv", SingleFast, []float64{1, -0x1p126}, ULP, 2.5},
		{"fdiv", SingleFast, []float64{1, 0x1p127}, None, 0},
		{"fdiv", SingleFast, []float64{1, 0x1p-127}, None, 0},
		{"fdiv", Half, []float64{1, 3}, ULP, 0.5}, // Table 8.3: x / y correctly rounded
	} {
		b := Of(tc.fam, tc.tab).At(tc.x)
		got := b.ULP
		if b.Kind == Abs {
			got = b.Abs
		}
		if b.Kind != tc.kind || (tc.kind == ULP || tc.kind == Abs) && got != tc.n {
			t.Errorf("%s in %s at %v: kind %d %g, want %d %g", tc.fam, tc.tab, tc.x, b.Kind, got, tc.kind, tc.n)
		}
		if !strings.Contains(b.Source, tc.tab.String()) {
			t.Errorf("%s in %s: source %q does not cite the table", tc.fam, tc.tab, b.Source)
		}
	}
}

// TestFormat checks rounding against Go's own float32 conversion.
func TestFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		x := math.Ldexp(r.Float64()*2-1, r.IntN(300)-160)
		want := float64(float32(x))
		if got := Binary32.Round(x); got != want && !(math.IsInf(got, 0) && math.IsInf(want, 0)) {
			t.Fatalf("Round(%g) = %g, want %g", x, got, want)
		}
		d, u := Binary32.Down(x), Binary32.Up(x)
		if d > x || u < x || (d != u && float64(math.Nextafter32(float32(d), float32(math.Inf(1)))) != u && !math.IsInf(u, 0) && !math.IsInf(d, 0)) {
			t.Fatalf("Down/Up(%g) = %g, %g", x, d, u)
		}
	}
}

// TestCorrectlyRoundedWithin: a correctly rounded result is within every
// row (a composition's steps can only widen), on random arguments.
func TestCorrectlyRoundedWithin(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	judged := map[string]int{}
	for _, fam := range []string{"pow", "powr", "sqrt", "rsqrt", "exp", "exp2", "exp10", "log", "log2", "log10", "sin", "cos", "tan",
		"sinh", "cosh", "tanh", "asin", "acos", "atan", "atan2", "fdiv"} {
		for _, tab := range []Table{Single, SingleFast, Half} {
			f := tab.Format()
			for range 3000 {
				x := []float64{f.Round(math.Ldexp(r.Float64()*2-1, r.IntN(12)-6)), f.Round(math.Ldexp(r.Float64()*2-1, r.IntN(8)-3))}
				if fam == "pow" || fam == "powr" || fam == "sqrt" || fam == "rsqrt" || strings.HasPrefix(fam, "log") {
					x[0] = math.Abs(x[0])
				}
				e, _ := ExactValue(fam, x)
				got := f.Round(e)
				v := Judge(fam, tab, x, got)
				if !v.Judged() {
					continue
				}
				judged[fam]++
				if !v.Within {
					t.Fatalf("%s in %s at %v: the correctly rounded %g judged beyond (%g ulp, [%g, %g])", fam, tab, x, got, v.ULP, v.Lo, v.Hi)
				}
			}
		}
	}
	for fam, n := range judged {
		if n < 1000 {
			t.Errorf("%s: only %d cases judged", fam, n)
		}
	}
}

// TestBeyond is the planted fault: a result past its row is beyond, and
// the error names the operation, its arguments and the distance.
func TestBeyond(t *testing.T) {
	for _, tc := range []struct {
		op, fam string
		tab     Table
		x       []float64
		ulps    float64
		within  bool
	}{
		{"air.fast_pow.f32", "pow", SingleFast, []float64{1.5, 2.25}, 1, true},
		{"air.fast_pow.f32", "pow", SingleFast, []float64{1.5, 2.25}, 40, false},
		{"air.fast_sqrt.f32", "sqrt", SingleFast, []float64{3}, 2, true},
		{"air.fast_sqrt.f32", "sqrt", SingleFast, []float64{3}, 5, false},
		{"air.sqrt.f32", "sqrt", Single, []float64{3}, 1, false},
		{"air.fast_exp.f32", "exp", SingleFast, []float64{2}, 6.5, true},
		{"air.fast_exp.f32", "exp", SingleFast, []float64{2}, 7.5, false},
		{"air.fast_atan2.f32", "atan2", SingleFast, []float64{0.5, -0.75}, 600, false},
		{"air.fast_tanh.f32", "tanh", SingleFast, []float64{0.3}, 2, true},
		{"air.fast_tanh.f32", "tanh", SingleFast, []float64{0.3}, 30, false},
		{"fdiv.f32", "fdiv", SingleFast, []float64{1, 3}, 1, true},
		{"fdiv.f32", "fdiv", SingleFast, []float64{1, 3}, 2, true},
		{"fdiv.f32", "fdiv", SingleFast, []float64{1, 3}, 3, false},
		{"fdiv.f32", "fdiv", Single, []float64{1, 3}, 1, false},
	} {
		e, _ := ExactValue(tc.fam, tc.x)
		f := tc.tab.Format()
		got := f.Round(e) + tc.ulps*f.ULP(e)
		v := Judge(tc.fam, tc.tab, tc.x, got)
		if !v.Judged() || v.Within != tc.within {
			t.Errorf("%s%v + %g ulp: within %v (%+v), want %v", tc.op, tc.x, tc.ulps, v.Within, v, tc.within)
			continue
		}
		if !tc.within {
			msg := (&Error{Op: tc.op, Args: tc.x, Got: got, Verdict: v}).Error()
			for _, want := range []string{tc.op, "ulp", tc.tab.String()} {
				if !strings.Contains(msg, want) {
					t.Errorf("%q does not name %q", msg, want)
				}
			}
		}
	}
	// Undefined and flushed cases are not judged as beyond.
	if v := Judge("pow", SingleFast, []float64{-2, 3}, 7); v.Undefined == "" {
		t.Errorf("fast pow of a negative base judged: %+v", v)
	}
	if v := Judge("sqrt", Single, []float64{0x1p-140}, 0); !v.Within || !v.Flushed {
		t.Errorf("sqrt of a flushed denormal: %+v", v)
	}
}

// TestHalfValue checks the decoding of binary16 bits (a trace's half
// operands, opcheck's half elements, the judge's half words).
func TestHalfValue(t *testing.T) {
	for _, tc := range []struct {
		h    uint16
		want float64
	}{{0x3c00, 1}, {0xc000, -2}, {0x0001, 0x1p-24}, {0x7bff, 65504}, {0x3555, 0x1.554p-2}, {0x8000, 0}} {
		if got := HalfValue(tc.h); got != tc.want {
			t.Errorf("%#x: %g, want %g", tc.h, got, tc.want)
		}
	}
	if !math.IsInf(HalfValue(0x7c00), 1) || !math.IsNaN(HalfValue(0x7e00)) {
		t.Error("half infinity or NaN")
	}
}

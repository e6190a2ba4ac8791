package opcheck

import (
	"context"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/corpustest"
	"github.com/airpipe/airpipe/device"
)

func lavapipe(t *testing.T) *device.Device {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip(err)
	}
	d, err := device.Open("lavapipe", device.Options{})
	if err != nil {
		t.Skipf("lavapipe cannot be opened here: %v", err)
	}
	t.Cleanup(func() { _ = d.Stop() })
	return d
}

// TestOpsOnLavapipe runs a few operations of each kind and checks the
// verdicts measured on lavapipe (see README "opcheck").
func TestOpsOnLavapipe(t *testing.T) {
	r := &Runner{Dev: lavapipe(t), Name: "lavapipe", Random: 200, Seed: 1}
	for _, tc := range []struct{ name, verdict string }{
		{"air.fabs.v3f16", VerdictPass},
		{"air.round.f32", VerdictPass},
		{"air.sign.f32", VerdictPass},
		{"air.sqrt.f32", VerdictPass},
		{"air.rsqrt.f32", VerdictPass},
		{"air.convert.u.i8.f.f32", VerdictPass},
		{"air.convert.f.v4f16.f.v4f32", VerdictPass},
		{"air.min.s.i32", VerdictPass},
		{"air.unpack.snorm4x8.v4f32", VerdictPass},
		{"air.fast_sincos.f32", VerdictPass},
		{"air.dot.v3f32", VerdictUnbounded},
		{"air.fast_fmax3.f32", VerdictPass},
		{"air.fma.f32", VerdictFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, err := ParseOp(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			res := r.Check(context.Background(), op)
			if res.Verdict != tc.verdict || res.Verdict != VerdictRefused && res.Cases == 0 {
				t.Errorf("%s: %s over %d cases (worst %g ulp), want %s: %s", tc.name, res.Verdict, res.Cases, res.WorstULP, tc.verdict, res.Detail)
			}
		})
	}
}

// TestPlantedFaults breaks results and bounds on purpose: each must be
// caught.
func TestPlantedFaults(t *testing.T) {
	d := lavapipe(t)
	check := func(name string, brk func(*Op, int, []uint64)) *Result {
		op, err := ParseOp(name)
		if err != nil {
			t.Fatal(err)
		}
		r := &Runner{Dev: d, Name: "lavapipe", Random: 100, Seed: 2, Break: brk}
		return r.Check(context.Background(), op)
	}
	// A lowering that computes rint (ties to even) in place of round.
	if res := check("air.round.f32", func(op *Op, k int, w []uint64) {
		for i, b := range w {
			x := float64(math.Float32frombits(uint32(b)))
			if math.Abs(x-math.Trunc(x)) == 0 && math.Mod(x, 2) != 0 && math.Abs(x) < 1e6 {
				w[i] = uint64(math.Float32bits(float32(x - math.Copysign(1, x)))) // 2.5 -> 2: ties to even
			}
		}
	}); res.Verdict != VerdictFail {
		t.Errorf("round replaced by ties-to-even not caught: %s %s", res.Verdict, res.Detail)
	}
	// One ulp off in a correctly rounded operation.
	if res := check("air.sqrt.f32", func(op *Op, k int, w []uint64) {
		for i := range w {
			if i%7 == 3 && w[i]&0x7f800000 != 0x7f800000 && w[i] != 0 {
				w[i]++
			}
		}
	}); res.Verdict != VerdictFail || res.WorstULP < 1 {
		t.Errorf("sqrt one ulp off not caught: %s %g", res.Verdict, res.WorstULP)
	}
	// The second lane of a vector dropped.
	if res := check("air.fabs.v2f32", func(op *Op, k int, w []uint64) {
		for i := 1; i < len(w); i += 2 {
			w[i] = 0
		}
	}); res.Verdict != VerdictFail {
		t.Errorf("dropped lane not caught: %s", res.Verdict)
	}
	// A NaN where a number is due, and the sign of a zero lost.
	if res := check("air.sign.f32", func(op *Op, k int, w []uint64) {
		for i, b := range w {
			if b == 0x80000000 {
				w[i] = 0
			}
		}
	}); res.Verdict != VerdictFail {
		t.Errorf("sign(-0) = +0 not caught: %s", res.Verdict)
	}
	// A wrong bound: fast exp held to "correctly rounded", tighter than
	// lavapipe's error, must fail where its own row (Table 8.2) passes.
	op, _ := ParseOp("air.fast_exp.f32")
	if b := BoundOf(op).At([]float64{1.5}); b.Kind != BoundULP || b.ULP != 6 {
		t.Fatalf("fast exp bound at 1.5 %+v, want 3 + floor(|2x|) = 6 ulp (Table 8.2)", b)
	}
	res := check("air.fast_exp.f32", nil)
	if res.Verdict != VerdictPass {
		t.Fatalf("fast exp under its own row: %s %s", res.Verdict, res.Detail)
	}
	if res.WorstULP <= 0.5 {
		t.Skipf("lavapipe's fast exp is within half an ulp here (%g): the tight bound cannot be shown failing", res.WorstULP)
	}
	r := &Runner{Dev: d, Name: "lavapipe", Random: 100, Seed: 2, BoundFor: func(*Op) Bound {
		return Bound{Kind: BoundULP, ULP: 0.5, Text: "correctly rounded (planted)"}
	}}
	if res := r.Check(context.Background(), op); res.Verdict != VerdictFail {
		t.Errorf("a bound tighter than the device's error not caught: %s (worst %g ulp)", res.Verdict, res.WorstULP)
	}
	v := distance(binary32, Bound{Kind: BoundULP, ULP: 0.5}, 1, float64(math.Nextafter32(1, 2)), false)
	if !v.beyond {
		t.Error("one ulp judged within correctly rounded")
	}
	// A composed row (fast pow: exp2(y*log2(x))): a device value 64 ulp
	// off is beyond, and the detail names the arguments and the distance.
	res = check("air.fast_pow.f32", func(op *Op, k int, w []uint64) {
		for i := range w {
			if i%5 == 1 && w[i]&0x7f800000 != 0x7f800000 && w[i]&0x7f800000 != 0 {
				w[i] += 64
			}
		}
	})
	if res.Verdict != VerdictFail || res.WorstULP < 60 || !strings.Contains(res.Detail, "args (") {
		t.Errorf("fast pow 64 ulp off not caught: %s %g %s", res.Verdict, res.WorstULP, res.Detail)
	}
}

// TestReference checks the reference against known values.
func TestReference(t *testing.T) {
	f := binary32
	for _, tc := range []struct {
		fam  string
		x    []float64
		want float64
	}{
		{"round", []float64{2.5}, 3}, {"round", []float64{-0.5}, -1}, {"rint", []float64{2.5}, 2},
		{"fract", []float64{-1e-30}, 1 - 0x1p-24}, {"sign", []float64{math.NaN()}, 0},
		{"fmax", []float64{math.NaN(), 3}, 3}, {"clamp", []float64{math.NaN(), 0, 1}, 0},
		{"fma", []float64{1 + 0x1p-23, 1 - 0x1p-23, -1}, -0x1p-46},
	} {
		w := floatRef(tc.fam, tc.x, f)
		if len(w.cands) == 0 || w.cands[0] != tc.want || math.Signbit(w.cands[0]) != math.Signbit(tc.want) {
			t.Errorf("%s%v = %v, want %v", tc.fam, tc.x, w.cands, tc.want)
		}
	}
	if h := encodeFloat(Type{'f', 16, 1}, binary16.round(65520)); h != 0x7c00 {
		t.Errorf("65520 to half: %#x, want inf", h)
	}
	if h := decodeFloat(Type{'f', 16, 1}, 0x0001); h != 0x1p-24 {
		t.Errorf("least half denormal %g", h)
	}
}

// TestCorpusCovered checks that every air.* declaration of the corpus is
// either evaluated or set aside by name as not math, and that the
// built-in list is the corpus's.
func TestCorpusCovered(t *testing.T) {
	root := corpustest.Root(t)
	decls, n, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	ops, aside, unknown := Select(decls)
	t.Logf("%s: %d distinct modules, %d declarations: %d evaluated, %d set aside", filepath.Base(root), n, len(decls), len(ops), len(aside))
	for name, why := range unknown {
		t.Errorf("not evaluable: %s (%s)", name, why)
	}
	in := map[string]bool{}
	for _, b := range Builtin {
		in[b] = true
	}
	for _, d := range decls {
		if !in[d.Name] {
			t.Errorf("%s is declared by the corpus but not in Builtin", d.Name)
		}
	}
}

// TestParquetRoundTrip writes and reads a table.
func TestParquetRoundTrip(t *testing.T) {
	op, _ := ParseOp("air.fast_pow.f32")
	rows := []Row{RowOf(&Result{Op: op, Device: "x", Bound: BoundOf(op), Cases: 3, WorstULP: math.Inf(1), Verdict: VerdictUnbounded}, 7)}
	p := filepath.Join(t.TempDir(), "o.parquet")
	if err := WriteParquet(p, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadParquet(p)
	if err != nil || len(got) != 1 || got[0] != rows[0] {
		t.Fatalf("%v %v, want %v", got, err, rows)
	}
}

// TestRsqrtCorrectlyRounded sweeps precise rsqrt on lavapipe over every
// 7th significand of [1, 4) (the two binades its lowering reduces every
// argument to), scaled into the extreme binades, and every denormal
// exponent: each result must be the correctly rounded one (Table 8.1),
// which GLSL's InverseSqrt alone is not; a result one ULP off is caught.
// (Every significand of [1, 4), all 2^24, passed once on 2026-12-03.)
func TestRsqrtCorrectlyRounded(t *testing.T) {
	d := lavapipe(t)
	op, err := ParseOp("air.rsqrt.f32")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][]uint64
	for _, exp := range []uint64{127, 128, 1, 2, 253, 254} {
		for f := uint64(0); f < 1<<23; f += 7 {
			cases = append(cases, []uint64{exp<<23 | f})
		}
	}
	for s := range 23 {
		cases = append(cases, []uint64{1 << s}, []uint64{1<<s | 0x5a5a5a>>(23-s)})
	}
	r := &Runner{Dev: d, Name: "lavapipe", Cases: cases}
	if res := r.Check(context.Background(), op); res.Verdict != VerdictPass || res.WorstULP > 0.5+1e-6 || res.Cases != len(cases) {
		t.Fatalf("%s over %d of %d cases: worst %g ulp: %s", res.Verdict, res.Cases, len(cases), res.WorstULP, res.Detail)
	}
	r.Break = func(op *Op, k int, w []uint64) { w[len(w)/2]++ }
	if res := r.Check(context.Background(), op); res.Verdict != VerdictFail {
		t.Errorf("a result one ULP off: %s, want %s", res.Verdict, VerdictFail)
	}
}

// TestInverseTrigWithinBound sweeps the translator's asin, acos, atan and
// fast atan2 (compiler/translate/invtrig.go) on lavapipe: every 61st float
// of ±[2^-6, 1] (asin, acos), every 401st of ±[2^-6, 2^30] (atan), y/x pairs
// around 1 and across the exponent range (atan2), each within its own
// row, fast and precise — where GLSL's instructions were 55 to 3,630 ulp
// off. A result 6 ulp off is caught.
func TestInverseTrigWithinBound(t *testing.T) {
	d := lavapipe(t)
	sweep := func(lo, hi float32, step uint32) [][]uint64 {
		var cases [][]uint64
		for b := math.Float32bits(lo); b <= math.Float32bits(hi); b += step {
			cases = append(cases, []uint64{uint64(b)}, []uint64{uint64(b) | 1<<31})
		}
		return cases
	}
	unit, wide := sweep(0x1p-6, 1, 61), sweep(0x1p-6, 0x1p30, 401)
	var pairs [][]uint64
	for i, y := range wide {
		if i%7 == 0 {
			for _, x := range [][]uint64{{0x3f800000}, {0xbf800000}, unit[i%len(unit)], wide[(i*7)%len(wide)]} {
				pairs = append(pairs, []uint64{y[0], x[0]})
			}
		}
	}
	for _, tc := range []struct {
		name  string
		cases [][]uint64
		worst float64 // the measured worst, ulp, rounded up
	}{
		{"air.fast_asin.f32", unit, 2.5}, {"air.asin.f32", unit, 2.5},
		{"air.fast_acos.f32", unit, 1.5}, {"air.acos.f32", unit, 1.5},
		{"air.fast_atan.f32", wide, 2}, {"air.atan.f32", wide, 2},
		{"air.fast_atan2.f32", pairs, 3},
		{"air.fast_acos.v2f32", unit[:len(unit)/4], 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, err := ParseOp(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			r := &Runner{Dev: d, Name: "lavapipe", Cases: tc.cases}
			res := r.Check(context.Background(), op)
			if res.Verdict != VerdictPass || res.WorstULP > tc.worst || res.Cases < len(tc.cases)/2 {
				t.Fatalf("%s over %d of %d cases: worst %g ulp (bound %s): %s", res.Verdict, res.Cases, len(tc.cases), res.WorstULP, res.Bound.Text, res.Detail)
			}
			t.Logf("%d cases, worst %.3g ulp", res.Cases, res.WorstULP)
			r.Break = func(op *Op, k int, w []uint64) { w[len(w)/3] += 6 }
			if res := r.Check(context.Background(), op); res.Verdict != VerdictFail {
				t.Errorf("a result 6 ULP off: %s, want %s", res.Verdict, VerdictFail)
			}
		})
	}
}

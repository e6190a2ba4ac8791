package cpuref

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// TestDerivativeUniform runs derivatives of pixel-independent values — fwidth of a varying,
// dfdy of a texture sample taken at the pixel's position, dfdx of an infinity, and a half dfdx
// in a helper function through private memory — and checks every render-target word: +0 for
// a finite operand, NaN for an infinite one, and the pixel's position where the function
// returns it (a per-pixel value the derivatives never see).
func TestDerivativeUniform(t *testing.T) {
	needTools(t)
	res, err := Run(context.Background(), assemble(t, readFixture(t, "testdata/derivative_uniform.ll")), "frag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "dfdx, dfdy, fwidth of pixel-independent values: v − v"; res.Derivatives != want {
		t.Fatalf("Derivatives = %q, want %q", res.Derivatives, want)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil || back.Derivatives != res.Derivatives {
		t.Fatalf("Derivatives did not survive JSON: %q (%v)", back.Derivatives, err)
	}
	outs := map[int][]byte{}
	for _, o := range res.Outputs {
		outs[o.Index] = o.Bytes
	}
	for py := range 4 {
		for px := range 4 {
			p := (py*4 + px) * TexelSize
			word := func(rt, c int) uint32 { return binary.LittleEndian.Uint32(outs[RenderTargetBase+rt][p+4*c:]) }
			for c, want := range []uint32{0, 0, 0} {
				if got := word(0, c); got != want {
					t.Errorf("pixel (%d,%d) target 0[%d] = %#x, want +0", px, py, c, got)
				}
			}
			if got := math.Float32frombits(word(0, 3)); !math.IsNaN(float64(got)) {
				t.Errorf("pixel (%d,%d) dfdx(∞) = %g, want NaN", px, py, got)
			}
			for c, want := range []uint32{0, 0, Clear[2], Clear[3]} {
				if got := word(1, c); got != want {
					t.Errorf("pixel (%d,%d) target 1[%d] = %#x, want %#x", px, py, c, got, want)
				}
			}
			for c, want := range []float32{float32(px) + 0.5, float32(py) + 0.5} {
				if got := word(2, c); got != math.Float32bits(want) {
					t.Errorf("pixel (%d,%d) target 2[%d] = %#x, want %g", px, py, c, got, want)
				}
			}
		}
	}
}

// TestDerivativePixel sets aside every derivative whose operand may depend on the pixel
// position: directly, through a select, through a phi, through private memory that also holds
// the position, through a device buffer the pixel wrote (directly or through a generic
// pointer), and from the sample index (0 here, but
// every built-in other than a varying counts as per-pixel).
func TestDerivativePixel(t *testing.T) {
	needTools(t)
	bc := assemble(t, readFixture(t, "testdata/derivative_pixel.ll"))
	for _, c := range []struct{ entry, op string }{
		{"dx_position", "air.dfdx.f32"},
		{"dy_select", "air.dfdy.v2f32"},
		{"dy_phi", "air.dfdy.f32"},
		{"dx_private", "air.dfdx.f32"},
		{"dx_buffer", "air.dfdx.f32"},
		{"dx_generic", "air.dfdx.f32"},
		{"dx_sample", "air.dfdx.f32"},
	} {
		t.Run(c.entry, func(t *testing.T) {
			_, err := Run(context.Background(), bc, c.entry, Options{})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != KindDerivative {
				t.Fatalf("got %v, want not judgeable (%s)", err, KindDerivative)
			}
			if nj.Detail != c.op || !strings.Contains(nj.Reason, "position") {
				t.Fatalf("detail %q reason %q: want %s and a reason naming the position", nj.Detail, nj.Reason, c.op)
			}
		})
	}
}

// TestDerivativeTaintBroken breaks the analysis on purpose — taint no longer flows through a
// select, or a phi — and sees the fixture that depends on it run: so TestDerivativePixel's
// dy_select and dy_phi are set aside because the analysis follows that instruction, not by
// accident.
func TestDerivativeTaintBroken(t *testing.T) {
	needTools(t)
	bc := assemble(t, readFixture(t, "testdata/derivative_pixel.ll"))
	for _, c := range []struct{ op, entry string }{{"select", "dy_select"}, {"phi", "dy_phi"}} {
		t.Run(c.op, func(t *testing.T) {
			taintIgnores[c.op] = true
			defer delete(taintIgnores, c.op)
			res, err := Run(context.Background(), bc, c.entry, Options{})
			if err != nil {
				t.Fatalf("with taint through %s ignored, %s should run: %v", c.op, c.entry, err)
			}
			if res.Derivatives == "" {
				t.Fatal("Derivatives is empty")
			}
		})
	}
}

// TestDerivativeGiveUp sets aside what the analysis does not follow (an indirect call, inline
// assembly, an instruction it does not know, a call to an undefined function), a derivative
// in control flow that depends on the position, a derivative in a form the reference does not
// define, and one reached by a compute kernel.
func TestDerivativeGiveUp(t *testing.T) {
	ll := readFixture(t, "testdata/derivative_uniform.ll")
	for _, c := range []struct{ name, old, new, want string }{
		{"indirect call", "%hd = call <2 x half> @halfdx(", "%hd = call <2 x half> %tex(", "indirect call"},
		{"inline asm", "%hd = call <2 x half> @halfdx(<2 x float> %uv)", `%hd = call <2 x half> asm "", "=r,r"(<2 x float> %uv)`, "inline assembly"},
		{"unknown instruction", "%ub = bitcast <2 x float> %uv to <2 x i32>", "%ub = va_arg ptr %tex, <2 x i32>", "does not follow"},
		{"undefined function", "%hd = call <2 x half> @halfdx(", "%hd = call <2 x half> @elsewhere(", "does not define"},
		{"divergent switch", "switch i32 %u0,", "%px = extractelement <4 x float> %pos, i32 0\n  %pxi = fptoui float %px to i32\n  switch i32 %pxi,", "non-uniform control flow"},
		{"form", "declare <2 x float> @air.fwidth.v2f32(<2 x float>)", "declare <2 x float> @air.fwidth.v2f32(<2 x double>)", "form"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(ll, c.old) {
				t.Fatalf("fixture lacks %q", c.old)
			}
			k, note, err := derivativeVerdict(strings.Replace(ll, c.old, c.new, 1), "frag")
			var nj *NotJudgeableError
			if c.name == "form" {
				_, err = rewrite(parseText(strings.Replace(ll, c.old, c.new, 1)), k, false)
			}
			if !errors.As(err, &nj) || nj.Kind != KindDerivative || !strings.Contains(nj.Reason, c.want) {
				t.Fatalf("got %v (note %q), want not judgeable (%s) saying %q", err, note, KindDerivative, c.want)
			}
		})
	}
	t.Run("kernel", func(t *testing.T) {
		k := variant("kernel", "declare float @air.dfdx.f32(float)", "", "  %d = call float @air.dfdx.f32(float 1.0)\n", "")
		_, _, err := derivativeVerdict(k, "k")
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != KindDerivative {
			t.Fatalf("got %v, want not judgeable (%s)", err, KindDerivative)
		}
	})
}

// TestDerivativeFollows reads what llvm-dis writes around instructions — debug records
// (#dbg_value) and a switch's case lines — without giving up.
func TestDerivativeFollows(t *testing.T) {
	ll := strings.Replace(readFixture(t, "testdata/derivative_uniform.ll"), "  %hd = call", "    #dbg_value(<2 x float> %uv, !70, !DIExpression(), !71)\n  %hd = call", 1)
	if !strings.Contains(ll, "#dbg_value") {
		t.Fatal("fixture lacks the call to @halfdx")
	}
	if _, note, err := derivativeVerdict(ll, "frag"); err != nil || note == "" {
		t.Fatalf("got %v (note %q), want the derivatives accepted", err, note)
	}
}

// derivativeVerdict inspects entry of ll and runs the derivative analysis.
func derivativeVerdict(ll, entry string) (*Kernel, string, error) {
	tm := parseText(ll)
	k, err := inspect(tm, entry)
	if err != nil {
		return nil, "", err
	}
	note, err := checkDerivatives(tm, k)
	return k, note, err
}

// TestDerivativeOp checks the definitions' text: v − v without flags, and fwidth's magnitudes.
func TestDerivativeOp(t *testing.T) {
	def, err := derivativeOp(declaration{Name: "air.fwidth.v2f16", Ret: "<2 x half>", Params: []string{"<2 x half>"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"%d = fsub <2 x half> %a0, %a0", "@llvm.fabs.v2f16(<2 x half> %d)", "%r = fadd <2 x half> %m, %m"} {
		if !strings.Contains(def, want) {
			t.Errorf("definition lacks %q:\n%s", want, def)
		}
	}
	def, err = derivativeOp(declaration{Name: "air.fast_dfdy.f32", Ret: "float", Params: []string{"float"}})
	if err != nil || !strings.Contains(def, "%d = fsub float %a0, %a0\n  ret float %d") {
		t.Fatalf("fast_dfdy: %v\n%s", err, def)
	}
}

// FuzzDerivatives feeds hostile llvm-dis-like text to the derivative analysis: it must not
// panic, and what it refuses is a NotJudgeableError with a kind.
func FuzzDerivatives(f *testing.F) {
	for file, entries := range map[string][]string{
		"derivative_uniform.ll": {"frag"},
		"derivative_pixel.ll":   {"dx_position", "dy_select", "dy_phi", "dx_private", "dx_buffer", "dx_generic", "dx_sample"},
	} {
		b, err := os.ReadFile("testdata/" + file)
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries {
			f.Add(string(b), e)
		}
	}
	f.Fuzz(func(t *testing.T, ll, entry string) {
		_, _, err := derivativeVerdict(ll, entry)
		var nj *NotJudgeableError
		if errors.As(err, &nj) && nj.Kind == "" {
			t.Fatal("a NotJudgeableError without a kind")
		}
	})
}

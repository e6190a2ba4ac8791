package cpuref

import (
	"errors"
	"strings"
	"testing"
)

// TestRewriteKeepsIEEE checks the line rewrites that keep the host module's
// arithmetic IEEE and its symbols private, each on the construct it targets.
func TestRewriteKeepsIEEE(t *testing.T) {
	ll := variant("kernel", "declare float @air.fast_fmax.f32(float, float)", "",
		`  %f = bitcast i32 %v to float
  %m = fmul fast float %f, %f
  %d = fdiv nnan ninf arcp float %m, %f, !fpmath !9
  %x = tail call fast float @air.fast_fmax.f32(float %d, float %m)
  %c = fcmp fast olt float %x, %f
  store float %x, ptr addrspace(1) %p`, "") + "!9 = !{float 2.5}\nattributes #0 = { \"unsafe-fp-math\"=\"true\" \"no-nans-fp-math\"=\"true\" }\n"
	tm := parseText(ll)
	k, err := inspect(tm, "k")
	if err != nil {
		t.Fatal(err)
	}
	out, err := rewrite(tm, k, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{" fast ", " nnan ", " arcp ", "!fpmath", `"unsafe-fp-math"="true"`, `"no-nans-fp-math"="true"`, "air64", "declare float @air.fast_fmax.f32"} {
		if strings.Contains(out, bad) {
			t.Errorf("host module still holds %q", bad)
		}
	}
	for _, want := range []string{"define internal void @k(", `target triple = "x86_64-pc-linux-gnu"`, "@llvm.maxnum.f32", "define void @airpipe_thread(", "declare float @llvm.maxnum.f32(float, float)"} {
		if !strings.Contains(out, want) {
			t.Errorf("host module lacks %q", want)
		}
	}
}

// TestDefineOps checks the classification of operation names: exact ones
// get a definition, the others a NotJudgeableError of the right kind.
func TestDefineOps(t *testing.T) {
	cases := []struct {
		name, ret string
		params    []string
		kind      string // "" = defined
	}{
		{"air.convert.f.f32.u.i32", "float", []string{"i32"}, ""},
		{"air.convert.s.i32.f.f32", "i32", []string{"float"}, ""},
		{"air.convert.f.v4f16.f.v4f32", "<4 x half>", []string{"<4 x float>"}, ""},
		{"air.min.u.v2i32", "<2 x i32>", []string{"<2 x i32>", "<2 x i32>"}, ""},
		{"air.fast_saturate.v3f32", "<3 x float>", []string{"<3 x float>"}, ""},
		{"air.round.f32", "float", []string{"float"}, ""},
		{"air.fma.f32", "float", []string{"float", "float", "float"}, ""},
		{"air.atomic.global.xchg.u.i32", "i32", []string{"ptr addrspace(1)", "i32", "i32", "i32", "i1"}, ""},
		{"air.fast_sin.f32", "float", []string{"float"}, KindApproximate},
		{"air.sqrt.f32", "float", []string{"float"}, KindApproximate},
		{"air.dot.v3f32", "float", []string{"<3 x float>", "<3 x float>"}, ""},
		{"air.dot.v3f64", "double", []string{"<3 x double>", "<3 x double>"}, KindApproximate},
		{"air.fast_length.v3f32", "float", []string{"<3 x float>"}, KindApproximate},
		{"air.sample_texture_2d.v4f32", "<4 x float>", nil, KindTexture},
		{"air.wg.barrier", "void", []string{"i32", "i32"}, ""},
		{"air.wg.barrier", "void", []string{"i32"}, KindBarrier},
		{"air.simdgroup.barrier", "void", []string{"i32", "i32"}, ""},
		{"air.simdgroup.barrier", "void", []string{"i32"}, KindSIMDGroup},
		{"air.mem.barrier", "void", []string{"i32", "i32"}, KindBarrier},
		{"air.simd_sum.f32", "float", []string{"float"}, ""},
		{"air.simd_sum.f32", "float", []string{"float", "float"}, KindSIMDGroup},
		{"air.quad_sum.f32", "float", []string{"float"}, KindSIMDGroup},
		{"air.simdgroup_matrix_8x8_load.v64f16.p3f16", "<64 x half>", []string{"ptr addrspace(3)"}, KindSIMDGroup},
		{"air.atomic.local.add.u.i32", "i32", []string{"ptr addrspace(3)", "i32", "i32", "i32", "i1"}, ""},
		{"air.atomic.local.add.u.i32", "i32", []string{"ptr addrspace(1)", "i32", "i32", "i32", "i1"}, KindUnknownOp},
		{"air.popcount.i32", "i32", []string{"i32"}, KindUnknownOp},
		{"air.saturate.v999999999f32", "<999999999 x float>", []string{"<999999999 x float>"}, KindUnknownOp},
	}
	for _, c := range cases {
		def, err := defineOp(declaration{Name: c.name, Ret: c.ret, Params: c.params})
		if c.kind == "" {
			if err != nil || !strings.Contains(def, "define internal "+c.ret) {
				t.Errorf("%s: %v\n%s", c.name, err, def)
			}
			continue
		}
		nj, ok := err.(*NotJudgeableError)
		if !ok || nj.Kind != c.kind || nj.Detail != c.name {
			t.Errorf("%s: got %v, want kind %s", c.name, err, c.kind)
		}
	}
}

// TestRewriteNamesEveryBlocker: a module with several operations the
// reference cannot define is set aside naming the first (by name) and
// listing the others in Also, each once.
func TestRewriteNamesEveryBlocker(t *testing.T) {
	ll := variant("kernel", "declare float @air.fast_pow.f32(float, float)\ndeclare float @air.fast_exp.f32(float)\ndeclare float @air.sin.f32(float)", "",
		`  %f = bitcast i32 %v to float
  %a = tail call fast float @air.fast_pow.f32(float %f, float %f)
  %b = tail call fast float @air.fast_exp.f32(float %a)
  %c = tail call float @air.sin.f32(float %b)
  store float %c, ptr addrspace(1) %p`, "")
	tm := parseText(ll)
	k, err := inspect(tm, "k")
	if err != nil {
		t.Fatal(err)
	}
	_, err = rewrite(tm, k, false)
	var nj *NotJudgeableError
	if !errors.As(err, &nj) {
		t.Fatalf("rewrite: %v", err)
	}
	got := append([]string{nj.Blocker()}, nj.Also...)
	want := []string{"approximate-op air.fast_exp.f32", "approximate-op air.fast_pow.f32", "approximate-op air.sin.f32"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("blockers %q, want %q", got, want)
	}
}

// FuzzFastFlagFilter: a line hasFastFlag turns away is one fastFlags would
// leave as it is, and one without ", !fpmath !" one fpmath would (rewrite
// skips both regexps on such lines).
func FuzzFastFlagFilter(f *testing.F) {
	f.Add("  %3 = fmul fast float %1, %2, !fpmath !4")
	f.Add("  %r = call nnan ninf float @llvm.sqrt.f32(float %x)")
	f.Add("  %p = phi reassoc float [ 0.0, %a ]")
	f.Fuzz(func(t *testing.T, l string) {
		if !hasFastFlag(l) && fastFlags.ReplaceAllString(l, "$1 ") != l {
			t.Fatalf("%q: fastFlags changes a line hasFastFlag skips", l)
		}
		if !strings.Contains(l, ", !fpmath !") && fpmath.ReplaceAllString(l, "") != l {
			t.Fatalf("%q: fpmath changes a line the filter skips", l)
		}
	})
}

// FuzzStripFastFlags: stripFastFlags does what the fastFlags regexp does.
func FuzzStripFastFlags(f *testing.F) {
	for _, s := range []string{"  %3 = fmul fast float %1, %2, !fpmath !4", "  %r = call nnan ninf float @llvm.sqrt.f32(float %x)",
		"  %p = phi reassoc float [ 0.0, %a ]", "fadd fast nnan, x", "xfadd fast y", "fadd fastmath y", "fadd fast fadd nnan x",
		"fadd  fast x", "select nsz nsz z", "fcmp fast oeq", "fadd fast"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := stripFastFlags(l), fastFlags.ReplaceAllString(l, "$1 "); got != want {
			t.Fatalf("stripFastFlags(%q) = %q, the regexp %q", l, got, want)
		}
	})
}

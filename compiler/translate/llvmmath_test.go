package translate

import (
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// TestLLVMMath pins what each llvm.* math intrinsic lowers to through the
// mathOps entry llvmMath names: the llvm path uses only glsl, core and
// arity, so a target with a custom lowering (or a missing one) would
// silently change the SPIR-V.
func TestLLVMMath(t *testing.T) {
	want := map[string]struct {
		glsl  spirv.GLSLOp
		core  spirv.Op
		arity int
	}{
		"fabs": {glsl: spirv.GLSLFAbs, arity: 1}, "abs": {glsl: spirv.GLSLFAbs, arity: 1},
		"floor": {glsl: spirv.GLSLFloor, arity: 1}, "ceil": {glsl: spirv.GLSLCeil, arity: 1},
		"trunc": {glsl: spirv.GLSLTrunc, arity: 1}, "sqrt": {glsl: spirv.GLSLSqrt, arity: 1},
		"fma": {glsl: spirv.GLSLFma, arity: 3}, "fmuladd": {glsl: spirv.GLSLFma, arity: 3},
		"maxnum": {glsl: spirv.GLSLNMax, arity: 2}, "minnum": {glsl: spirv.GLSLNMin, arity: 2},
		"exp2": {glsl: spirv.GLSLExp2, arity: 1}, "log2": {glsl: spirv.GLSLLog2, arity: 1},
		"pow": {glsl: spirv.GLSLPow, arity: 2}, "sin": {glsl: spirv.GLSLSin, arity: 1},
		"cos":  {glsl: spirv.GLSLCos, arity: 1},
		"umin": {glsl: spirv.GLSLUMin, arity: 2}, "umax": {glsl: spirv.GLSLUMax, arity: 2},
		"smin": {glsl: spirv.GLSLSMin, arity: 2}, "smax": {glsl: spirv.GLSLSMax, arity: 2},
		"ctpop": {core: spirv.OpBitCount, arity: 1}, "bitreverse": {core: spirv.OpBitReverse, arity: 1},
	}
	if len(llvmMath) != len(want) {
		t.Errorf("llvmMath has %d intrinsics, want %d", len(llvmMath), len(want))
	}
	for name, w := range want {
		m, ok := mathOps[llvmMath[name]]
		switch {
		case !ok:
			t.Errorf("llvm.%s: %q is not a mathOps entry", name, llvmMath[name])
		case m.lower != nil:
			t.Errorf("llvm.%s: %q has a custom lowering the llvm path ignores", name, llvmMath[name])
		case m.glsl != w.glsl || m.core != w.core || m.arity != w.arity:
			t.Errorf("llvm.%s lowers to glsl %v core %v arity %d, want %v %v %d", name, m.glsl, m.core, m.arity, w.glsl, w.core, w.arity)
		}
	}
}

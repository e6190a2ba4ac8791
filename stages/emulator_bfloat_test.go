package stages

import (
	"path/filepath"
	"testing"
)

// TestEmulatorBFloatGemv judges bfloat_gemv.ll (the shape of MLX's gemv
// axpby kernels on bfloat: a float sum of llvm.fmuladd.f32, then
// llvm.fmuladd.bf16 into the output) on lavapipe: every bfloat word equals
// the reference's, bit for bit. A translation whose output is two bfloat
// ULP off is a mismatch: more than any choice of fusing could explain.
func TestEmulatorBFloatGemv(t *testing.T) {
	passesAndCatches(t, filepath.Join("testdata", "emulator", "bfloat_gemv.ll"), true, plantedFault{
		name:          "output two bfloat ULP off",
		old:           "%rbits = bitcast bfloat %r to i16",
		new:           "%rbits0 = bitcast bfloat %r to i16\n  %rbits = add i16 %rbits0, 2",
		inTranslation: true,
	})
}

package stages

import (
	"testing"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorSIMDMatrix judges simd_matrix.ll (simdgroup matrix loads from
// threadgroup and device memory, transposed and not, float and half
// multiply-accumulate, stores at a stride and transposed) on lavapipe
// against the reference's definitions (compiler/cpuref/simdmatrix.go): it
// passes.
func TestEmulatorSIMDMatrix(t *testing.T) {
	_, r := emuPasses(t, "testdata/emulator/simd_matrix.ll", nil)
	t.Logf("%s %v", r.Status, r.Data)
}

// TestEmulatorCatchesSwappedMatrixProduct plants b·a for a·b: the SPIR-V
// of simd_matrix_swapped.ll judged against simd_matrix.ll's AIR is a
// mismatch in D (buffer 1).
func TestEmulatorCatchesSwappedMatrixProduct(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "simd_matrix.ll", "simd_matrix_swapped.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || len(r.Detail) < 9 || r.Detail[:9] != "buffer 1 " {
		t.Fatalf("swapped product: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %q %s", r.Status, r.Detail, r.Message)
}

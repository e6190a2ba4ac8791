package stages

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/pipeline"
)

// TestSIMDOnDevice judges testdata/emulator/simd.ll through the device stage
// on a real GPU at the GPU's own subgroup size, and the planted
// simd_wrong.ll lowering against it. A GPU host may have no LLVM, so the same
// test binary runs twice: where LLVM is, AIRPIPE_SIMD_PRECOMPUTE=DIR (with
// AIRPIPE_SIMD_WIDTH, the GPU's width) stores the fixtures' bitcode and the
// reference in DIR's reference cache; on the GPU host AIRPIPE_SIMD_DEVICE=DIR
// judges from it. Without either it is skipped.
func TestSIMDOnDevice(t *testing.T) {
	ctx := context.Background()
	if dir := os.Getenv("AIRPIPE_SIMD_PRECOMPUTE"); dir != "" {
		emuNeed(t)
		w, err := strconv.Atoi(os.Getenv("AIRPIPE_SIMD_WIDTH"))
		if err != nil {
			t.Fatalf("AIRPIPE_SIMD_WIDTH: %v", err)
		}
		for _, f := range []string{"simd.ll", "simd_wrong.ll"} {
			m := emuModule(t, filepath.Join("testdata", "emulator", f))
			mustDo(t, os.WriteFile(filepath.Join(dir, f+".bc"), m.Bitcode, 0o644))
			if f == "simd.ll" {
				e := newEmulator(EmulatorOptions{ReferenceCache: filepath.Join(dir, "references"), SIMDWidth: w}, false)
				if _, err := e.reference(ctx, m); err != nil {
					t.Fatal(err)
				}
			}
		}
		return
	}
	dir := os.Getenv("AIRPIPE_SIMD_DEVICE")
	if dir == "" {
		t.Skip("neither AIRPIPE_SIMD_PRECOMPUTE nor AIRPIPE_SIMD_DEVICE is set")
	}
	load := func(f string) *Module {
		bc, err := os.ReadFile(filepath.Join(dir, f+".bc"))
		if err != nil {
			t.Fatal(err)
		}
		ir, err := bitcode.ReadModule(bc)
		if err != nil {
			t.Fatal(err)
		}
		eps, err := air.EntryPoints(ir)
		if err != nil || len(eps) != 1 {
			t.Fatalf("%s: %d entry points, %v", f, len(eps), err)
		}
		out, err := translate.Translate(ir, eps[0])
		if err != nil {
			t.Fatal(err)
		}
		return &Module{Bitcode: bc, SHA256: f, artifacts: artifacts{IR: ir, Translation: out}}
	}
	st := DeviceRun(DeviceOptions{Device: "auto", ReferenceCache: filepath.Join(dir, "references")})
	m := load("simd.ll")
	r := st.Run(ctx, m)
	t.Logf("simd.ll: %s %s %s %v", r.Status, r.Code, r.Message, r.Data)
	if r.Status != pipeline.Passed {
		t.Errorf("simd.ll: %s %s %s, want passed", r.Status, r.Code, r.Message)
	}
	m.Translation = load("simd_wrong.ll").Translation
	r = st.Run(ctx, m)
	t.Logf("simd_wrong.ll: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	if r.Status != pipeline.Failed || r.Detail != "buffer 1 word 4" {
		t.Errorf("simd_wrong.ll: %s %s %q, want a mismatch at buffer 1 word 4", r.Status, r.Code, r.Detail)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

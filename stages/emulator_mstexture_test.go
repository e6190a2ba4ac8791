package stages

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorMultisampleTexture judges texture_ms.ll on lavapipe: two multisample textures
// (cpuref.MSSamples samples, every sample the contract's texel) read per sample and queried
// for size and sample count.
func TestEmulatorMultisampleTexture(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, filepath.Join("testdata", "emulator", "texture_ms.ll"))
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("got %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
}

// TestEmulatorCatchesWrongSampleCount plants a lowering that takes the float texture's sample
// count as 2: the sum over samples is half the reference's.
func TestEmulatorCatchesWrongSampleCount(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "texture_ms.ll", "texture_ms_wrong.ll")
	if r.Status != pipeline.Failed || r.Code != CodeEmulatorMismatch || r.Detail != "buffer 0 word 0" {
		t.Fatalf("wrong sample count: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorMultisampleResidency: the residency form of a multisample read ({ texel, i8 })
// passes, and a translation that takes another texel component is caught.
func TestEmulatorMultisampleResidency(t *testing.T) {
	passesAndCatches(t, filepath.Join("testdata", "emulator", "texture_ms_resident.ll"), true,
		plantedFault{"the texel's component 1, not 2", "%uz0 = extractelement <4 x i32> %tu, i32 2", "%uz0 = extractelement <4 x i32> %tu, i32 1", true})
}

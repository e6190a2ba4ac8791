package stages

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorCubeWrite judges texture_cube_write.ll on lavapipe: two writable cube textures
// (6 faces of 4×4 texels, cpuref.StorageBytes("cube") bytes each) written by face and read back.
func TestEmulatorCubeWrite(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, filepath.Join("testdata", "emulator", "texture_cube_write.ll"))
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("got %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
}

// TestEmulatorCatchesSwappedCubeFace plants a lowering that writes the float texel to the next
// face: the texel the reference wrote keeps the contract's value on the device.
func TestEmulatorCatchesSwappedCubeFace(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "texture_cube_write.ll", "texture_cube_write_face.ll")
	if r.Status != pipeline.Failed || r.Code != CodeEmulatorMismatch || r.Detail != "texture 0 texel (0,0,0) component 0" {
		t.Fatalf("swapped face: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

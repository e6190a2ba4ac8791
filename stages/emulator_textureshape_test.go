package stages

import (
	"path/filepath"
	"testing"
)

// TestEmulatorTextureShapes judges fixtures of texture shapes on lavapipe,
// each passing, and a planted lowering of each, a mismatch where it says:
//   - texture_cube_write.ll: two writable cube textures (6 faces of 4×4
//     texels, cpuref.StorageBytes("cube") bytes each) written by face and
//     read back; planted, the float texel written to the next face (the
//     texel the reference wrote keeps the contract's value on the device);
//   - texture_ms.ll: two multisample textures (cpuref.MSSamples samples,
//     every sample the contract's texel) read per sample and queried for
//     size and sample count; planted, the float texture's sample count
//     taken as 2 (the sum over samples is half the reference's).
func TestEmulatorTextureShapes(t *testing.T) {
	emuNeed(t)
	for _, c := range []struct{ right, wrong, detail string }{
		{"texture_cube_write.ll", "texture_cube_write_face.ll", "texture 0 texel (0,0,0) component 0"},
		{"texture_ms.ll", "texture_ms_wrong.ll", "buffer 0 word 0"},
	} {
		if r := lowerings(t, c.right, c.wrong); r.Detail != c.detail {
			t.Errorf("%s: mismatch at %q, want %q", c.wrong, r.Detail, c.detail)
		}
	}
}

// TestEmulatorMultisampleResidency: the residency form of a multisample read ({ texel, i8 })
// passes, and a translation that takes another texel component is caught.
func TestEmulatorMultisampleResidency(t *testing.T) {
	passesAndCatches(t, filepath.Join("testdata", "emulator", "texture_ms_resident.ll"), true,
		plantedFault{"the texel's component 1, not 2", "%uz0 = extractelement <4 x i32> %tu, i32 2", "%uz0 = extractelement <4 x i32> %tu, i32 1", true})
}

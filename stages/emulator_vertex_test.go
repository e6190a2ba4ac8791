package stages

import (
	"path/filepath"
	"testing"
)

// TestEmulatorVertexWithoutOutputs: a vertex function that returns nothing
// and writes a buffer runs without transform feedback and passes; a
// translation that scales by 3 instead of 2 is caught.
func TestEmulatorVertexWithoutOutputs(t *testing.T) {
	passesAndCatches(t, filepath.Join("testdata", "emulator", "vertex_buffer_only.ll"), true,
		plantedFault{"the attribute scaled by 3, not 2", "%x2 = fmul float %x, 2.0", "%x2 = fmul float %x, 3.0", true})
}

package stages

import (
	"strings"
	"testing"
)

// TestEmulatorTextureObjects runs textures and samplers that travel as
// objects through lavapipe against the CPU reference, and plants the fault a
// wrong object binding would make, each a mismatch where it says:
//   - passed by value to a helper (compiler/translate objects.go), the
//     helper's first call given the textures in the other order;
//   - the translator's texture-object fixture (a struct of a texture and a
//     constant-buffer pointer, an array of two textures, nested
//     extractvalue) run as a kernel, the array's two fields swapped (what
//     binding field 0 to field 1's texture would compute);
//   - kept in a shader object in private memory (compiler/translate
//     slots.go), the textures stored to its two texture members swapped
//     (what a slot bound to the wrong member would compute).
func TestEmulatorTextureObjects(t *testing.T) {
	// texture_slots.ll's lines between its stores to members 0 and 2.
	const slotsBetween = "  %f1 = getelementptr inbounds %struct.Ctx, ptr %ctx, i64 0, i32 1, i32 0\n  store ptr addrspace(2) %smp, ptr %f1, align 8\n" +
		"  %f2 = getelementptr inbounds %struct.Ctx, ptr %ctx, i64 0, i32 2, i32 0\n  "
	for _, c := range []struct {
		fixture   string
		wantWords bool
		textures  string // what the pass's "textures" says
		fault     plantedFault
		detail    string // where the mismatch starts
	}{
		{"testdata/emulator/texture_object.ll", false, "2 texture(s) [0 2d f, 3 2d f], 1 sampler(s)", plantedFault{name: "objects swapped in a call", inTranslation: true,
			old: `call <4 x float> @shade(%"struct.metal::texture2d" %oa, %"struct.metal::texture2d" %ob,`,
			new: `call <4 x float> @shade(%"struct.metal::texture2d" %ob, %"struct.metal::texture2d" %oa,`},
			"render target 0 pixel (0,0) component 0"},
		{"../compiler/translate/testdata/texture_object.ll", true, "3 texture(s) [1 2d u, 2 2d u, 5 2d u]", plantedFault{name: "array fields swapped", inTranslation: true,
			old: "ptr addrspace(1) %t2, 0, 0\n  %pair = insertvalue [2 x %\"struct.metal::texture2d\"] %pa, ptr addrspace(1) %t5, 1, 0",
			new: "ptr addrspace(1) %t2, 1, 0\n  %pair = insertvalue [2 x %\"struct.metal::texture2d\"] %pa, ptr addrspace(1) %t5, 0, 0"},
			"buffer "},
		{"../compiler/translate/testdata/texture_slots.ll", false, "2 texture(s) [0 2d f, 3 2d f], 1 sampler(s)", plantedFault{name: "slot members swapped", inTranslation: true,
			old: "store ptr addrspace(1) %a, ptr %f0, align 8\n" + slotsBetween + "store ptr addrspace(1) %b, ptr %f2, align 8\n",
			new: "store ptr addrspace(1) %b, ptr %f0, align 8\n" + slotsBetween + "store ptr addrspace(1) %a, ptr %f2, align 8\n"},
			"render target 0 pixel (0,0) component 0"},
	} {
		t.Run(c.fault.name, func(t *testing.T) {
			passed, caught := passesAndCatches(t, c.fixture, c.wantWords, c.fault)
			if !strings.Contains(passed.Data["textures"], c.textures) {
				t.Errorf("textures %q, want %q", passed.Data["textures"], c.textures)
			}
			if !strings.HasPrefix(caught.Detail, c.detail) {
				t.Errorf("mismatch at %q, want %q", caught.Detail, c.detail)
			}
		})
	}
}

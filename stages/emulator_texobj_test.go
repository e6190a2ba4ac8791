package stages

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorTextureObjects runs textures and a sampler passed by value to
// a helper (compiler/translate objects.go) through lavapipe against the CPU
// reference, and plants the fault a wrong object binding would make: the
// helper's first call given the textures in the other order, translated and
// judged against the right module's reference, is a mismatch at render
// target 0.
func TestEmulatorTextureObjects(t *testing.T) {
	emuNeed(t)
	right := emuModule(t, "testdata/emulator/texture_object.ll")
	r := Emulator(EmulatorOptions{}).Run(context.Background(), right)
	if r.Status != pipeline.Passed || !strings.Contains(r.Data["textures"], "2 texture(s) [0 2d f, 3 2d f], 1 sampler(s)") {
		t.Fatalf("right lowering: %s %s %s %v", r.Status, r.Code, r.Message, r.Data)
	}
	wrong := emuModule(t, "testdata/emulator/texture_object_swapped.ll")
	swapped := *right
	swapped.Translation = wrong.Translation
	r = Emulator(EmulatorOptions{}).Run(context.Background(), &swapped)
	if r.Status != pipeline.Failed || r.Code != CodeEmulatorMismatch || r.Detail != "render target 0 pixel (0,0) component 0" {
		t.Fatalf("swapped objects: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorTextureObjectKernel runs the translator's texture-object
// fixture (a struct of a texture and a constant-buffer pointer, an array of
// two textures, nested extractvalue) as a kernel through lavapipe against
// the CPU reference; the same module with the array's two fields planted
// swapped (what binding field 0 to field 1's texture would compute) is a
// mismatch at the output buffer.
func TestEmulatorTextureObjectKernel(t *testing.T) {
	emuNeed(t)
	const fixture = "../compiler/translate/testdata/texture_object.ll"
	right := emuModule(t, fixture)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), right)
	if r.Status != pipeline.Passed || !strings.Contains(r.Data["textures"], "3 texture(s) [1 2d u, 2 2d u, 5 2d u]") ||
		r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("right lowering: %s %s %s %v", r.Status, r.Code, r.Message, r.Data)
	}
	t.Logf("right: %s words compared, %s written", r.Data["words_compared"], r.Data["words_written"])
	text, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer("ptr addrspace(1) %t2, 0, 0", "ptr addrspace(1) %t2, 1, 0",
		"ptr addrspace(1) %t5, 1, 0", "ptr addrspace(1) %t5, 0, 0").Replace(string(text))
	if s == string(text) {
		t.Fatal("the planted swap changed nothing")
	}
	path := filepath.Join(t.TempDir(), "swapped.ll")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	swapped := *right
	swapped.Translation = emuModule(t, path).Translation
	r = Emulator(EmulatorOptions{}).Run(context.Background(), &swapped)
	if r.Status != pipeline.Failed || r.Code != CodeEmulatorMismatch || !strings.HasPrefix(r.Detail, "buffer ") {
		t.Fatalf("swapped fields: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("swapped: %s %s", r.Detail, r.Message)
}

// TestEmulatorTextureSlots runs textures and a sampler kept in a shader
// object in private memory (compiler/translate slots.go) through lavapipe
// against the CPU reference; the same module with the two texture members
// planted swapped (what a slot bound to the wrong member would compute) is
// a mismatch at render target 0.
func TestEmulatorTextureSlots(t *testing.T) {
	emuNeed(t)
	const fixture = "../compiler/translate/testdata/texture_slots.ll"
	right := emuModule(t, fixture)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), right)
	if r.Status != pipeline.Passed || !strings.Contains(r.Data["textures"], "2 texture(s) [0 2d f, 3 2d f], 1 sampler(s)") {
		t.Fatalf("right lowering: %s %s %s %v", r.Status, r.Code, r.Message, r.Data)
	}
	text, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer("ptr %ctx, i64 0, i32 0, i32 0", "ptr %ctx, i64 0, i32 2, i32 0",
		"ptr %ctx, i64 0, i32 2, i32 0", "ptr %ctx, i64 0, i32 0, i32 0").Replace(string(text))
	if s == string(text) {
		t.Fatal("the planted swap changed nothing")
	}
	path := filepath.Join(t.TempDir(), "swapped.ll")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	swapped := *right
	swapped.Translation = emuModule(t, path).Translation
	r = Emulator(EmulatorOptions{}).Run(context.Background(), &swapped)
	if r.Status != pipeline.Failed || r.Code != CodeEmulatorMismatch || r.Detail != "render target 0 pixel (0,0) component 0" {
		t.Fatalf("swapped members: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

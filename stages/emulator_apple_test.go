package stages

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorPack565 judges apple_pack565.ll (pack_half_to_unorm565,
// air.pack.unorm.rgb565.v3f16) on lavapipe against the reference's own
// definition (compiler/cpuref/pack565.go): it passes. The same SPIR-V
// judged against the AIR with the lanes packed in the other order (blue in
// the low bits) is a mismatch: the check can fail.
func TestEmulatorPack565(t *testing.T) {
	emuNeed(t)
	const fixture = "../compiler/translate/testdata/apple_pack565.ll"
	m := emuModule(t, fixture)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("apple_pack565.ll: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)

	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	swapped := strings.Replace(string(src), "  %w = call i16 @air.pack.unorm.rgb565.v3f16(<3 x half> %v)",
		"  %bgr = shufflevector <3 x half> %v, <3 x half> poison, <3 x i32> <i32 2, i32 1, i32 0>\n  %w = call i16 @air.pack.unorm.rgb565.v3f16(<3 x half> %bgr)", 1)
	if swapped == string(src) {
		t.Fatal("the fixture's pack call was not found")
	}
	wrong := filepath.Join(t.TempDir(), "apple_pack565_bgr.ll")
	if err := os.WriteFile(wrong, []byte(swapped), 0o644); err != nil {
		t.Fatal(err)
	}
	m = emuModule(t, wrong)
	m.Translation = emuModule(t, fixture).Translation
	r = Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != CodeEmulatorMismatch {
		t.Fatalf("lanes packed in the other order: %s %s %q %s, want a mismatch", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %q %s", r.Status, r.Detail, r.Message)
}

// TestEmulatorNullTexture judges apple_null_texture.ll (is_null_texture of
// a bound texture, then a read of it) on lavapipe against the reference,
// whose is_null_texture is a null-pointer test (compiler/cpuref
// nulltexture.go): it passes. The same AIR judged against a translation
// that answers true (the kernel's 7.0 branch) is a mismatch.
func TestEmulatorNullTexture(t *testing.T) {
	emuNeed(t)
	const fixture = "../compiler/translate/testdata/apple_null_texture.ll"
	m := emuModule(t, fixture)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed {
		t.Fatalf("apple_null_texture.ll: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	swapped := strings.Replace(string(src), "  br i1 %null, label %none, label %read", "  br i1 %null, label %read, label %none", 1)
	if swapped == string(src) {
		t.Fatal("the fixture's branch was not found")
	}
	wrong := filepath.Join(t.TempDir(), "apple_null_texture_true.ll")
	if err := os.WriteFile(wrong, []byte(swapped), 0o644); err != nil {
		t.Fatal(err)
	}
	m.Translation = emuModule(t, wrong).Translation
	r = Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != CodeEmulatorMismatch {
		t.Fatalf("is_null_texture answered true: %s %s %q %s, want a mismatch", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %q %s", r.Status, r.Detail, r.Message)
}

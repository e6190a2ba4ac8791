package stages

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// plantedFault is a fixture edit that breaks a lowering on purpose: old is
// replaced by new in the fixture, and the edited module stands in for the
// translation (inTranslation) or for the AIR the reference runs.
type plantedFault struct {
	name, old, new string
	inTranslation  bool
}

// passesAndCatches judges fixture on lavapipe against the CPU reference
// (it must pass, writing words when wantWords), then judges it with the
// planted fault: a mismatch, so the check can fail. It returns both
// verdicts for the caller to check what they say.
func passesAndCatches(t *testing.T, fixture string, wantWords bool, f plantedFault) (passed, caught pipeline.Result) {
	t.Helper()
	emuNeed(t)
	m := emuModule(t, fixture)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || wantWords && (r.Data["words_written"] == "" || r.Data["words_written"] == "0") {
		t.Fatalf("%s: %s %s %q %s %v", filepath.Base(fixture), r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
	c := plantedResult(t, fixture, f)
	if c.Status != pipeline.Failed || c.Code != codes.EmulatorMismatch {
		t.Fatalf("%s: %s %s %q %s, want a mismatch", f.name, c.Status, c.Code, c.Detail, c.Message)
	}
	t.Logf("%s %q %s", c.Status, c.Detail, c.Message)
	return r, c
}

// plantedResult judges fixture with the planted fault on lavapipe.
func plantedResult(t *testing.T, fixture string, f plantedFault) pipeline.Result {
	t.Helper()
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), f.old, f.new, 1)
	if edited == string(src) {
		t.Fatalf("%s: the planted fault's text is not in the fixture", f.name)
	}
	wrong := filepath.Join(t.TempDir(), "planted.ll")
	if err := os.WriteFile(wrong, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	m := emuModule(t, fixture)
	if f.inTranslation {
		m.Translation = emuModule(t, wrong).Translation
	} else {
		good := m.Translation
		m = emuModule(t, wrong)
		m.Translation = good
	}
	return Emulator(EmulatorOptions{}).Run(context.Background(), m)
}

// TestEmulatorPack565 judges apple_pack565.ll (pack_half_to_unorm565,
// air.pack.unorm.rgb565.v3f16) on lavapipe against the reference's own
// definition (compiler/cpuref/pack565.go): it passes. The same SPIR-V
// judged against the AIR with the lanes packed in the other order (blue in
// the low bits) is a mismatch: the check can fail.
func TestEmulatorPack565(t *testing.T) {
	passesAndCatches(t, "../compiler/translate/testdata/apple_pack565.ll", true, plantedFault{
		name: "lanes packed in the other order",
		old:  "  %w = call i16 @air.pack.unorm.rgb565.v3f16(<3 x half> %v)",
		new:  "  %bgr = shufflevector <3 x half> %v, <3 x half> poison, <3 x i32> <i32 2, i32 1, i32 0>\n  %w = call i16 @air.pack.unorm.rgb565.v3f16(<3 x half> %bgr)",
	})
}

// TestEmulatorNullTexture judges apple_null_texture.ll (is_null_texture of
// a bound texture, then a read of it) on lavapipe against the reference,
// whose is_null_texture is a null-pointer test (compiler/cpuref
// nulltexture.go): it passes. The same AIR judged against a translation
// that answers true (the kernel's 7.0 branch) is a mismatch.
func TestEmulatorNullTexture(t *testing.T) {
	passesAndCatches(t, "../compiler/translate/testdata/apple_null_texture.ll", false, plantedFault{
		name:          "is_null_texture answered true",
		old:           "  br i1 %null, label %none, label %read",
		new:           "  br i1 %null, label %read, label %none",
		inTranslation: true,
	})
}

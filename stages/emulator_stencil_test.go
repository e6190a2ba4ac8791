package stages

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorStencil judges stencil.ll (a colour output and an air.stencil
// output, 16·x + 3·y + 7 per pixel) on lavapipe: the stencil aspect read
// back equals the reference's value at every pixel. A translation whose
// stencil reference is one more (or whose x factor is 17) is a mismatch at
// a stencil pixel.
func TestEmulatorStencil(t *testing.T) {
	fixture := filepath.Join("testdata", "emulator", "stencil.ll")
	for _, f := range []plantedFault{
		{name: "stencil one more", old: "%s = add i32 %sxy, 7", new: "%s = add i32 %sxy, 8", inTranslation: true},
		{name: "x factor 17", old: "%sx = mul i32 %ux, 16", new: "%sx = mul i32 %ux, 17", inTranslation: true},
	} {
		t.Run(f.name, func(t *testing.T) { passesAndCatches(t, fixture, true, f) })
	}
	m := emuModule(t, fixture)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if !strings.HasPrefix(r.Data["stencil"], "compared") {
		t.Errorf("data stencil = %q", r.Data["stencil"])
	}
}

// TestEmulatorStencilAboveByte: with stencil.ll's x factor 100 the
// references reach 307, above the 255 Metal's 8-bit stencil formats hold,
// and the specification does not say how a larger value is narrowed: the
// module is unjudged by name, never compared.
func TestEmulatorStencilAboveByte(t *testing.T) {
	emuNeed(t)
	src, err := os.ReadFile(filepath.Join("testdata", "emulator", "stencil.ll"))
	if err != nil {
		t.Fatal(err)
	}
	wide := filepath.Join(t.TempDir(), "stencil_wide.ll")
	if err := os.WriteFile(wide, []byte(strings.Replace(string(src), "mul i32 %ux, 16", "mul i32 %ux, 100", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Emulator(EmulatorOptions{}).Run(context.Background(), emuModule(t, wide))
	if r.Status != pipeline.Unjudged || r.Detail != "stencil above 255" || !strings.Contains(r.Message, "stencil reference 307 at stencil pixel (3,0)") {
		t.Fatalf("%s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
}

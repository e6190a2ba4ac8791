package stages

import (
	"context"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorPack judges pack.ll (Metal's unorm/snorm pack and unpack
// functions, float and half) on lavapipe against the reference's own
// definitions (compiler/cpuref/packops.go): it passes.
func TestEmulatorPack(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/pack.ll")
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("pack.ll: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
}

// TestEmulatorCatchesInexactUnpack plants unpack_unorm4x8_to_float lowered
// as c · (1/255), one rounding too many: the reference's correctly rounded
// c / 255 differs on the pattern's bytes, a mismatch in buffer 1.
func TestEmulatorCatchesInexactUnpack(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "pack.ll", "pack_wrong.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Detail, "buffer 1 ") {
		t.Fatalf("inexact unpack: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %q %s", r.Status, r.Detail, r.Message)
}

package stages

import (
	"context"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorDiscard judges discard.ll on lavapipe: the pixels it discards
// keep the attachments' clear values in the draw and Clear in the reference
// (compiler/cpuref/discard.go), the others are compared as written: it passes.
func TestEmulatorDiscard(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/discard.ll")
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("discard.ll: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
}

// TestEmulatorCatchesDroppedDiscard plants a translation that drops the
// discard (discard_none.ll's SPIR-V for discard.ll's AIR): the odd pixels
// the draw writes are a render-target mismatch.
func TestEmulatorCatchesDroppedDiscard(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "discard.ll", "discard_none.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Detail, "render target ") {
		t.Fatalf("dropped discard: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %q %s", r.Status, r.Detail, r.Message)
}

package stages

import (
	"context"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorBlend: a fragment function reading its colour attachments (programmable
// blending) is drawn on lavapipe with each attachment holding its known destination
// (cpuref.DestinationWords) and judged against the reference, which passes the same
// destination as the parameters; a render target read but not written is drawn too.
func TestEmulatorBlend(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/blend.ll")
	if n := len(m.Translation.Reflection.InputAttachments); n != 4 {
		t.Fatalf("%d input attachments in the reflection, want 4", n)
	}
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed {
		t.Fatalf("got %s %s %q (%s), want passed", r.Status, r.Code, r.Detail, r.Message)
	}
	if r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("passed without a written word: %v", r.Data)
	}
	t.Logf("%s %v", r.Message, r.Data)
}

// TestEmulatorCatchesBlendFaults plants two faults: the translation of a function whose
// inputs read attachments 0 and 2 swapped (a wrong InputAttachmentIndex), judged against the
// right AIR; and a draw whose attachment holds another destination than the reference
// passed. Each must be a mismatch at a render target.
func TestEmulatorCatchesBlendFaults(t *testing.T) {
	emuNeed(t)
	r := plantedLowering(t, "blend.ll", "blend_swapped.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Detail, "render target 0 pixel (0,0)") {
		t.Fatalf("swapped attachments: got %s %s %q (%s), want a mismatch at render target 0", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Log(r.Message)

	m := emuModule(t, "testdata/emulator/blend.ll")
	ref, dev := referenceAndLavapipe(t, m, "blend")
	dq := drawOf(t, m, ref)
	if dq.Targets[1].Clear != cpuref.DestinationWords(1, 'u') || !dq.Targets[1].Input {
		t.Fatalf("target 1 is %+v, want an input holding DestinationWords(1, 'u')", dq.Targets[1])
	}
	dq.Targets[1].Clear[0]++ // the attachment holds a destination other than the reference's
	got, res := dispatchOn(dev, m.Translation.SPIRV, m.Translation.Entry, ref, dq)
	if got == nil {
		t.Fatalf("draw: %s %s", res.Code, res.Message)
	}
	r = compare(ref, got)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "render target 1 pixel (0,0) component 0" {
		t.Fatalf("wrong destination: got %s %s %q (%s), want a mismatch at render target 1 pixel (0,0) component 0", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Log(r.Message)
}

// TestEmulatorGatherHalf: a gather on a half texture passes on lavapipe against the
// reference (every lane the uniform texel's component, rounded to half), and the same
// function lowered to gather another component is caught.
func TestEmulatorGatherHalf(t *testing.T) {
	_, r := emuPasses(t, "testdata/emulator/gather_half.ll", nil)
	r = plantedLowering(t, "gather_half.ll", "gather_half_wrong.ll")
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Detail != "render target 0 pixel (0,0) component 0" {
		t.Fatalf("wrong component: got %s %s %q (%s), want a mismatch at render target 0 pixel (0,0) component 0", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Log(r.Message)
}

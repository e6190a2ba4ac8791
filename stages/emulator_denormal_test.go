package stages

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorDenormals: in a module compiled with denormals disabled, a
// GPU may flush a float denormal or keep it (MSL §8.5); the reference
// flushes, lavapipe keeps. denormal.ll's even threads pass through a
// denormal: lavapipe's answer is a mismatch against the flushing reference
// alone (the false red this judges away) and a pass against the one that
// keeps denormals, which the data names; a third value at such a word is
// unjudged (emulator/denormal-dependent), never passed; a wrong lowering
// at the odd threads' words, which no denormal reaches, stays a mismatch.
func TestEmulatorDenormals(t *testing.T) {
	emuNeed(t)
	w := lowerings(t, "denormal.ll", "denormal_wrong.ll")
	// The mismatch stands at the flushing reference's first differing
	// word; the denormal-keeping reference differs first at an odd
	// thread's word, where every reference agrees.
	var odd int
	if _, err := fmt.Sscanf(w.Data["denormal_reference"], "differs too: buffer 1 word %d", &odd); err != nil || odd%2 != 1 {
		t.Errorf("the denormal-keeping reference found %q, want an odd thread's word of buffer 1", w.Data["denormal_reference"])
	}
	m := emuModule(t, "testdata/emulator/denormal.ll")
	e := newEmulator(EmulatorOptions{ReferenceCache: t.TempDir()}, false)
	ctx := context.Background()
	ref, err := e.reference(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	q, v, ok := harness.Prepare(e.opts.Device, m.SHA256, m.Translation, ref)
	if !ok {
		t.Fatalf("%+v", v)
	}
	rep := e.h.Run(ctx, q)
	if rep.Buffers == nil {
		t.Fatalf("%+v", rep.Verdict)
	}
	got := rep.Buffers
	if r := compare(ref, got); r.Code != codes.EmulatorMismatch || r.Detail != "buffer 1 word 0" {
		t.Fatalf("lavapipe against the flushing reference alone: %s %q %s, want a mismatch at buffer 1 word 0 (does this lavapipe flush denormals?)", r.Code, r.Detail, r.Message)
	}
	pass := e.h.Judge(ctx, harnessModule(m), ref, got)
	if r := judged(pass); r.Status != pipeline.Passed || !strings.HasPrefix(r.Data["reference"], "denormals kept") {
		t.Fatalf("lavapipe's answer: %s %q %s %v, want a pass against the denormal-keeping reference", r.Status, r.Detail, r.Message, r.Data)
	}
	if pass.Against == nil || !pass.Against.DenormalsPreserved {
		t.Fatalf("the pass does not name the denormal-keeping reference it was reached against: %+v", pass.Against)
	}
	third := map[int][]byte{}
	for i, b := range got {
		third[i] = append([]byte(nil), b...)
	}
	third[1][0] ^= 1 // neither 0 nor 2^-40: some operations flushing, others not
	r := judged(e.h.Judge(ctx, harnessModule(m), ref, third))
	if r.Status != pipeline.Unjudged || r.Code != codes.EmulatorDenormalDependent || r.Detail != "buffer 1 word 0" || r.Data["denormal_words"] != "1" {
		t.Fatalf("a third value at a denormal-dependent word: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
}

package stages

import (
	"context"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
	"github.com/airpipe/airpipe/stages/approxtrace"
)

// TestEmulatorApproximateSubstituted judges approx.ll (fast pow, fast
// sqrt, fast sin, a half exp2, then exact arithmetic) on lavapipe with
// the device's approximate results substituted into the reference: it
// passes in its own class, judged on the traced run's outputs (the device
// stage runs the translation as it is and agrees). An exact operation lowered wrong is still a
// mismatch (every call answered from the records; the unmatched case is
// approxtrace's TestAnnotate).
func TestEmulatorApproximateSubstituted(t *testing.T) {
	emuNeed(t)
	const fixture = "testdata/emulator/approx.ll"
	m := emuModule(t, fixture)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["pass_class"] != approxtrace.PassClass || r.Data["approximate_calls"] != "64" || r.Data["approximate_substituted"] != "64" ||
		r.Data["approximate"] != "air.fast_exp2.v2f16,air.fast_pow.f32,air.fast_sin.f32,air.fast_sqrt.f32" || r.Data["judged_run"] != JudgedTracedRun {
		t.Fatalf("%s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Log(r.Data)
	// The device stage runs the translation as it is, after the traced
	// run: the same verdict and output.
	if rd := newEmulator(EmulatorOptions{}, true).run(context.Background(), emuModule(t, fixture)); rd.Status != pipeline.Passed || rd.Data["judged_run"] != "" ||
		rd.Data["output_sha256"] != r.Data["output_sha256"] || rd.Data["pass_class"] != approxtrace.PassClass {
		t.Fatalf("the device stage's emulator: %s %s %q %s %v", rd.Status, rd.Code, rd.Detail, rd.Message, rd.Data)
	}
	// Through a reference cache: the provisional reference is stored with
	// its program, and a second run (the cached substituted reference, or
	// the program run again) reaches the same verdict and output.
	cache := t.TempDir()
	for i := range 2 {
		rc := Emulator(EmulatorOptions{ReferenceCache: cache}).Run(context.Background(), emuModule(t, fixture))
		if rc.Status != pipeline.Passed || rc.Data["output_sha256"] != r.Data["output_sha256"] || rc.Data["pass_class"] != approxtrace.PassClass {
			t.Fatalf("run %d with a reference cache: %s %s %q %s %v", i, rc.Status, rc.Code, rc.Detail, rc.Message, rc.Data)
		}
	}
	cases := []struct {
		fault  plantedFault
		status pipeline.Status
		code   codes.Code
	}{
		{plantedFault{"exact subtraction lowered as an addition", "%r = fsub float %m, %n", "%r = fadd float %m, %n", true}, pipeline.Failed, codes.EmulatorMismatch},
	}
	for _, c := range cases {
		r := plantedResult(t, fixture, c.fault)
		if r.Status != c.status || r.Code != c.code {
			t.Errorf("%s: %s %s %q %s %v, want %s %s", c.fault.name, r.Status, r.Code, r.Detail, r.Message, r.Data, c.status, c.code)
		}
		t.Logf("%s: %s %s %q %s", c.fault.name, r.Status, r.Code, r.Detail, r.Message)
	}
}

// TestEmulatorApproximateDraws: a fragment function's approximate calls
// are traced pixel by pixel, a vertex function's vertex by vertex, and
// substituted; each passes in its own class on its traced run's outputs, and a wrong exact operation
// beside them is caught.
func TestEmulatorApproximateDraws(t *testing.T) {
	emuNeed(t)
	cases := []struct {
		fixture, calls string
		fault          plantedFault
	}{
		{"testdata/emulator/fragment_approx.ll", "64", plantedFault{"sqrt's result scaled by 2, not 3", "%s3 = fmul float %s, 3.0", "%s3 = fmul float %s, 2.0", true}},
		{"testdata/emulator/vertex_approx.ll", "9", plantedFault{"exp2's result quartered, not halved", "%eh = fmul float %e, 0.5", "%eh = fmul float %e, 0.25", true}},
	}
	for _, c := range cases {
		m := emuModule(t, c.fixture)
		r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
		if r.Status != pipeline.Passed || r.Data["pass_class"] != approxtrace.PassClass || r.Data["approximate_calls"] != c.calls || r.Data["approximate_substituted"] != c.calls ||
			r.Data["judged_run"] != JudgedTracedRun {
			t.Fatalf("%s: %s %s %q %s %v", c.fixture, r.Status, r.Code, r.Detail, r.Message, r.Data)
		}
		t.Log(r.Data)
		if r := plantedResult(t, c.fixture, c.fault); r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch {
			t.Errorf("%s: %s %s %q %s %v", c.fault.name, r.Status, r.Code, r.Detail, r.Message, r.Data)
		}
	}
}

// TestEmulatorDivision judges division.ll (a fast-math x / 3 + 1 and a
// precise x / 7) on lavapipe, which divides exactly: a bit-exact pass,
// no trace needed. An exact operation after the fast division lowered
// wrong differs from the exact reference; judged again traced, every
// quotient is correctly rounded, so the mismatch stands, saying so.
func TestEmulatorDivision(t *testing.T) {
	emuNeed(t)
	const fixture = "testdata/emulator/division.ll"
	r := Emulator(EmulatorOptions{}).Run(context.Background(), emuModule(t, fixture))
	if r.Status != pipeline.Passed || r.Data["pass_class"] != "" || r.Data["approximate"] != "" {
		t.Fatalf("%s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	f := plantedFault{"the addition after the fast division lowered as a subtraction", "%q = fadd float %q0, 1.0", "%q = fsub float %q0, 1.0", true}
	r = plantedResult(t, fixture, f)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || r.Data["approximate"] != "fdiv.f32" || !strings.Contains(r.Data["approximate_divisions"], "stands") {
		t.Fatalf("%s: %s %s %q %s %v", f.name, r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s: %s %q %s %v", f.name, r.Code, r.Detail, r.Message, r.Data)
}

// TestEmulatorApproximateDiscard: a fragment function that calls pow and
// then discards half its pixels has every call recorded, the discarded
// pixels' included (the trace's count is written before the invocation
// becomes a helper, whose stores are not performed), so the reference takes
// the device's result for all 16 and passes in its own class.
func TestEmulatorApproximateDiscard(t *testing.T) {
	emuNeed(t)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), emuModule(t, "testdata/emulator/fragment_approx_discard.ll"))
	if r.Status != pipeline.Passed || r.Data["pass_class"] != approxtrace.PassClass || r.Data["approximate_calls"] != "16" || r.Data["approximate_substituted"] != "16" ||
		r.Data["trace_records"] != "16" || r.Data["judged_run"] != JudgedTracedRun {
		t.Fatalf("%s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
}

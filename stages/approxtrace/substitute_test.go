package approxtrace

import (
	"context"
	"errors"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestSubstitute runs the fixture's whole flow on lavapipe: the reference
// sets it aside for its approximate calls, and Substitute returns the
// reference with every call answered from the device's records. Without a
// module to trace, the set-aside verdict stands, saying why.
func TestSubstitute(t *testing.T) {
	m, ep, bc := fixtureBitcode(t)
	if _, err := device.FactsOf("lavapipe"); err != nil {
		t.Skipf("lavapipe: %v", err)
	}
	ctx := context.Background()
	h := harness.New(harness.Options{Device: "lavapipe"})
	hm := harness.Module{SHA256: "approx", Bitcode: bc, Entry: ep.Function.Name, Stage: air.Kernel}
	_, err := h.Reference(ctx, hm, false)
	var nj *cpuref.NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != cpuref.KindApproximate {
		t.Fatalf("the reference: %v, want the approximate kind", err)
	}
	tr, r := Substitute(ctx, h, hm, m, ep, nj, false)
	if tr == nil {
		t.Fatalf("no traced reference: %+v", r)
	}
	if s := tr.Reference.Substituted; s == nil || s.Calls == 0 || s.Unmatched() != 0 || tr.Mode.Substitution == nil || tr.Outcome.Report.Records != 48 {
		t.Fatalf("traced %+v, substituted %+v", tr.Mode, tr.Reference.Substituted)
	}
	tr, r = Substitute(ctx, h, hm, nil, air.EntryPoint{}, nj, false)
	if tr != nil || r.Status != pipeline.Unjudged || r.Code != codes.EmulatorNoReference || r.Data["approximate_substitution"] != "no entry point to trace" {
		t.Fatalf("without a module: %+v %+v", tr, r)
	}
}

// TestNoReference: the detail is the reason's kind and thing, the message
// starts with it, and every blocker is a finding.
func TestNoReference(t *testing.T) {
	cases := []struct {
		nj      cpuref.NotJudgeableError
		detail  string
		message string
		missing []string
	}{
		{cpuref.NotJudgeableError{Kind: "texture", Detail: "air.sample", Reason: "no sampler"}, "texture air.sample", "texture air.sample: no sampler", []string{"texture air.sample"}},
		{cpuref.NotJudgeableError{Kind: "undefined-value", Reason: "undef", Also: []string{"texture air.read"}}, "undefined-value", "undefined-value: undef", []string{"undefined-value", "texture air.read"}},
	}
	for _, c := range cases {
		r := NoReference(&c.nj)
		if r.Status != pipeline.Unjudged || r.Code != codes.EmulatorNoReference || r.Detail != c.detail || r.Message != c.message || len(r.Missing) != len(c.missing) {
			t.Errorf("%+v: %+v", c.nj, r)
			continue
		}
		for i, f := range r.Missing {
			if f.Code != codes.EmulatorNoReference || f.Detail != c.missing[i] {
				t.Errorf("%+v: finding %d %+v, want %s", c.nj, i, f, c.missing[i])
			}
		}
	}
}

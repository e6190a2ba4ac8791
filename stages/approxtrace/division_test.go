package approxtrace

import (
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestDivisionSubstituted runs division.ll (a fast x / 3 and a precise
// x / 7) traced on lavapipe: only the fast division is recorded, every
// quotient correctly rounded. A device whose fast quotient is one ulp off
// (planted in the record and the output alike) differs from the exact
// reference — the false red — but passes against the reference with its
// quotients substituted, in the approximate-substituted class; three ulp
// off is beyond Table 8.2's 2.5 ulp, a mismatch naming the division.
func TestDivisionSubstituted(t *testing.T) {
	m, ep, bc := fixtureNamed(t, "testdata/division.ll")
	if _, err := device.FactsOf("lavapipe"); err != nil {
		t.Skipf("lavapipe: %v", err)
	}
	ctx := context.Background()
	h := harness.New(harness.Options{Device: "lavapipe"})
	hm := harness.Module{SHA256: "division", Bitcode: bc, Entry: ep.Function.Name, Stage: air.Kernel}
	exact, err := h.Reference(ctx, hm, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(exact.Divisions, ",") != "fdiv.f32" {
		t.Fatalf("divisions %v", exact.Divisions)
	}
	prov, err := h.ReferenceIn(ctx, hm, harness.Mode{Provisional: true})
	if err != nil {
		t.Fatal(err)
	}
	p, why := PrepareFor(m, ep, prov)
	if p == nil {
		t.Fatal(why)
	}
	if len(p.Trace.Ops) != 1 || p.Trace.Ops[0].Name != "fdiv.f32" {
		t.Fatalf("traced %+v: the precise division is not approximate", p.Trace.Ops)
	}
	q, v, ok := harness.Prepare(h.Device(), hm.SHA256, p.Output, p.Reference)
	if !ok {
		t.Fatal(v.Message)
	}
	rep := h.Run(ctx, q)
	if rep.Buffers == nil {
		t.Fatal(rep.Verdict.Message)
	}
	o, err := p.Read(rep.Buffers)
	if err != nil {
		t.Fatal(err)
	}
	if o.Report.Records != p.Invocations || !o.Report.CorrectlyRounded() {
		t.Fatalf("lavapipe's trace %+v: want one correctly rounded quotient a thread", o.Report)
	}
	// The invocation to perturb: one whose quotient is a normal float.
	inv := -1
	for i := range p.Invocations {
		x := math.Float32frombits(binary.LittleEndian.Uint32(prov.Inputs[0].Bytes[4*i:]))
		if q := x / 3; !math.IsNaN(float64(q)) && !math.IsInf(float64(q), 0) && math.Abs(float64(q)) > 0x1p-100 && math.Abs(float64(q)) < 0x1p100 {
			inv = i
			break
		}
	}
	if inv < 0 {
		t.Fatal("no invocation with a normal quotient")
	}
	for _, c := range []struct {
		ulps   uint32
		status pipeline.Status
	}{{1, pipeline.Passed}, {3, pipeline.Failed}} {
		got := map[int][]byte{}
		for k, b := range rep.Buffers {
			got[k] = append([]byte(nil), b...)
		}
		rec := inv*p.Trace.InvocationWords()*4 + 4 + 4 + 2*16 // the invocation's call 0, its quotient
		for _, w := range []struct {
			buf []byte
			off int
		}{{got[p.Trace.Binding], rec}, {got[1], 4 * inv}} {
			binary.LittleEndian.PutUint32(w.buf[w.off:], binary.LittleEndian.Uint32(w.buf[w.off:])+c.ulps)
		}
		if fr := judge.Compare(exact, got); fr.Status != judge.Failed || fr.Code != codes.EmulatorMismatch {
			t.Fatalf("%d ulp off against the exact reference: %+v", c.ulps, fr)
		}
		o, err := p.Read(got)
		if err != nil {
			t.Fatal(err)
		}
		if o.Report.CorrectlyRounded() {
			t.Fatalf("%d ulp off: the trace says correctly rounded", c.ulps)
		}
		if r, beyond := o.Beyond(codes.EmulatorMismatch); beyond {
			if c.status != pipeline.Failed || r.Detail != "fdiv.f32" || !strings.Contains(r.Message, "Table 8.2") || !strings.Contains(r.Message, "x / y") {
				t.Fatalf("%d ulp off: %+v", c.ulps, r)
			}
			t.Log(r.Message)
			continue
		}
		mode := harness.Mode{Substitution: o.Substitution(), InputFamily: prov.InputFamily, From: prov}
		sub, err := h.ReferenceIn(ctx, hm, mode)
		if err != nil {
			t.Fatal(err)
		}
		verdict := h.JudgeIn(ctx, hm, sub, got, mode)
		r := pipeline.Fail(verdict.Code, verdict.Detail, verdict.Message)
		if verdict.Status == judge.Passed {
			r = pipeline.Pass()
		}
		r = o.Annotate(r, sub.Substituted, codes.EmulatorApproximateUnmatched)
		if r.Status != c.status || r.Data["pass_class"] != PassClass || r.Data["approximate"] != "fdiv.f32" || sub.Substituted.Unmatched() != 0 {
			t.Fatalf("%d ulp off, substituted: %+v %+v", c.ulps, r, sub.Substituted)
		}
	}
	// Without a module to trace, the judgement again is unjudged, saying
	// what the exact reference said.
	tr, r := Divisions(ctx, h, hm, nil, air.EntryPoint{}, exact, pipeline.Fail(codes.EmulatorMismatch, "buffer 1 word 0", "expected 0x1 got 0x2"), false)
	if tr != nil || r.Status != pipeline.Unjudged || r.Detail != "approximate-op fdiv.f32" || !strings.Contains(r.Data["exact_reference"], "buffer 1 word 0") {
		t.Fatalf("without a module: %+v", r)
	}
}

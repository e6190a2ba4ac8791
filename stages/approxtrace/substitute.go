package approxtrace

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// Traced is a function's reference with the device's approximate results
// substituted, ready to be compared like any other: the reference, the
// mode it was built in, the traced run's outcome (for Annotate), and the
// traced run itself (Outputs).
type Traced struct {
	Reference *cpuref.Result
	Mode      harness.Mode
	Outcome   *Outcome
	// Run and Reply are the traced run's request and the device's reply;
	// RunTime how long the run took.
	Run     harness.Request
	Reply   harness.Reply
	RunTime time.Duration
	// module and entry are the function the trace translated.
	module *air.Module
	entry  air.EntryPoint
}

// Outputs is what the traced run left in the function's own buffers,
// render targets and outputs (every binding but the trace's), when q —
// the function's run as the emulator asks for it against the substituted
// reference — is the traced run but for the trace: the same device, entry
// point, grid, inputs, interface and draw or capture (harness.SameRun), and
// as its SPIR-V the translator's own translation of the function the trace
// translated (translate.Translate, byte for byte). The traced SPIR-V is that
// translation with each traced call's operands and result also stored
// (translate.TranslateTraced), so this is the function computing on the
// very run whose approximate results the reference took. false when q
// asks for anything else, another SPIR-V included (q must then run).
func (t *Traced) Outputs(q harness.Request) (harness.Reply, bool) {
	if t == nil || t.Reply.Buffers == nil || t.Outcome == nil || t.module == nil {
		return harness.Reply{}, false
	}
	binding := t.Outcome.Trace.Binding
	traced := withoutBinding(t.Run, binding)
	traced.SPIRV = q.SPIRV
	if !harness.SameRun(traced, withoutBinding(q, binding)) {
		return harness.Reply{}, false
	}
	own, err := translate.Translate(t.module, t.entry)
	if err != nil || !bytes.Equal(own.SPIRV, q.SPIRV) {
		return harness.Reply{}, false
	}
	rep := t.Reply
	rep.Buffers = maps.Clone(rep.Buffers)
	delete(rep.Buffers, binding)
	return rep, true
}

// withoutBinding is q without buffer binding among its inputs and its
// kernel's buffers (a list left empty is nil, as one that never had it).
func withoutBinding(q harness.Request, binding int) harness.Request {
	q.Buffers = slices.DeleteFunc(slices.Clone(q.Buffers), func(d cpuref.Data) bool { return d.Index == binding })
	if len(q.Buffers) == 0 {
		q.Buffers = nil
	}
	if q.Kernel != nil {
		k := *q.Kernel
		k.Buffers = slices.DeleteFunc(slices.Clone(k.Buffers), func(b cpuref.Buffer) bool { return b.Index == binding })
		if len(k.Buffers) == 0 {
			k.Buffers = nil
		}
		q.Kernel = &k
	}
	return q
}

// Substitute judges a function the CPU reference set aside for
// approximate operations (nj, of kind cpuref.KindApproximate) on h's
// device: the provisional reference chooses its inputs and grid, ep of m
// (the translated module and entry point; m nil when there is none) runs
// traced there, a recorded result beyond its MSL §8.4 bound is a mismatch,
// and otherwise the reference with the device's results substituted on
// the same inputs is returned. hm is what h computes the references from;
// fused also stores the fused provisional reference of a module whose AIR
// permits contraction (for a GPU host that cannot build it). When no
// traced reference stands, the verdict that does is returned instead (a
// nil Traced): the mismatch, or NoReference(nj) with data saying why the
// function could not be traced or substituted.
func Substitute(ctx context.Context, h *harness.Harness, hm harness.Module, m *air.Module, ep air.EntryPoint, nj *cpuref.NotJudgeableError, fused bool) (*Traced, pipeline.Result) {
	note := func(why string) (*Traced, pipeline.Result) {
		r := NoReference(nj)
		r.Data = map[string]string{"approximate_substitution": why}
		return nil, r
	}
	if m == nil {
		return note("no entry point to trace")
	}
	prov, err := h.ReferenceIn(ctx, hm, harness.Mode{Provisional: true})
	var other *cpuref.NotJudgeableError
	if errors.As(err, &other) {
		// What stops the reference once the approximate calls are
		// provided for: the reason the module stays unjudged.
		r := NoReference(other)
		r.Data = map[string]string{"approximate_substitution": "the reference would take the device's approximate results, but cannot run for another reason"}
		return nil, r
	}
	if err != nil {
		return note("the provisional reference: " + err.Error())
	}
	if prov.ContractAllowed && fused {
		// Fill the reference cache for a GPU host that cannot build it.
		_, _ = h.ReferenceIn(ctx, hm, harness.Mode{Provisional: true, Fuse: true})
	}
	p, why := PrepareFor(m, ep, prov)
	if p == nil {
		return note(why)
	}
	q, v, ok := harness.Prepare(h.Device(), hm.SHA256, p.Output, p.Reference)
	if !ok {
		return note("the traced run: " + v.Message)
	}
	start := time.Now()
	rep := h.Run(ctx, q)
	took := time.Since(start)
	if rep.Buffers == nil {
		return note("the traced dispatch: " + rep.Verdict.Message)
	}
	o, err := p.Read(rep.Buffers)
	if err != nil {
		return note("the trace: " + err.Error())
	}
	if r, beyond := o.Beyond(codes.EmulatorMismatch); beyond {
		return nil, r
	}
	mode := harness.Mode{Substitution: o.Substitution(), InputFamily: prov.InputFamily, From: prov}
	ref, err := h.ReferenceIn(ctx, hm, mode)
	if err != nil {
		return note("the substituted reference: " + err.Error())
	}
	return &Traced{Reference: ref, Mode: mode, Outcome: o, Run: q, Reply: rep, RunTime: took, module: m, entry: ep}, pipeline.Result{}
}

// NoReference is the unjudged result of a function the CPU reference
// cannot run (code emulator/no-reference, detail the reason's kind and the
// thing it names), listing everything the reference would need.
func NoReference(nj *cpuref.NotJudgeableError) pipeline.Result {
	// The row keeps an unjudged stage's code and message only
	// (status_reason), so the message starts with the detail.
	r := pipeline.Result{Status: pipeline.Unjudged, Code: codes.EmulatorNoReference, Detail: nj.Kind}
	if nj.Detail != "" {
		r.Detail += " " + nj.Detail
	}
	r.Message = r.Detail + ": " + nj.Reason
	// Everything the reference would need, so that `airpipe features`
	// ranks what would let it judge the most modules.
	for _, b := range append([]string{nj.Blocker()}, nj.Also...) {
		r.Missing = append(r.Missing, pipeline.Finding{Code: codes.EmulatorNoReference, Detail: b})
	}
	return r
}

// Divisions judges again a function whose output differs from the exact
// reference ref (first, that comparison's mismatch) and which has
// approximate divisions (ref.Divisions: fdivs with fast, arcp or afn, which
// MSL Table 8.2 bounds at 2.5 ulp rather than rounds correctly), as
// Substitute judges approximate calls: traced on the device, each quotient
// checked against Table 8.2's x / y, then the reference with the device's
// quotients. When no such reference stands the verdict that does is
// returned (a nil Traced): a quotient beyond its bound is a mismatch; a
// trace whose every quotient is correctly rounded (none unjudged, none lost
// to overflow) leaves first standing, since the device then divided as the
// exact reference does; a function that cannot be traced or substituted is
// unjudged, saying why and what the exact reference said.
func Divisions(ctx context.Context, h *harness.Harness, hm harness.Module, m *air.Module, ep air.EntryPoint, ref *cpuref.Result, first pipeline.Result, fused bool) (*Traced, pipeline.Result) {
	nj := &cpuref.NotJudgeableError{Kind: cpuref.KindApproximate, Detail: strings.Join(ref.Divisions, ","),
		Reason: "the output differs from the exactly dividing reference, and the function divides with fast math, which MSL Table 8.2 bounds at 2.5 ulp rather than rounds correctly"}
	t, r := Substitute(ctx, h, hm, m, ep, nj, fused)
	if t == nil {
		if r.Status == pipeline.Unjudged {
			r.Data["exact_reference"] = first.Detail + ": " + first.Message
		}
		return nil, r
	}
	if t.Outcome.Report.CorrectlyRounded() {
		if first.Data == nil {
			first.Data = map[string]string{}
		}
		maps.Copy(first.Data, t.Outcome.Data())
		first.Data["approximate_divisions"] = "every recorded quotient correctly rounded: the exact reference's mismatch stands"
		return nil, first
	}
	return t, pipeline.Result{}
}

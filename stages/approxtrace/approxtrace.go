// Package approxtrace judges a function's approximate operations on a
// device (issue 17 item 3): the function (a kernel, a fragment or a vertex
// function) is translated in compiler/translate's
// instrumentation mode (TranslateTraced) and dispatched on the inputs and
// grid the CPU reference chose in its provisional run (cpuref's
// Options.ApproximateProvisional); every operand and result each
// approximate call recorded is judged against its MSL §8.4 row
// (compiler/mathbound, through Trace.Check), and the records become the
// reference's Substitution, so that the reference takes the device's
// result of each such call and everything else the function computes is
// compared exactly. Substitute runs the whole flow on a device harness
// (device/harness) for the emulator and device stages.
//
// A recorded result beyond its bound is a mismatch — the device's
// operation, on operands it computed itself, is outside what Metal allows,
// whatever the rest of the function does. A function whose outputs then equal
// the substituted reference's passes in its own class (Annotate: data
// pass_class=approximate-substituted, approximate, max_ulp); a mismatch
// with every call answered from the records is a mismatch; a mismatch
// where some of the reference's calls had operands the device never
// recorded is unjudged (the reference computed those with the C library's
// value, which the device was free not to compute).
package approxtrace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// Capacity is the trace records each invocation has.
const Capacity = 256

// Plan is a traced function ready to run: its SPIR-V, the grid, and the
// buffers by binding (air.buffer i at binding i, the trace at its own), in
// the shape the emulator's dispatch takes (Kernel lists the bindings,
// Inputs their initial bytes).
type Plan struct {
	// Output is the traced translation; Reference the provisional
	// reference with the trace buffer among its buffers, for laying out
	// the run (device/harness.Prepare).
	Output    *translate.Output
	Reference *cpuref.Result
	SPIRV     []byte
	Entry     string
	Trace     *translate.Trace
	Grid      cpuref.Grid
	Kernel    *cpuref.Kernel
	Inputs    []cpuref.Data
	// Invocations is the grid's thread count.
	Invocations int
}

// PrepareFor translates ep of m traced and lays out its run on the
// provisional reference ref's inputs and grid (a kernel's dispatch, a
// fragment function's draw, a vertex function's capture), with the trace
// buffer at its binding. reason says why the function cannot be traced (the
// plan is then nil).
func PrepareFor(m *air.Module, ep air.EntryPoint, ref *cpuref.Result) (plan *Plan, reason string) {
	size := ref.Grid.Size()
	tr, err := translate.TranslateTraced(m, ep, translate.TraceLayout{Capacity: Capacity, Width: int(size[0])})
	if err != nil {
		return nil, "the traced translation failed: " + err.Error()
	}
	if len(tr.Trace.Ops) == 0 {
		return nil, "the function records no traced operation (" + strings.Join(tr.Trace.Untraced, ", ") + ")"
	}
	if len(tr.Trace.Untraced) > 0 {
		return nil, "the function calls approximate operations a trace cannot record (" + strings.Join(tr.Trace.Untraced, ", ") + ")"
	}
	k := *ref.Kernel
	k.Buffers = append(append([]cpuref.Buffer(nil), ref.Kernel.Buffers...), cpuref.Buffer{Index: tr.Trace.Binding})
	p := &Plan{Output: tr, SPIRV: tr.SPIRV, Entry: tr.Entry, Trace: tr.Trace, Grid: ref.Grid, Kernel: &k, Invocations: int(size[0] * size[1] * size[2])}
	p.Inputs = append(append([]cpuref.Data(nil), ref.Inputs...), cpuref.Data{Index: tr.Trace.Binding, Bytes: make([]byte, p.Invocations*tr.Trace.InvocationWords()*4)})
	r := *ref
	r.Kernel, r.Inputs = p.Kernel, p.Inputs
	p.Reference = &r
	return p, ""
}

// Outcome is what a traced run showed.
type Outcome struct {
	Trace  *translate.Trace
	Report *translate.TraceReport
	// Words is the trace buffer the device left.
	Words       []byte
	Invocations int
}

// Substitution is the records as the reference takes them.
func (o *Outcome) Substitution() *cpuref.Substitution {
	ops := make([]string, len(o.Trace.Ops))
	for i, op := range o.Trace.Ops {
		ops[i] = op.Name
	}
	sum := sha256.Sum256(o.Words)
	return &cpuref.Substitution{Ops: ops, Invocations: o.Invocations, InvocationWords: o.Trace.InvocationWords(),
		Capacity: o.Trace.Capacity, Words: o.Words, Digest: hex.EncodeToString(sum[:])}
}

// Read judges the trace the device left (got: the bytes of each binding
// after the dispatch).
func (p *Plan) Read(got map[int][]byte) (*Outcome, error) {
	buf, ok := got[p.Trace.Binding]
	if !ok {
		return nil, fmt.Errorf("the dispatch returned no trace buffer (binding %d)", p.Trace.Binding)
	}
	want := p.Invocations * p.Trace.InvocationWords() * 4
	if len(buf) < want {
		return nil, fmt.Errorf("the trace buffer came back with %d bytes, not %d", len(buf), want)
	}
	rep, err := p.Trace.Check(buf, p.Invocations)
	if err != nil {
		return nil, err
	}
	return &Outcome{Trace: p.Trace, Report: rep, Words: buf[:want], Invocations: p.Invocations}, nil
}

// Run dispatches p, a kernel's plan, on dev directly (the emulator lays
// out every stage's run through device/harness) and reads the trace.
func (p *Plan) Run(ctx context.Context, dev *device.Device) (*Outcome, error) {
	var binds []device.Binding
	var bufs []*device.Buffer
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for _, in := range p.Inputs {
		buf, err := dev.NewBuffer(int64(len(in.Bytes)))
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
		copy(buf.Bytes(), in.Bytes)
		binds = append(binds, device.Binding{Set: 0, Binding: uint32(in.Index), Buffer: buf})
	}
	pl, err := dev.LoadPipeline(p.SPIRV, p.Entry)
	if err != nil {
		return nil, fmt.Errorf("load the traced pipeline: %w", err)
	}
	defer pl.Unload()
	if err := dev.Run(ctx, pl, device.DispatchArgs{Groups: p.Grid.Groups, Threads: p.Grid.Threads, Bindings: binds}); err != nil {
		return nil, fmt.Errorf("run the traced kernel: %w", err)
	}
	got := map[int][]byte{}
	for i, in := range p.Inputs {
		got[in.Index] = bufs[i].Bytes()
	}
	return p.Read(got)
}

// Data is the row data an outcome gives (docs/schema.md): approximate (the
// operations recorded), max_ulp, trace_records, trace_lanes_judged and,
// when non-zero, trace_beyond, trace_overflowed, trace_untraced.
func (o *Outcome) Data() map[string]string {
	r := o.Report
	d := map[string]string{
		"approximate":        strings.Join(r.Ops, ","),
		"max_ulp":            strconv.FormatFloat(r.MaxULP, 'g', 4, 64),
		"trace_records":      strconv.Itoa(r.Records),
		"trace_lanes_judged": strconv.Itoa(r.Judged),
	}
	if r.Beyond > 0 {
		d["trace_beyond"] = strconv.Itoa(r.Beyond)
	}
	if r.Overflowed > 0 {
		d["trace_overflowed"] = strconv.Itoa(r.Overflowed)
	}
	if len(o.Trace.Untraced) > 0 {
		u := append([]string(nil), o.Trace.Untraced...)
		sort.Strings(u)
		d["trace_untraced"] = strings.Join(u, ",")
	}
	return d
}

// Beyond is the mismatch a trace shows by itself — the first recorded
// result beyond its MSL §8.4 bound (code mismatch, detail the
// declaration) — and whether there is one.
func (o *Outcome) Beyond(mismatch codes.Code) (pipeline.Result, bool) {
	r := o.Report
	if r.Beyond == 0 {
		return pipeline.Result{}, false
	}
	mm := r.Mismatches[0]
	res := pipeline.Fail(mismatch, mm.Result.Op, fmt.Sprintf("%s (%d of %d recorded lanes beyond their bound, on the reference's inputs)", mm.Error(), r.Beyond, r.Judged))
	res.Data = o.Data()
	return res, true
}

// Annotate turns the comparison r of a device's outputs with the reference
// substituted from o (whose calls s counts) into the approximate verdict:
// a pass is of class approximate-substituted; a mismatch stays one when the
// records answered every call, and is unjudged (code unmatched) when some
// call took the C library's value instead.
func (o *Outcome) Annotate(r pipeline.Result, s *cpuref.Substituted, unmatched codes.Code) pipeline.Result {
	if r.Data == nil {
		r.Data = map[string]string{}
	}
	for k, v := range o.Data() {
		r.Data[k] = v
	}
	if s != nil {
		r.Data["approximate_calls"] = strconv.FormatInt(s.Calls, 10)
		r.Data["approximate_substituted"] = strconv.FormatInt(s.Matched, 10)
	}
	switch {
	case r.Status == pipeline.Passed:
		r.Data["pass_class"] = PassClass
	case r.Status == pipeline.Failed && s != nil && s.Unmatched() > 0:
		u := pipeline.UnjudgedBecause(fmt.Sprintf("the output differs from the reference with the device's approximate results substituted (%s: %s), but %d of the reference's %d approximate calls had operands the device never recorded, so the reference took the C library's value where the device was free to compute another", r.Detail, r.Message, s.Unmatched(), s.Calls))
		u.Code, u.Detail, u.Data = unmatched, r.Detail, r.Data
		return u
	}
	return r
}

// PassClass is the pass_class of a module passed with the device's
// approximate results substituted.
const PassClass = "approximate-substituted"

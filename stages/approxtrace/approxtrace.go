// Package approxtrace checks a kernel's approximate operations on a device:
// the kernel is translated in compiler/translate's instrumentation mode
// (TranslateTraced), dispatched with buffers of the reference's pattern
// (cpuref.Pattern) over the grid the reference would use (cpuref.GridFor),
// and every operand and result each approximate call recorded is judged
// against its MSL §8.4 row (compiler/mathbound, through Trace.Check).
//
// This is the bound-checking half of judging modules with approximate
// operations (issue 17 item 3). A result beyond its bound is a mismatch —
// the device's operation, on operands it computed itself, is outside what
// Metal allows, whatever the rest of the kernel does. Results within their
// bounds do not make the module pass: its outputs are compared only once the
// reference substitutes the recorded results for its own (not built yet), so
// such a module stays unjudged, its data saying what the trace showed.
//
// Only kernels whose descriptors are all air.buffer storage buffers are run
// (Prepare gives the reason otherwise): a texture or sampler would need the
// reference's texel contract, which this package does not rebuild.
package approxtrace

import (
	"context"
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

// Plan is a traced kernel ready to dispatch: its SPIR-V, the grid, and the
// buffers by binding (air.buffer i at binding i, the trace at its own), in
// the shape the emulator's dispatch takes (Kernel lists the bindings,
// Inputs their initial bytes).
type Plan struct {
	SPIRV  []byte
	Entry  string
	Trace  *translate.Trace
	Grid   cpuref.Grid
	Kernel *cpuref.Kernel
	Inputs []cpuref.Data
	// Invocations is the grid's thread count.
	Invocations int
}

// Prepare translates ep of m traced and lays out its dispatch, each
// air.buffer bufferSize bytes (or AIR's stated size, rounded up to 256) of
// cpuref.Pattern. reason says why the kernel cannot be run this way (the
// plan is then nil).
func Prepare(m *air.Module, ep air.EntryPoint, bufferSize int) (plan *Plan, reason string) {
	tr, err := translate.TranslateTraced(m, ep, Capacity)
	if err != nil {
		return nil, "the traced translation failed: " + err.Error()
	}
	if len(tr.Trace.Ops) == 0 {
		return nil, "the kernel records no traced operation (" + strings.Join(tr.Trace.Untraced, ", ") + ")"
	}
	if bufferSize <= 0 {
		bufferSize = cpuref.DefaultBufferSize
	}
	dims := 1
	for _, in := range tr.Reflection.Inputs {
		if in.Role == "air.thread_position_in_grid" && strings.HasPrefix(in.Type, "<") {
			dims, _ = strconv.Atoi(strings.TrimPrefix(strings.Fields(in.Type)[0], "<"))
		}
	}
	p := &Plan{SPIRV: tr.SPIRV, Entry: tr.Entry, Trace: tr.Trace, Grid: cpuref.GridFor(dims), Kernel: &cpuref.Kernel{}}
	for _, b := range tr.Reflection.Bindings {
		idx, ok := strings.CutPrefix(b.Metal, "air.buffer ")
		if b.Kind != "storage-buffer" || !ok {
			return nil, "a " + b.Kind + " binding (" + b.Metal + "): only air.buffer arguments are filled here"
		}
		i, _ := strconv.Atoi(idx)
		size := bufferSize
		if b.Size > 0 {
			size = int((b.Size + 255) &^ 255)
		}
		p.Kernel.Buffers = append(p.Kernel.Buffers, cpuref.Buffer{Index: i})
		p.Inputs = append(p.Inputs, cpuref.Data{Index: i, Bytes: cpuref.Pattern(i, int64(size))})
	}
	p.Invocations = 1
	for d := range 3 {
		p.Invocations *= int(p.Grid.Groups[d] * p.Grid.Threads[d])
	}
	p.Kernel.Buffers = append(p.Kernel.Buffers, cpuref.Buffer{Index: tr.Trace.Binding})
	p.Inputs = append(p.Inputs, cpuref.Data{Index: tr.Trace.Binding, Bytes: make([]byte, p.Invocations*tr.Trace.InvocationWords()*4)})
	return p, ""
}

// Outcome is what a traced run showed.
type Outcome struct {
	Trace  *translate.Trace
	Report *translate.TraceReport
}

// Read judges the trace the device left (got: the bytes of each binding
// after the dispatch).
func (p *Plan) Read(got map[int][]byte) (*Outcome, error) {
	buf, ok := got[p.Trace.Binding]
	if !ok {
		return nil, fmt.Errorf("the dispatch returned no trace buffer (binding %d)", p.Trace.Binding)
	}
	rep, err := p.Trace.Check(buf, p.Invocations)
	if err != nil {
		return nil, err
	}
	return &Outcome{Trace: p.Trace, Report: rep}, nil
}

// Run dispatches p on dev directly (the emulator goes through its own
// dispatch, in a child process) and reads the trace.
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
		"trace_inputs":       "pattern",
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

// Verdict is the emulator's result for a kernel set aside as approximate
// (unjudged, the reference's own refusal) once its trace has been judged: a
// mismatch (code mismatch) naming the first recorded result beyond its
// bound, else unjudged with the trace's data and a message saying what was
// and was not compared.
func (o *Outcome) Verdict(unjudged pipeline.Result, mismatch codes.Code) pipeline.Result {
	r := o.Report
	if r.Beyond > 0 {
		mm := r.Mismatches[0]
		res := pipeline.Fail(mismatch, mm.Result.Op, fmt.Sprintf("%s (%d of %d recorded lanes beyond their bound, on the pattern inputs)", mm.Error(), r.Beyond, r.Judged))
		res.Data = o.Data()
		return res
	}
	// The message stays one text for every such module (reports group rows
	// by it); the numbers are the data's.
	res := unjudged
	res.Message += "; traced on the device (pattern inputs): every recorded result with a stated bound is within its MSL §8.4 bound (data max_ulp, trace_records, trace_overflowed); the outputs are not compared, since the reference does not yet substitute the device's results"
	res.Data = o.Data()
	return res
}

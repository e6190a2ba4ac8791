package approxtrace

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

func fixture(t *testing.T) (*air.Module, air.EntryPoint) {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip(err)
	}
	src, err := os.ReadFile("testdata/approx.ll")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("llvm-as-19", "-", "-o", "-")
	cmd.Stdin = bytes.NewReader(src)
	bc, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	m, err := bitcode.ReadModule(bc)
	if err != nil {
		t.Fatal(err)
	}
	eps, err := air.EntryPoints(m)
	if err != nil || len(eps) != 1 {
		t.Fatal(eps, err)
	}
	return m, eps[0]
}

// TestVerdict runs the fixture (fast pow, fast sqrt, fast sin) traced on
// lavapipe over the pattern inputs: every recorded result is within its row,
// so the set-aside result stays unjudged with the trace's data; a recorded
// result made 5000 ulp off is a mismatch naming the operation.
func TestVerdict(t *testing.T) {
	m, ep := fixture(t)
	p, why := Prepare(m, ep, 1024)
	if p == nil {
		t.Fatal(why)
	}
	if p.Invocations != 16 || len(p.Kernel.Buffers) != 3 || p.Kernel.Buffers[2].Index != 470 {
		t.Fatalf("plan %+v", p)
	}
	d, err := device.Open("lavapipe", device.Options{})
	if err != nil {
		t.Skipf("lavapipe: %v", err)
	}
	defer func() { _ = d.Stop() }()
	o, err := p.Run(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	set := pipeline.UnjudgedBecause("approximate-op air.fast_pow.f32: no bit-exact definition")
	r := o.Verdict(set, codes.Code("emulator/mismatch"))
	if r.Status != pipeline.Unjudged || r.Data["approximate"] != "air.fast_pow.f32,air.fast_sin.f32,air.fast_sqrt.f32" || r.Data["trace_records"] != "48" {
		t.Fatalf("within bounds: %+v", r)
	}
	if !strings.Contains(r.Message, "is within its MSL §8.4 bound") {
		t.Errorf("message %q", r.Message)
	}
	t.Logf("%s; %v", r.Message, r.Data)

	// The planted fault: invocation 3's sqrt result 5000 ulp off.
	got := map[int][]byte{}
	for _, in := range p.Inputs {
		got[in.Index] = in.Bytes
	}
	// Re-run to fill the trace, then corrupt a result word in place.
	o2, err := p.Run(context.Background(), d)
	if err != nil || o2.Report.Beyond != 0 {
		t.Fatal(err, o2.Report.Beyond)
	}
	buf := traceOf(t, p, d)
	per := p.Trace.InvocationWords() * 4
	off := 3*per + 4 + 1*64 + 4 + 16 // invocation 3, call 1 (sqrt), its result
	binary.LittleEndian.PutUint32(buf[off:], binary.LittleEndian.Uint32(buf[off:])+5000)
	got[p.Trace.Binding] = buf
	o3, err := p.Read(got)
	if err != nil {
		t.Fatal(err)
	}
	r = o3.Verdict(set, codes.Code("emulator/mismatch"))
	if r.Status != pipeline.Failed || r.Detail != "air.fast_sqrt.f32" || !strings.Contains(r.Message, "ulp") || r.Data["trace_beyond"] != "1" {
		t.Fatalf("a result 5000 ulp off: %+v", r)
	}
	t.Log(r.Message)
}

// traceOf dispatches p and returns the trace buffer's bytes.
func traceOf(t *testing.T, p *Plan, d *device.Device) []byte {
	t.Helper()
	var binds []device.Binding
	var tb *device.Buffer
	for _, in := range p.Inputs {
		buf, err := d.NewBuffer(int64(len(in.Bytes)))
		if err != nil {
			t.Fatal(err)
		}
		defer buf.Free()
		copy(buf.Bytes(), in.Bytes)
		if in.Index == p.Trace.Binding {
			tb = buf
		}
		binds = append(binds, device.Binding{Set: 0, Binding: uint32(in.Index), Buffer: buf})
	}
	pl, err := d.LoadPipeline(p.SPIRV, p.Entry)
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Unload()
	if err := d.Run(context.Background(), pl, device.DispatchArgs{Groups: p.Grid.Groups, Threads: p.Grid.Threads, Bindings: binds}); err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), tb.Bytes()...)
}

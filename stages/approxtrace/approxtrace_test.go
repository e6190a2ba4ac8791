package approxtrace

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

func fixture(t *testing.T) (*air.Module, air.EntryPoint) {
	t.Helper()
	m, ep, _ := fixtureBitcode(t)
	return m, ep
}

// fixtureBitcode is testdata/approx.ll assembled, read, and its entry point.
func fixtureBitcode(t *testing.T) (*air.Module, air.EntryPoint, []byte) {
	t.Helper()
	return fixtureNamed(t, "testdata/approx.ll")
}

// fixtureNamed is fixtureBitcode of the fixture at path.
func fixtureNamed(t *testing.T, path string) (*air.Module, air.EntryPoint, []byte) {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip(err)
	}
	src, err := os.ReadFile(path)
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
	return m, eps[0], bc
}

// TestBeyond runs the fixture (fast pow, fast sqrt, fast sin) traced on
// lavapipe over the provisional reference's inputs: every recorded result
// is within its row, so the trace alone shows no mismatch; a recorded
// result made 5000 ulp off is a mismatch naming the operation.
func TestBeyond(t *testing.T) {
	m, ep := fixture(t)
	src, err := os.ReadFile("testdata/approx.ll")
	if err != nil {
		t.Fatal(err)
	}
	prov, err := cpuref.RunText(context.Background(), string(src), "approx", cpuref.Options{ApproximateProvisional: true})
	if err != nil {
		t.Fatal(err)
	}
	p, why := PrepareFor(m, ep, prov)
	if p == nil {
		t.Fatal(why)
	}
	if p.Invocations != 16 || len(p.Kernel.Buffers) != 3 || p.Kernel.Buffers[2].Index != 470 || len(prov.Kernel.Buffers) != 2 {
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
	if r, beyond := o.Beyond(codes.Code("emulator/mismatch")); beyond || o.Report.Records != 48 {
		t.Fatalf("within bounds: %+v, %d records", r, o.Report.Records)
	}
	if s := o.Substitution(); len(s.Ops) != 3 || s.Invocations != 16 || len(s.Words) != 16*s.InvocationWords*4 || s.Digest == "" {
		t.Fatalf("substitution %+v", s.Ops)
	}

	// The planted fault: invocation 3's sqrt result 5000 ulp off.
	got := map[int][]byte{}
	for _, in := range p.Inputs {
		got[in.Index] = in.Bytes
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
	r, beyond := o3.Beyond(codes.Code("emulator/mismatch"))
	if !beyond || r.Status != pipeline.Failed || r.Detail != "air.fast_sqrt.f32" || !strings.Contains(r.Message, "ulp") || r.Data["trace_beyond"] != "1" {
		t.Fatalf("a result 5000 ulp off: %+v", r)
	}
	t.Log(r.Message)
}

// TestAnnotate: a pass is of the substituted class; a mismatch with every
// call answered from the records stays a mismatch; one where some call took
// the C library's value is unjudged with the unmatched code.
func TestAnnotate(t *testing.T) {
	o := &Outcome{Trace: &translate.Trace{}, Report: &translate.TraceReport{Ops: []string{"air.fast_exp.f32"}, Records: 16, Judged: 16}}
	mismatch := pipeline.Fail("emulator/mismatch", "buffer 1 word 3", "expected 0x1 got 0x2")
	cases := []struct {
		name   string
		r      pipeline.Result
		s      *cpuref.Substituted
		status pipeline.Status
		code   codes.Code
		class  string
	}{
		{"pass", pipeline.Pass(), &cpuref.Substituted{Calls: 16, Matched: 16}, pipeline.Passed, "", PassClass},
		{"pass with unmatched calls", pipeline.Pass(), &cpuref.Substituted{Calls: 16, Matched: 15}, pipeline.Passed, "", PassClass},
		{"mismatch, all matched", mismatch, &cpuref.Substituted{Calls: 16, Matched: 16}, pipeline.Failed, "emulator/mismatch", ""},
		{"mismatch, unmatched", mismatch, &cpuref.Substituted{Calls: 16, Matched: 12}, pipeline.Unjudged, "emulator/approximate-unmatched", ""},
	}
	for _, c := range cases {
		r := o.Annotate(c.r, c.s, "emulator/approximate-unmatched")
		if r.Status != c.status || r.Code != c.code || r.Data["pass_class"] != c.class || r.Data["approximate"] != "air.fast_exp.f32" ||
			r.Data["approximate_substituted"] != strconv.FormatInt(c.s.Matched, 10) {
			t.Errorf("%s: %+v", c.name, r)
		}
		if c.status == pipeline.Unjudged && (r.Detail != "buffer 1 word 3" || !strings.Contains(r.Message, "4 of the reference's 16 approximate calls")) {
			t.Errorf("%s: detail %q message %q", c.name, r.Detail, r.Message)
		}
	}
}

// TestFamiliesAgree: the reference substitutes exactly the operations a
// trace records.
func TestFamiliesAgree(t *testing.T) {
	if strings.Join(cpuref.SubstitutableOps, ",") != strings.Join(translate.TracedFamilies, ",") {
		t.Fatalf("cpuref.SubstitutableOps %v, translate.TracedFamilies %v", cpuref.SubstitutableOps, translate.TracedFamilies)
	}
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

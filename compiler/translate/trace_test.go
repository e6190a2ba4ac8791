package translate

import (
	"context"
	"encoding/binary"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/mathbound"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/device"
)

// runTraced translates trace_kernel.ll in instrumentation mode with
// capacity records, runs it on lavapipe over 2 groups of 32 threads and
// returns the trace and its buffer.
func runTraced(t *testing.T, capacity int) (*Trace, []byte, int) {
	t.Helper()
	return runTracedFixture(t, "trace_kernel.ll", capacity, 3)
}

// runTracedFixture is runTraced for fixture name, which traces ops
// operations.
func runTracedFixture(t *testing.T, name string, capacity, ops int) (*Trace, []byte, int) {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip(err)
	}
	m, ep := fixtureEntry(t, name)
	out, err := TranslateTraced(m, ep, TraceLayout{Capacity: capacity})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("spirv-val"); err == nil {
		if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
			t.Fatalf("traced module invalid: %v", err)
		}
	}
	tr := out.Trace
	if tr == nil || len(tr.Ops) != ops || len(tr.Untraced) != 0 {
		t.Fatalf("trace %+v, want %d operations", tr, ops)
	}
	d, err := device.Open("lavapipe", device.Options{})
	if err != nil {
		t.Skipf("lavapipe cannot be opened here: %v", err)
	}
	t.Cleanup(func() { _ = d.Stop() })
	p, err := d.LoadPipeline(out.SPIRV, out.Entry)
	if err != nil {
		t.Fatal(err)
	}
	const n = 64
	var binds []device.Binding
	var in *device.Buffer
	for _, b := range out.Reflection.Bindings {
		buf, err := d.NewBuffer(n * 4)
		if err != nil {
			t.Fatal(err)
		}
		if b.Metal == "air.buffer 0" {
			in = buf
		}
		binds = append(binds, device.Binding{Set: uint32(b.Set), Binding: uint32(b.Binding), Buffer: buf})
	}
	for i := range n {
		x := float32(0.37 + 1.93*float64(i)) // positive: fast pow and sqrt defined
		binary.LittleEndian.PutUint32(in.Bytes()[4*i:], math.Float32bits(x))
	}
	tb, err := d.NewBuffer(int64(n * tr.InvocationWords() * 4))
	if err != nil {
		t.Fatal(err)
	}
	clear(tb.Bytes())
	binds = append(binds, device.Binding{Set: 0, Binding: TraceBinding, Buffer: tb})
	if err := d.Run(context.Background(), p, device.DispatchArgs{Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{32, 1, 1}, Bindings: binds}); err != nil {
		t.Fatal(err)
	}
	return tr, append([]byte(nil), tb.Bytes()...), n
}

// TestTraceOnLavapipe records every approximate call of the fixture and
// judges it: all within their rows (Table 8.2 for the fast ones, 8.1 for
// sin), and each planted fault caught.
func TestTraceOnLavapipe(t *testing.T) {
	tr, buf, n := runTraced(t, 4)
	rep, err := tr.Check(buf, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d records, %d judged lanes, max %g ulp, ops %v", rep.Records, rep.Judged, rep.MaxULP, rep.Ops)
	if rep.Records != 3*n || rep.Overflowed != 0 || rep.Judged != 3*n || rep.Beyond != 0 {
		t.Fatalf("report %+v, want %d records all judged and within", rep, 3*n)
	}
	// The recorded operands are the kernel's: call 0 of invocation 5 is
	// fast_pow(in[5], 2.5).
	rec := buf[5*tr.InvocationWords()*4+4:]
	if x := math.Float32frombits(binary.LittleEndian.Uint32(rec[4:])); x != float32(0.37+1.93*5) {
		t.Errorf("invocation 5's first operand %g", x)
	}
	if y := math.Float32frombits(binary.LittleEndian.Uint32(rec[4+traceSlotBytes:])); y != 2.5 {
		t.Errorf("invocation 5's second operand %g", y)
	}

	// A device value outside its bound: invocation 5's pow result 1000
	// ulp off is a mismatch naming the operation, the operand and the
	// distance.
	bad := append([]byte(nil), buf...)
	off := 5*tr.InvocationWords()*4 + 4 + 4 + 2*traceSlotBytes
	binary.LittleEndian.PutUint32(bad[off:], binary.LittleEndian.Uint32(bad[off:])+1000)
	rep, err = tr.Check(bad, n)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Beyond != 1 || len(rep.Mismatches) != 1 {
		t.Fatalf("a result 1000 ulp off: %d beyond", rep.Beyond)
	}
	msg := rep.Mismatches[0].Error()
	for _, want := range []string{"invocation 5", "air.fast_pow.f32", "10.02", "2.5", "ulp", "Table 8.2"} {
		if !strings.Contains(msg, want) {
			t.Errorf("mismatch %q does not name %q", msg, want)
		}
	}
	if u := rep.Mismatches[0].Result.Verdict.ULP; u < 990 || u > 1010 {
		t.Errorf("distance %g ulp, want about 1000", u)
	}

	// A wrong bound, tighter than the device's error: fast pow and sin held
	// to "correctly rounded" must show lanes beyond.
	rep, err = tr.CheckWith(buf, n, func(op TraceOp) mathbound.Bound {
		return mathbound.Bound{Kind: mathbound.ULP, ULP: 0.5, Text: "correctly rounded (planted)", Source: "planted"}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Beyond == 0 {
		t.Errorf("a bound tighter than lavapipe's error (max %g ulp) not caught", rep.MaxULP)
	}
}

// TestTraceOverflow: an invocation making more calls than the capacity is
// counted as overflowed, its calls past the capacity not judged.
func TestTraceOverflow(t *testing.T) {
	tr, buf, n := runTraced(t, 2)
	rep, err := tr.Check(buf, n)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Overflowed != n || rep.Records != 2*n {
		t.Errorf("capacity 2 for 3 calls: %d overflowed, %d records", rep.Overflowed, rep.Records)
	}
}

// TestTraceFragmentNeedsWidth: a fragment function's pixels are numbered
// by the draw's width, which the layout must give; with it the traced
// translation is valid SPIR-V.
func TestTraceFragmentNeedsWidth(t *testing.T) {
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip(err)
	}
	m, ep := fixtureEntry(t, "fragment_depth.ll")
	if _, err := TranslateTraced(m, ep, TraceLayout{Capacity: 4}); err == nil || !strings.Contains(err.Error(), "draw's width") {
		t.Errorf("a fragment function traced without a width: %v", err)
	}
	if _, err := TranslateTraced(m, ep, TraceLayout{Capacity: 4, Width: 4}); err != nil {
		t.Errorf("a fragment function traced: %v", err)
	}
}

// TestTraceVectorAndHalf traces a three-lane fast pow and a half sqrt (half
// exp2 crashes lavapipe, as opcheck records): every lane is recorded and
// judged (Table 8.2 and Table 8.3), the half operand is the narrowed input,
// and a half result two ulps off is beyond sqrt's "correctly rounded".
func TestTraceVectorAndHalf(t *testing.T) {
	tr, buf, n := runTracedFixture(t, "trace_vector.ll", 4, 2)
	rep, err := tr.Check(buf, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d records, %d judged lanes, %d undefined, max %g ulp, ops %v", rep.Records, rep.Judged, rep.Undefined, rep.MaxULP, rep.Ops)
	if rep.Records != 2*n || rep.Judged+rep.Undefined+rep.Unbounded != 4*n || rep.Beyond != 0 {
		t.Fatalf("report %+v, want %d records of 4 lanes, all within", rep, 2*n)
	}
	per := tr.InvocationWords() * 4
	for i := range n {
		rec := buf[i*per+4+TraceRecordWords*4:] // call 1: sqrt.f16
		h := binary.LittleEndian.Uint16(rec[4:])
		if want := float32(0.37 + 1.93*float64(i)); math.Abs(mathbound.HalfValue(h)-float64(want)) > float64(want)/1024 {
			t.Fatalf("invocation %d: half operand %#x = %g for %g", i, h, mathbound.HalfValue(h), want)
		}
	}
	bad := append([]byte(nil), buf...)
	off := 7*per + 4 + TraceRecordWords*4 + 4 + traceSlotBytes // invocation 7, call 1, the result
	binary.LittleEndian.PutUint16(bad[off:], binary.LittleEndian.Uint16(bad[off:])+2)
	rep, err = tr.Check(bad, n)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Beyond != 1 || !strings.Contains(rep.Mismatches[0].Error(), "air.sqrt.f16") || !strings.Contains(rep.Mismatches[0].Error(), "Table 8.3") {
		t.Fatalf("a half result 2 ulp off: %d beyond %v", rep.Beyond, rep.Mismatches)
	}
}

// TestTraceDivision traces the fdivs whose flags let them approximate
// (fast, arcp, afn: air.FastMath.ApproximatesDivision) and no other (none,
// nnan ninf nsz contract reassoc, a half one, which Table 8.3 rounds
// correctly): four records a thread, judged against Table 8.2's x / y (the
// division by 2^127 is outside its divisor domain: unbounded). A quotient
// one ulp off is within the 2.5 ulp; three ulp off is beyond, named.
func TestTraceDivision(t *testing.T) {
	tr, buf, n := runTracedFixture(t, "trace_fdiv.ll", 8, 2)
	if tr.Ops[0].Name != "fdiv.f32" || tr.Ops[1].Name != "fdiv.v2f32" || tr.Ops[1].Lanes != 2 || tr.Ops[0].Family != DivisionFamily || !tr.Ops[0].Fast || tr.Ops[0].Arity != 2 {
		t.Fatalf("ops %+v", tr.Ops)
	}
	rep, err := tr.Check(buf, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d records, %d judged lanes, %d unbounded, max %g ulp, ops %v", rep.Records, rep.Judged, rep.Unbounded, rep.MaxULP, rep.Ops)
	if rep.Records != 4*n || rep.Judged != 4*n || rep.Unbounded != n || rep.Beyond != 0 || rep.MaxULP > 0.5 {
		t.Fatalf("report %+v, want %d records, %d lanes judged within, %d unbounded", rep, 4*n, 4*n, n)
	}
	per := tr.InvocationWords() * 4
	rec := buf[9*per+4:] // invocation 9, call 0: x / 3
	if x, y := math.Float32frombits(binary.LittleEndian.Uint32(rec[4:])), math.Float32frombits(binary.LittleEndian.Uint32(rec[4+traceSlotBytes:])); x != float32(0.37+1.93*9) || y != 3 {
		t.Fatalf("invocation 9's first division records %g / %g", x, y)
	}
	for _, c := range []struct {
		ulps   uint32
		beyond int
	}{{1, 0}, {3, 1}} {
		bad := append([]byte(nil), buf...)
		off := 9*per + 4 + 4 + 2*traceSlotBytes // invocation 9, call 0, the quotient
		binary.LittleEndian.PutUint32(bad[off:], binary.LittleEndian.Uint32(bad[off:])+c.ulps)
		rep, err := tr.Check(bad, n)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Beyond != c.beyond {
			t.Fatalf("a quotient %d ulp off: %d beyond, want %d", c.ulps, rep.Beyond, c.beyond)
		}
		if c.beyond > 0 {
			msg := rep.Mismatches[0].Error()
			for _, want := range []string{"invocation 9", "fdiv.f32", "Table 8.2", "x / y"} {
				if !strings.Contains(msg, want) {
					t.Errorf("mismatch %q does not name %q", msg, want)
				}
			}
		}
	}
}

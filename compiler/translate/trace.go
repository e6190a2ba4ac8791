package translate

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Instrumentation mode (TranslateTraced), for the emulator stage only: the
// translated kernel also stores, for every call of an air.* operation whose
// result Metal does not define to the bit (TracedFamilies) and every float
// fdiv whose fast-math flags let it approximate (traceDivision), the
// operands and result into an extra storage buffer, so that each device
// value can be checked against the operation's bound (compiler/mathbound)
// and, later, substituted into the reference.
//
// The trace buffer is a storage buffer `struct { uint words[]; }` at set 0,
// binding TraceBinding. Invocation i (its linear index in the grid,
// gid.x + W·(gid.y + H·gid.z) with W×H×D the grid's size in threads) owns the
// Trace.InvocationWords() words from word i·InvocationWords(): word 0 is the
// number of traced calls the invocation made, then Capacity+1 records of
// TraceRecordWords words (the count is written where the invocation stops
// recording: each return of the entry point, and before a fragment
// function's discard). Call n (from 0) fills record min(n, Capacity): a
// count above Capacity means the invocation overflowed (its last record slot
// was overwritten by each call past the capacity, and records past it are
// lost), which the reader reports by name rather than judging. A record is
// word 0 the operation's index in Trace.Ops; words 1–4, 5–8 (and 9–12) the
// arguments; then the result, each at its own 16-byte slot, in LLVM's layout
// (a float per word, half lanes two to a word, lane 0 low).
//
// A fragment function's invocation is its pixel, x + Width·y
// (TraceLayout.Width, the draw's width; FragCoord's integer part); a vertex
// function's is its VertexIndex. The reference numbers its threads the same
// way (compiler/cpuref: the pixel or vertex position in its grid).

// TraceBinding is the trace buffer's binding in set 0 (unused by the ABI's
// other ranges: ABI.md).
const TraceBinding = 470

// TraceRecordWords is the size of one record in words.
const TraceRecordWords = 16

// traceSlotBytes is the space each argument and the result take in a record.
const traceSlotBytes = 16

// TracedFamilies are the operations (air.* names without fast_/precise_ and
// type) a trace records: the element-wise ones of cpuref.ApproximateOps
// whose arguments and result share one float type.
var TracedFamilies = []string{
	"sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
	"asinh", "acosh", "atanh", "exp", "exp2", "exp10", "log", "log2", "log10", "pow", "powr", "fmod",
	"sinpi", "cospi", "tanpi",
}

// untracedFamilies are the other approximate operations: a module calling
// one has an incomplete trace (Trace.Untraced).
var untracedFamilies = []string{"sincos", "length", "distance", "normalize", "divide", "recip", "smoothstep",
	"ldexp", "frexp", "modf", "hypot", "cbrt"}

// Trace describes a traced translation's trace buffer.
type Trace struct {
	// Binding is the buffer's binding (set 0); Capacity the records each
	// invocation has (besides the overflow slot).
	Binding  int `json:"binding"`
	Capacity int `json:"capacity"`
	// Ops are the traced operations, indexed by a record's word 0.
	Ops []TraceOp `json:"ops"`
	// Untraced names the approximate operations the module calls that the
	// trace cannot record: with any, the trace is incomplete.
	Untraced []string `json:"untraced,omitempty"`
}

// TraceOp is one traced operation as the module declares it.
type TraceOp struct {
	// Name is the declaration ("air.fast_pow.v3f32"); Family the operation
	// ("pow"); Fast its fast_ variant.
	Name   string `json:"name"`
	Family string `json:"family"`
	Fast   bool   `json:"fast"`
	// Arity is the number of arguments; Lanes and Bits the element type's
	// (16 or 32).
	Arity int `json:"arity"`
	Lanes int `json:"lanes"`
	Bits  int `json:"bits"`
}

// InvocationWords is the words one invocation's region takes.
func (tr *Trace) InvocationWords() int { return 1 + (tr.Capacity+1)*TraceRecordWords }

// TraceLayout is how a traced translation numbers its invocations and how
// many records each has.
type TraceLayout struct {
	// Capacity is the records each invocation has (at least 1).
	Capacity int
	// Width is a fragment function's draw width in pixels (at least 1):
	// pixel (x, y) is invocation x + Width·y. Unused for other stages.
	Width int
}

// TranslateTraced is Translate in instrumentation mode: every call of a
// traced operation also writes a record, at most layout.Capacity per
// invocation (Output.Trace). Kernels, fragment and vertex functions can be
// traced.
func TranslateTraced(m *air.Module, ep air.EntryPoint, layout TraceLayout) (*Output, error) {
	switch {
	case ep.Stage != air.Kernel && ep.Stage != air.Fragment && ep.Stage != air.Vertex:
		return nil, fmt.Errorf("translate: a trace records kernels, fragment and vertex functions, not air.%s functions", ep.Stage)
	case layout.Capacity < 1:
		return nil, fmt.Errorf("translate: trace capacity %d", layout.Capacity)
	case ep.Stage == air.Fragment && layout.Width < 1:
		return nil, fmt.Errorf("translate: a fragment function's trace needs the draw's width, not %d", layout.Width)
	}
	return translate(m, ep, options{trace: layout.Capacity, traceWidth: layout.Width})
}

// tracer is the state of instrumentation mode.
type tracer struct {
	info         *Trace
	root         *root
	counter      spirv.ID
	gid, groups  spirv.ID // a kernel's GlobalInvocationId and NumWorkgroups
	frag, vertex spirv.ID // a fragment function's FragCoord, a vertex function's VertexIndex
	index        map[string]int
	untracedSeen map[string]bool
}

// traceFamily reads an air.* declaration's operation and variant.
func traceFamily(name string) (family string, fast bool) {
	rest, ok := strings.CutPrefix(name, "air.")
	if !ok {
		return "", false
	}
	op, _, _ := strings.Cut(rest, ".")
	if f, ok := strings.CutPrefix(op, "fast_"); ok {
		return f, true
	}
	return strings.TrimPrefix(op, "precise_"), false
}

// traceCall records call c of declaration name, whose result is r, when the
// translation is instrumented and name is a traced operation.
func (t *translator) traceCall(c *air.Call, name string, r spirv.ID) {
	if t.opts.trace == 0 || r == 0 {
		return
	}
	fam, fast := traceFamily(name)
	traced := false
	for _, f := range TracedFamilies {
		traced = traced || f == fam
	}
	tr := t.tracerState()
	if !traced {
		for _, f := range untracedFamilies {
			if f == fam && !tr.untracedSeen[name] {
				tr.untracedSeen[name] = true
				tr.info.Untraced = append(tr.info.Untraced, name)
			}
		}
		return
	}
	ty := c.Type()
	bits := scalarBits(air.Scalar(ty))
	if !isFloat(ty) || isBFloat(ty) || bits != 16 && bits != 32 || lanes(ty) > 4 || len(c.Args) > 3 {
		tr.untracedSeen[name] = true
		tr.info.Untraced = append(tr.info.Untraced, name+" (of "+ty.String()+")")
		return
	}
	for _, a := range c.Args {
		if a.Type() != ty {
			tr.info.Untraced = append(tr.info.Untraced, name+" (mixed argument types)")
			return
		}
	}
	t.traceRecord(tr, TraceOp{Name: name, Family: fam, Fast: fast, Arity: len(c.Args), Lanes: lanes(ty), Bits: bits}, ty, c.Args, r)
}

// DivisionFamily is the family of a traced fdiv (mathbound's row "x / y").
const DivisionFamily = "fdiv"

// traceDivision records fdiv d, whose result is r, when the translation is
// instrumented and d's flags let it approximate (air.FastMath's
// ApproximatesDivision: MSL Table 8.2's x / y, within 2.5 ulp) on 32-bit
// floats: its operation is named "fdiv." and the type's LLVM suffix
// ("fdiv.v2f32"), as the reference names the division it takes from the
// records (compiler/cpuref). A precise fdiv is correctly rounded in Metal
// (Table 8.1) and a half one always is (Table 8.3, fast math or not), so
// neither is approximate; a float fdiv of more than 4 lanes is named
// untraced.
func (t *translator) traceDivision(d *air.BinOp, r spirv.ID) {
	if t.opts.trace == 0 || r == 0 || d.Op != air.OpFDiv || !d.FastMath.ApproximatesDivision() {
		return
	}
	ty := d.Type()
	if !isFloat(ty) || isBFloat(ty) || scalarBits(air.Scalar(ty)) != 32 {
		return
	}
	name := DivisionFamily + ".f32"
	if _, vec := ty.(*air.VectorType); vec {
		name = fmt.Sprintf("%s.v%df32", DivisionFamily, lanes(ty))
	}
	tr := t.tracerState()
	if lanes(ty) > 4 {
		if !tr.untracedSeen[name] {
			tr.untracedSeen[name] = true
			tr.info.Untraced = append(tr.info.Untraced, name+" (of "+ty.String()+")")
		}
		return
	}
	t.traceRecord(tr, TraceOp{Name: name, Family: DivisionFamily, Fast: true, Arity: 2, Lanes: lanes(ty), Bits: 32}, ty, []air.Value{d.X, d.Y}, r)
}

// traceRecord writes the record of one call of op (arguments args of type
// ty, result r) into the invocation's next slot.
func (t *translator) traceRecord(tr *tracer, op TraceOp, ty air.Type, args []air.Value, r spirv.ID) {
	k, ok := tr.index[op.Name]
	if !ok {
		k = len(tr.info.Ops)
		tr.index[op.Name] = k
		tr.info.Ops = append(tr.info.Ops, op)
	}
	u := t.u32
	cu := t.b.ConstantU32
	base := t.traceBase(tr)
	n := t.f.Op(spirv.OpLoad, u, tr.counter)
	n1 := t.f.Op(spirv.OpIAdd, u, n, cu(1))
	t.f.Emit(spirv.OpStore, uint32(tr.counter), uint32(n1))
	slot := t.f.ExtInst(u, spirv.GLSLUMin, n, cu(uint32(tr.info.Capacity)))
	rec := t.f.Op(spirv.OpIAdd, u, base, t.f.Op(spirv.OpIMul, u, slot, cu(TraceRecordWords*4)))
	rec = t.f.Op(spirv.OpIAdd, u, rec, cu(4))
	i32 := &air.IntType{Bits: 32}
	p := t.makePointer(tr.root, rec, 0)
	t.store(p, 0, i32, cu(uint32(k)), 4)
	for i, a := range args {
		t.store(p, uint64(4+i*traceSlotBytes), ty, t.value(a), 4)
	}
	t.store(p, uint64(4+len(args)*traceSlotBytes), ty, r, 4)
}

// traceBase is the byte offset of the invocation's region in the trace
// buffer.
func (t *translator) traceBase(tr *tracer) spirv.ID {
	return t.f.Op(spirv.OpIMul, t.u32, t.traceInvocation(tr), t.b.ConstantU32(uint32(tr.info.InvocationWords()*4)))
}

// traceCount writes the invocation's call count, word 0 of its region,
// when the translation is instrumented: at each return of the entry point
// and before a fragment function demotes itself to a helper invocation
// (whose stores are not performed), the points past which the invocation
// records nothing. A record leaves the count to these, one store per
// invocation's end rather than one per call: every store is a loop over
// the lanes in llvmpipe's code.
func (t *translator) traceCount() {
	if t.opts.trace == 0 {
		return
	}
	tr := t.tracerState()
	base := t.traceBase(tr)
	n := t.f.Op(spirv.OpLoad, t.u32, tr.counter)
	t.store(t.makePointer(tr.root, base, 0), 0, &air.IntType{Bits: 32}, n, 4)
}

// traceInvocation is the invocation's index: gid.x + W·(gid.y + H·gid.z)
// for a kernel, x + Width·y of its pixel for a fragment function, its
// VertexIndex for a vertex function.
func (t *translator) traceInvocation(tr *tracer) spirv.ID {
	u := t.u32
	switch t.model {
	case spirv.ExecutionModelFragment:
		f4 := t.f.Op(spirv.OpLoad, t.b.TypeVector(t.b.TypeFloat(32), 4), tr.frag)
		coord := func(i uint32) spirv.ID {
			return t.f.Op(spirv.OpConvertFToU, u, t.f.OpWords(spirv.OpCompositeExtract, t.b.TypeFloat(32), uint32(f4), i))
		}
		return t.f.Op(spirv.OpIAdd, u, coord(0), t.f.Op(spirv.OpIMul, u, coord(1), t.b.ConstantU32(uint32(t.opts.traceWidth))))
	case spirv.ExecutionModelVertex:
		return t.f.Op(spirv.OpBitcast, u, t.f.Op(spirv.OpLoad, t.b.TypeInt(32, true), tr.vertex))
	}
	v3 := t.b.TypeVector(u, 3)
	gid := t.f.Op(spirv.OpLoad, v3, tr.gid)
	size := t.f.Op(spirv.OpIMul, v3, t.f.Op(spirv.OpLoad, v3, tr.groups), t.workgroupSize)
	lane := func(v spirv.ID, i uint32) spirv.ID { return t.f.OpWords(spirv.OpCompositeExtract, u, uint32(v), i) }
	inv := t.f.Op(spirv.OpIAdd, u, lane(gid, 1), t.f.Op(spirv.OpIMul, u, lane(size, 1), lane(gid, 2)))
	return t.f.Op(spirv.OpIAdd, u, lane(gid, 0), t.f.Op(spirv.OpIMul, u, lane(size, 0), inv))
}

// tracerState declares the trace buffer, the invocation's call counter and
// the built-ins the invocation index needs, once.
func (t *translator) tracerState() *tracer {
	if t.tr != nil {
		return t.tr
	}
	tr := &tracer{info: &Trace{Binding: TraceBinding, Capacity: t.opts.trace}, index: map[string]int{}, untracedSeen: map[string]bool{}}
	rta := t.b.TypeRuntimeArray(t.u32, 4)
	block := t.b.TypeStructUnique(rta)
	t.b.Decorate(block, spirv.DecorationBlock)
	t.b.MemberDecorate(block, 0, spirv.DecorationOffset, 0)
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassStorageBuffer, block), spirv.StorageClassStorageBuffer)
	t.b.Name(v, "airpipe_trace")
	t.decorateBinding(v, TraceBinding)
	tr.root = &root{kind: rootBuffer, v: v, sc: spirv.StorageClassStorageBuffer, wrapped: true}
	tr.counter = t.b.Variable(t.b.TypePointer(spirv.StorageClassPrivate, t.u32), spirv.StorageClassPrivate, t.b.ConstantU32(0))
	t.iface = append(t.iface, tr.counter)
	input := func(ty spirv.ID, bi spirv.BuiltIn) spirv.ID {
		in := t.b.Variable(t.b.TypePointer(spirv.StorageClassInput, ty), spirv.StorageClassInput)
		t.b.Decorate(in, spirv.DecorationBuiltIn, uint32(bi))
		t.iface = append(t.iface, in)
		return in
	}
	switch t.model {
	case spirv.ExecutionModelFragment:
		tr.frag = input(t.b.TypeVector(t.b.TypeFloat(32), 4), spirv.BuiltInFragCoord)
	case spirv.ExecutionModelVertex:
		tr.vertex = input(t.b.TypeInt(32, true), spirv.BuiltInVertexIndex)
	default:
		v3 := t.b.TypeVector(t.u32, 3)
		tr.gid = input(v3, spirv.BuiltInGlobalInvocationId)
		tr.groups = input(v3, spirv.BuiltInNumWorkgroups)
	}
	t.tr = tr
	return tr
}

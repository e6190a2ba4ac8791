package translate

import (
	"context"
	"fmt"
	"maps"
	"sort"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/internal/codes"
)

// Output is one translated entry point.
type Output struct {
	// SPIRV is the encoded module (not yet validated; see spirv.Validate).
	SPIRV []byte `json:"-"`
	// Reflection describes the module's interface for the execution stages.
	Reflection Reflection `json:"reflection"`
	// Entry is the SPIR-V entry point's name.
	Entry string `json:"entry"`
	// Trace is the trace buffer of an instrumented translation
	// (TranslateTraced), else nil.
	Trace *Trace `json:"trace,omitempty"`
}

// Translate lowers entry point ep of module m to one SPIR-V module for
// Vulkan 1.2. When anything is missing it returns a *MissingError listing
// every missing feature found in the entry point and everything it calls.
func Translate(m *air.Module, ep air.EntryPoint) (*Output, error) {
	return translate(m, ep, options{})
}

// TranslateContext is Translate that stops early when ctx ends (a stage
// timeout, an interrupted run): it returns ctx's error and drops what it
// built, so a translation cut short holds no memory.
func TranslateContext(ctx context.Context, m *air.Module, ep air.EntryPoint) (*Output, error) {
	out, err := translate(m, ep, options{ctx: ctx})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return out, err
}

// options are test-only knobs; the zero value is the product.
type options struct {
	// dropMerges leaves out every merge instruction, so that tests can see
	// the validator reject unstructured output.
	dropMerges bool
	// keepCrossing leaves values whose uses the plan no longer dominates in
	// registers, so that tests can see the validator reject them.
	keepCrossing bool
	// trace, when above 0, instruments the translation with this many
	// trace records per invocation (trace.go).
	trace int
	// traceWidth is a traced fragment function's draw width (TraceLayout).
	traceWidth int
	// ctx, when set, stops the emission once it ends (TranslateContext).
	ctx context.Context
}

// stopped reports whether the translation's context has ended; it looks
// every 256 instructions.
func (t *translator) stopped() bool {
	if t.opts.ctx == nil {
		return false
	}
	if t.insts++; t.insts%256 != 0 {
		return false
	}
	return t.opts.ctx.Err() != nil
}

func translate(m *air.Module, ep air.EntryPoint, opts options) (*Output, error) {
	if ep.Function == nil {
		return nil, fmt.Errorf("translate: entry point has no function")
	}
	name := ep.Function.Name
	var model spirv.ExecutionModel
	switch ep.Stage {
	case air.Kernel:
		model = spirv.ExecutionModelGLCompute
	case air.Vertex:
		model = spirv.ExecutionModelVertex
	case air.Fragment:
		model = spirv.ExecutionModelFragment
	case air.Visible:
		return nil, &MissingError{Entry: name, Missing: []Finding{{CodeLibraryFunction, "air.visible"}}}
	default:
		return nil, &MissingError{Entry: name, Missing: []Finding{{CodeUnsupportedStage, "air." + string(ep.Stage)}}}
	}
	if ep.Function.IsDeclaration() {
		return nil, fmt.Errorf("translate: entry point @%s has no body", name)
	}
	t := newTranslator(m, ep, model)
	t.opts = opts
	t.emitEntry()
	if len(t.miss.list) > 0 {
		return nil, &MissingError{Entry: name, Missing: t.miss.sorted()}
	}
	sort.Slice(t.refl.Bindings, func(i, j int) bool { return t.refl.Bindings[i].Binding < t.refl.Bindings[j].Binding })
	sort.Slice(t.refl.SpecConstants, func(i, j int) bool { return t.refl.SpecConstants[i].ID < t.refl.SpecConstants[j].ID })
	for _, c := range t.b.Capabilities() {
		t.refl.Capabilities = append(t.refl.Capabilities, c.String())
	}
	words, err := t.b.Words()
	if err != nil {
		return nil, fmt.Errorf("translate @%s: %w", name, err)
	}
	data := spirv.WordsToBytes(words)
	out := &Output{SPIRV: data, Reflection: t.refl, Entry: name}
	if opts.trace > 0 {
		out.Trace = &Trace{Binding: TraceBinding, Capacity: opts.trace}
		if t.tr != nil {
			out.Trace = t.tr.info
		}
	}
	return out, nil
}

// translator holds the state of one entry point's translation.
type translator struct {
	m     *air.Module
	ep    air.EntryPoint
	model spirv.ExecutionModel
	b     *spirv.Module
	miss  findings
	// insts counts the instructions emitted, for stopped.
	insts int
	refl  Reflection
	iface []spirv.ID
	// outputs receive the entry point's returned value (vertex, fragment).
	outputs []output
	// funcState is the state of the function being emitted (calls.go).
	funcState
	// workgroupSize is the kernel's local size (a spec-constant composite).
	workgroupSize spirv.ID
	u32           spirv.ID
	opts          options
	// globals are the roots of module globals, shared by every function.
	globals map[*air.GlobalVariable]*root
	// samplers are the constexpr samplers, by their state words (texread.go).
	samplers map[string]*resource
	// slots are the pointers stored in private memory (slots.go);
	// resSlots the textures and samplers stored there (made on first use).
	slots    map[slotKey]pointer
	resSlots map[slotKey]*resource
	// specs are the emitted callee specialisations; active guards recursion.
	specs  map[string]spirv.ID
	active map[*air.Function]bool
	// fcs are the module's function constants (fnconst.go).
	fcs map[*air.GlobalVariable]*fnConst
	// subgroupVars are the subgroup built-in inputs simd.go declared.
	subgroupVars map[spirv.BuiltIn]spirv.ID
	// tr is instrumentation mode's state (trace.go), nil until a traced call.
	tr *tracer
	// refusedArgs are the entry point's parameters whose binding was
	// refused by a finding (bindInputs): their uses read undef and add no
	// finding of their own, so the refusal is counted once, by its name.
	refusedArgs map[*air.Argument]bool
}

func newTranslator(m *air.Module, ep air.EntryPoint, model spirv.ExecutionModel) *translator {
	b := spirv.NewModule(spirv.AddressingModelLogical, spirv.MemoryModelGLSL450)
	b.Capability(spirv.CapabilityShader)
	t := &translator{
		m: m, ep: ep, model: model, b: b,
		funcState: funcState{
			vals:    map[air.Value]spirv.ID{},
			ptrs:    map[air.Value]pointer{},
			res:     map[air.Value]*resource{},
			roots:   map[air.Value]*root{},
			isEntry: true,
		},
		globals:  map[*air.GlobalVariable]*root{},
		samplers: map[string]*resource{},
		specs:    map[string]spirv.ID{},
		slots:    map[slotKey]pointer{},
		active:   map[*air.Function]bool{},
		refl:     Reflection{Stage: ep.Stage, Entry: ep.Function.Name},
	}
	t.u32 = b.TypeInt(32, false)
	var malformed []string
	t.fcs, malformed = functionConstants(m)
	for _, d := range malformed {
		t.miss.add(CodeUnsupportedInterface, d)
	}
	return t
}

// emitEntry emits the SPIR-V entry function: interface loads, the AIR
// function's blocks, and output stores at its returns.
func (t *translator) emitEntry() {
	fn := t.ep.Function
	void := t.b.TypeVoid()
	t.f = t.b.NewFunction(void, t.b.TypeFunction(void), spirv.FunctionControlNone)
	t.b.Name(t.f.ID, fn.Name)
	t.f.Label(t.b.ID())
	if t.model == spirv.ExecutionModelGLCompute {
		t.declareWorkgroupSize()
	}
	t.bindInputs()
	t.bindOutputs()
	t.active[fn] = true
	t.runStaticInits()
	t.emitBody(fn)
	t.b.EntryPoint(t.model, t.f.ID, fn.Name, t.iface)
	switch t.model {
	case spirv.ExecutionModelFragment:
		t.b.ExecutionMode(t.f.ID, spirv.ExecutionModeOriginUpperLeft)
	case spirv.ExecutionModelGLCompute:
		// The local size comes from the WorkgroupSize spec-constant composite.
	}
}

// emitBody emits fn's blocks into the current SPIR-V function, after the
// current (entry) block, which it ends with a branch to fn's first block.
func (t *translator) emitBody(fn *air.Function) {
	t.fn = fn
	t.checkSIMDMatrices(fn)
	t.pending = nil
	succ := make([][]int, len(fn.Blocks))
	for i, bl := range fn.Blocks {
		if len(bl.Insts) == 0 {
			t.miss.add(CodeUnsupportedCFG, "empty block")
			return
		}
		for _, s := range air.Successors(bl.Insts[len(bl.Insts)-1]) {
			succ[i] = append(succ[i], s.Index)
		}
	}
	plan, err := planCFG(succ)
	if err != nil {
		if ce, ok := err.(*cfgError); ok {
			t.miss.add(CodeUnsupportedCFG, ce.shape)
		} else {
			t.miss.add(CodeUnsupportedCFG, err.Error())
		}
		// Still walk every reachable instruction so every other missing
		// feature is found, in reverse post-order so that definitions come
		// before their uses.
		plan = &cfgPlan{succ: succ, orig: len(succ), loops: map[int]*loopPlan{}, selMerge: map[int]int{}}
		plan.order, _ = reversePostorder(succ, 0)
	}
	t.plan = plan
	t.cross, t.phiLoads = nil, nil
	if err == nil && !t.opts.keepCrossing {
		t.planValueFlow(fn)
	}
	n := len(plan.succ)
	t.entryLabel = make([]spirv.ID, n)
	t.exitLabel = make([]spirv.ID, n)
	for i := 0; i < n; i++ {
		t.entryLabel[i] = t.b.ID()
		t.exitLabel[i] = t.entryLabel[i]
		if plan.loops[i] != nil {
			t.exitLabel[i] = t.b.ID()
		}
	}
	t.edgeSel = map[int]spirv.ID{}
	t.cloneVals = map[int]map[air.Value]spirv.ID{}
	t.clonePtrs = map[int]map[air.Value]pointer{}
	t.collectPhis()
	t.f.Emit(spirv.OpBranch, uint32(t.entryLabel[0]))
	var fresh []spirv.ID
	freshLabel := func() spirv.ID {
		id := t.b.ID()
		fresh = append(fresh, id)
		return id
	}
	for _, node := range plan.order {
		t.f.Label(t.entryLabel[node])
		t.curBlock, t.emitting = t.blockOf(node), true
		var restore func()
		if node >= plan.orig && t.blockOf(node) >= 0 {
			// A copy of a block: its values (phis included) get their own ids.
			restore = t.cloneScope(fn.Blocks[t.blockOf(node)], node)
		}
		t.emitPhis(node)
		if l := plan.loops[node]; l != nil && !t.opts.dropMerges {
			merge := freshOr(l.merge, t.entryLabel, freshLabel)
			cont := t.entryLabel[l.cont]
			if l.cont == node {
				cont = t.exitLabel[node]
			}
			t.f.Emit(spirv.OpLoopMerge, uint32(merge), uint32(cont), uint32(spirv.LoopControlNone))
			t.f.Emit(spirv.OpBranch, uint32(t.exitLabel[node]))
			t.f.Label(t.exitLabel[node])
		}
		if node >= plan.orig && t.blockOf(node) < 0 {
			if sel := t.selectors[node]; sel != nil {
				t.dispatchBranch(node, sel.id, freshLabel)
				continue
			}
			t.f.Emit(spirv.OpBranch, uint32(t.entryLabel[plan.succ[node][0]]))
			continue
		}
		bl := fn.Blocks[t.blockOf(node)]
		for _, in := range bl.Insts {
			if p, ok := in.(*air.Phi); ok {
				t.storeCrossing(p) // a demoted phi (valueflow.go)
			}
		}
		for _, in := range bl.Insts[:len(bl.Insts)-1] {
			if _, ok := in.(*air.Phi); ok {
				continue
			}
			if t.stopped() {
				t.miss.add(codes.TranslateInternalError, "stopped: the context ended")
				return
			}
			t.inst(in)
			t.storeCrossing(in)
		}
		t.loadPhiOperands(node)
		t.terminator(node, bl.Insts[len(bl.Insts)-1], freshLabel)
		if restore != nil {
			restore()
		}
	}
	t.emitting = false
	for _, id := range fresh {
		t.f.Label(id)
		t.f.Emit(spirv.OpUnreachable)
	}
	t.patchPhis()
}

func freshOr(node int, labels []spirv.ID, fresh func() spirv.ID) spirv.ID {
	if node < 0 {
		return fresh()
	}
	return labels[node]
}

// cloneScope starts emitting node, a copy of block bl, before its phis:
// the block's values (phis included) get fresh ids for the copy, kept in
// cloneVals/clonePtrs for the successors' phis, and the original's ids come
// back when the returned function runs.
func (t *translator) cloneScope(bl *air.Block, node int) func() {
	var defs []air.Value
	for _, in := range bl.Insts {
		if air.HasResult(in) {
			defs = append(defs, in)
		}
	}
	savedV, savedP := moveOut(t.vals, defs), moveOut(t.ptrs, defs)
	return func() {
		t.cloneVals[node], t.clonePtrs[node] = moveOut(t.vals, defs), moveOut(t.ptrs, defs)
		maps.Copy(t.vals, savedV)
		maps.Copy(t.ptrs, savedP)
	}
}

// moveOut deletes keys from m and returns the entries it held for them.
func moveOut[V any](m map[air.Value]V, keys []air.Value) map[air.Value]V {
	out := map[air.Value]V{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
		delete(m, k)
	}
	return out
}

// dispatchBranch ends a dispatch node: a branch on its selector to the exit taken.
func (t *translator) dispatchBranch(node int, sel spirv.ID, fresh func() spirv.ID) {
	succ := t.plan.succ[node]
	if idx, ok := t.plan.folded[node]; ok {
		// A two-way dispatch whose both targets left for a later dispatch:
		// which of them it chose is the exit number that dispatch reads.
		c := t.f.Op(spirv.OpIEqual, t.b.TypeBool(), sel, t.b.ConstantU32(0))
		t.edgeSel[node] = t.f.Op(spirv.OpSelect, t.u32, c, t.b.ConstantU32(uint32(idx[0])), t.b.ConstantU32(uint32(idx[1])))
		t.f.Emit(spirv.OpBranch, uint32(t.entryLabel[succ[0]]))
		return
	}
	var c spirv.ID
	if len(succ) == 2 {
		c = t.f.Op(spirv.OpIEqual, t.b.TypeBool(), sel, t.b.ConstantU32(0))
	}
	if m, ok := t.plan.selMerge[node]; ok && !t.opts.dropMerges {
		t.f.Emit(spirv.OpSelectionMerge, uint32(freshOr(m, t.entryLabel, fresh)), uint32(spirv.SelectionControlNone))
	}
	if len(succ) == 2 {
		t.f.Emit(spirv.OpBranchConditional, uint32(c), uint32(t.entryLabel[succ[0]]), uint32(t.entryLabel[succ[1]]))
		return
	}
	ops := []uint32{uint32(sel), uint32(t.entryLabel[succ[0]])}
	for i, s := range succ[1:] {
		ops = append(ops, uint32(i+1), uint32(t.entryLabel[s]))
	}
	t.f.Emit(spirv.OpSwitch, ops...)
}

func (t *translator) terminator(node int, in air.Instruction, fresh func() spirv.ID) {
	succ := t.plan.succ[node]
	selection := func() {
		if m, ok := t.plan.selMerge[node]; ok && !t.opts.dropMerges {
			t.f.Emit(spirv.OpSelectionMerge, uint32(freshOr(m, t.entryLabel, fresh)), uint32(spirv.SelectionControlNone))
		}
	}
	if idx, ok := t.plan.folded[node]; ok {
		// Both targets left the loop: branch to its dispatch, which exit is a select.
		if br, isBr := in.(*air.Br); isBr && br.Cond != nil {
			t.edgeSel[node] = t.f.Op(spirv.OpSelect, t.u32, t.value(br.Cond), t.b.ConstantU32(uint32(idx[0])), t.b.ConstantU32(uint32(idx[1])))
			t.f.Emit(spirv.OpBranch, uint32(t.entryLabel[succ[0]]))
			return
		}
	}
	switch in := in.(type) {
	case *air.Br:
		if in.Cond == nil {
			t.f.Emit(spirv.OpBranch, uint32(t.entryLabel[succ[0]]))
			return
		}
		c := t.value(in.Cond)
		selection()
		t.f.Emit(spirv.OpBranchConditional, uint32(c), uint32(t.entryLabel[succ[0]]), uint32(t.entryLabel[succ[1]]))
	case *air.Switch:
		it, ok := in.Cond.Type().(*air.IntType)
		if !ok || it.Bits > 64 {
			t.miss.addf(CodeUnhandledInstruction, "switch on %s", in.Cond.Type())
			t.f.Emit(spirv.OpUnreachable)
			return
		}
		c := t.value(in.Cond)
		switch {
		case it.Bits == 1:
			c = t.f.Op(spirv.OpSelect, t.u32, c, t.b.ConstantU32(1), t.b.ConstantU32(0))
		case it.Bits < 32 && !oddWidth(it.Bits): // an odd width is its word (intwidth.go)
			c = t.f.Op(spirv.OpUConvert, t.u32, c)
		}
		selection()
		ops := []uint32{uint32(c), uint32(t.entryLabel[succ[0]])}
		for i, cs := range in.Cases {
			v := cs.Value.Bits
			if it.Bits < 64 {
				v &= 1<<uint(it.Bits) - 1 // the selector was widened unsigned
			}
			// A 64-bit selector takes 64-bit literals, low word first.
			ops = append(ops, uint32(v))
			if it.Bits == 64 {
				ops = append(ops, uint32(v>>32))
			}
			ops = append(ops, uint32(t.entryLabel[succ[i+1]]))
		}
		t.f.Emit(spirv.OpSwitch, ops...)
	case *air.Ret:
		if t.isEntry {
			t.ret(in)
		} else {
			t.retValue(in)
		}
	case *air.Unreachable:
		t.f.Emit(spirv.OpUnreachable)
	default:
		t.miss.add(CodeUnhandledInstruction, in.Opcode().String())
		t.f.Emit(spirv.OpUnreachable)
	}
}

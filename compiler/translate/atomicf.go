package translate

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Float atomics (ABI.md, "Float atomics"). Metal's atomic<float> on device
// and threadgroup memory compiles to air.atomic.{global,local}.<op>.f32
// (ptr, float value, i32 memory order, i32 scope, i1 volatile). Memory is
// 32-bit words in the pointer model, so each operation works on the word
// holding the float, reinterpreted:
//
//   - load, store and xchg are the integer atomics on the word with the value
//     bitcast (an exchange returns the old bits as a float);
//   - add and sub are a compare-and-swap loop on the word, emitted as a
//     SPIR-V helper function per (operation, root) so the caller's block
//     structure stays as the structuriser planned it: load the word
//     atomically, add (subtract) in float, OpAtomicCompareExchange the
//     result against the word read, and retry with the word the exchange saw
//     until it is the word read. The word compare is on bits, so a NaN in
//     memory cannot make it loop forever. The call returns the float the
//     successful exchange replaced: Metal's fetch_add returns the old value.
//
// The loop needs no device feature (shaderBufferFloat32AtomicAdd is not
// assumed). Every order is memory_order_relaxed, the only order Metal
// offers on atomics; another order operand is refused by name. min and max
// on floats, and any other operation or width, are refused by name.

// floatAtomicOps are the float read-modify-write operations lowered as a
// compare-and-swap loop, and the float instruction each applies.
var floatAtomicOps = map[string]spirv.Op{"add": spirv.OpFAdd, "sub": spirv.OpFSub}

// floatAtomic lowers air.atomic.<space>.<kind>.f32; name is the callee's name.
func (t *translator) floatAtomic(c *air.Call, name, kind string) (spirv.ID, bool) {
	if len(c.Args) < 2 || !isPointer(c.Args[0].Type()) {
		return 0, false
	}
	if kind != "store" {
		if f, ok := c.Type().(*air.FloatType); !ok || f.Kind != air.Float {
			return 0, false
		}
	}
	valArg := 1
	if kind == "load" {
		valArg = 0
	} else if f, ok := c.Args[1].Type().(*air.FloatType); !ok || f.Kind != air.Float {
		return 0, false
	}
	if len(c.Args) > valArg+1 {
		if o, ok := c.Args[valArg+1].(*air.ConstInt); !ok || o.Bits != 0 {
			t.miss.addf(CodeUnhandledIntrinsic, "%s with a memory order other than relaxed", name)
			return t.undefResult(c), true
		}
	}
	_, rmw := floatAtomicOps[kind]
	if !rmw && kind != "load" && kind != "store" && kind != "xchg" {
		return 0, false
	}
	p := t.ptr(c.Args[0])
	if p.root == nil {
		return t.undefResult(c), true
	}
	if p.root.kind != rootBuffer && p.root.kind != rootWorkgroup {
		t.miss.addf(CodeUnhandledInstruction, "%s on thread or constant memory", name)
		return t.undefResult(c), true
	}
	if !t.checkAligned(p, 0, 4) {
		return t.undefResult(c), true
	}
	f32 := t.b.TypeFloat(32)
	scope, relaxed := t.atomicScope(p.root), t.b.ConstantU32(0)
	if rmw {
		addr, _, _ := t.byteAddr(p, 0)
		idx := t.f.Op(spirv.OpShiftRightLogical, t.u32, addr, t.b.ConstantU32(2))
		fn := t.floatCASLoop(p.root, kind)
		return t.f.Op(spirv.OpFunctionCall, f32, fn, idx, t.value(c.Args[1])), true
	}
	wp, _ := t.wordAt(p, 0)
	switch kind {
	case "load":
		w := t.f.Op(spirv.OpAtomicLoad, t.u32, wp, scope, relaxed)
		return t.f.Op(spirv.OpBitcast, f32, w), true
	case "store":
		w := t.f.Op(spirv.OpBitcast, t.u32, t.value(c.Args[1]))
		t.f.Emit(spirv.OpAtomicStore, uint32(wp), uint32(scope), uint32(relaxed), uint32(w))
		return 0, true
	}
	w := t.f.Op(spirv.OpBitcast, t.u32, t.value(c.Args[1]))
	old := t.f.Op(spirv.OpAtomicExchange, t.u32, wp, scope, relaxed, w)
	return t.f.Op(spirv.OpBitcast, f32, old), true
}

// atomicScope is the scope of an atomic on root r: the device for buffers,
// the workgroup for threadgroup memory.
func (t *translator) atomicScope(r *root) spirv.ID {
	if r.kind == rootWorkgroup {
		return t.b.ConstantU32(uint32(spirv.ScopeWorkgroup))
	}
	return t.b.ConstantU32(uint32(spirv.ScopeDevice))
}

// floatCASLoop returns the helper function float(uint word, float v) that
// applies kind (floatAtomicOps) to word index word of root r atomically and
// returns the float it replaced; one is emitted per (kind, root):
//
//	entry:  old0 = AtomicLoad(&r[word])
//	header: old = phi(old0 entry, seen cont); LoopMerge merge cont
//	body:   new = bits(float(old) op v); seen = AtomicCompareExchange(&r[word], new, old)
//	cont:   branch seen == old ? merge : header
//	merge:  return float(old)
func (t *translator) floatCASLoop(r *root, kind string) spirv.ID {
	key := fmt.Sprintf("air.atomic.%s.f32 %p", kind, r)
	if id, ok := t.specs[key]; ok {
		return id
	}
	f32 := t.b.TypeFloat(32)
	g := t.b.NewFunction(f32, t.b.TypeFunction(f32, t.u32, f32), spirv.FunctionControlNone)
	t.b.Name(g.ID, "atomic_fetch_"+kind+"_f32")
	t.specs[key] = g.ID
	word := g.Param(t.u32)
	v := g.Param(f32)
	entry, header, body, cont, merge := t.b.ID(), t.b.ID(), t.b.ID(), t.b.ID(), t.b.ID()
	scope, relaxed := t.atomicScope(r), t.b.ConstantU32(0)

	g.Label(entry)
	pt := t.b.TypePointer(r.sc, t.u32)
	var wp spirv.ID
	if r.wrapped {
		wp = g.Op(spirv.OpAccessChain, pt, r.v, t.b.ConstantU32(0), word)
	} else {
		wp = g.Op(spirv.OpAccessChain, pt, r.v, word)
	}
	first := g.Op(spirv.OpAtomicLoad, t.u32, wp, scope, relaxed)
	g.Emit(spirv.OpBranch, uint32(header))

	g.Label(header)
	phi := g.Len()
	old := g.OpWords(spirv.OpPhi, t.u32, uint32(first), uint32(entry))
	g.Emit(spirv.OpLoopMerge, uint32(merge), uint32(cont), 0)
	g.Emit(spirv.OpBranch, uint32(body))

	g.Label(body)
	oldF := g.Op(spirv.OpBitcast, f32, old)
	res := g.Op(floatAtomicOps[kind], f32, oldF, v)
	nw := g.Op(spirv.OpBitcast, t.u32, res)
	seen := g.Op(spirv.OpAtomicCompareExchange, t.u32, wp, scope, relaxed, relaxed, nw, old)
	done := g.Op(spirv.OpIEqual, t.b.TypeBool(), seen, old)
	g.Emit(spirv.OpBranch, uint32(cont))

	g.Label(cont)
	g.Emit(spirv.OpBranchConditional, uint32(done), uint32(merge), uint32(header))

	g.Label(merge)
	g.Emit(spirv.OpReturnValue, uint32(oldF))
	g.Patch(phi, uint32(first), uint32(entry), uint32(seen), uint32(cont))
	return g.ID
}

package translate

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Calls to functions with bodies become SPIR-V function calls. A callee is
// specialised per call signature: each pointer parameter is passed as its
// u32 byte offset with the root (the variable it points into) fixed by the
// call site, and texture and sampler parameters are bound to the caller's
// resources directly, so the pointer model needs no pointer-typed
// parameters. Recursion is refused.

// funcState is the per-function part of the translator's state, saved and
// restored whole around the emission of a callee.
type funcState struct {
	f          *spirv.Function
	fn         *air.Function
	vals       map[air.Value]spirv.ID
	ptrs       map[air.Value]pointer
	res        map[air.Value]*resource
	roots      map[air.Value]*root
	objs       map[air.Value]*object // texture and sampler objects (objects.go)
	plan       *cfgPlan
	entryLabel []spirv.ID
	exitLabel  []spirv.ID
	phis       [][]*phiSlot
	pending    []pendingPhi
	selectors  map[int]*phiSlot
	// cloneVals and clonePtrs hold what a duplicated block's copy defines.
	cloneVals map[int]map[air.Value]spirv.ID
	clonePtrs map[int]map[air.Value]pointer
	// edgeSel is the exit number each folded branch selected.
	edgeSel map[int]spirv.ID
	// isEntry is set while the entry function itself is emitted.
	isEntry bool
	// cross are the values demoted to variables and phiLoads their phi
	// operands loaded in predecessors (valueflow.go); curBlock is the LLVM
	// block being emitted while emitting is set.
	cross    map[air.Value]*crossing
	phiLoads map[phiLoadKey]spirv.ID
	curBlock int
	emitting bool
}

// callDefined lowers a call to a function with a body.
func (t *translator) callDefined(c *air.Call, callee *air.Function) {
	if t.active[callee] {
		t.miss.add(CodeUnhandledInstruction, "recursive call")
		t.undefCall(c)
		return
	}
	if isPointer(callee.Sig.Ret) {
		t.miss.add(CodeUnhandledInstruction, "call returning a pointer")
		t.undefCall(c)
		return
	}
	if callee.Sig.VarArg || len(c.Args) != len(callee.Args) {
		t.miss.add(CodeUnhandledInstruction, "call (variadic)")
		t.undefCall(c)
		return
	}
	// The specialisation key: each pointer argument's root, each resource.
	var key strings.Builder
	fmt.Fprintf(&key, "%p", callee)
	ptrs := make([]pointer, len(c.Args))
	ress := make([]*resource, len(c.Args))
	objs := make([]*object, len(c.Args))
	for i, a := range c.Args {
		if o := t.object(a); o != nil {
			objs[i] = o
			key.WriteString(",o")
			o.key(&key)
			continue
		}
		if r := t.resource(a); r != nil {
			ress[i] = r
			fmt.Fprintf(&key, ",r%p", r)
			continue
		}
		if undefPointer(a) && argUnused(callee, callee.Args[i]) {
			ptrs[i] = pointer{off: t.b.ConstantU32(0)} // undefargs.go
			key.WriteString(",u")
			continue
		}
		if isPointer(a.Type()) {
			ptrs[i] = t.ptr(a)
			if ptrs[i].dyn == 0 {
				// A constant offset stays constant in the callee, so that
				// pointer slots (slots.go) keep working through calls.
				fmt.Fprintf(&key, ",p%p@%d", ptrs[i].root, ptrs[i].cst)
			} else {
				fmt.Fprintf(&key, ",p%p", ptrs[i].root)
			}
		}
	}
	fnID, ok := t.specs[key.String()]
	if !ok {
		fnID = t.emitCallee(callee, ptrs, ress, objs)
		t.specs[key.String()] = fnID
	}
	ops := []uint32{uint32(fnID)}
	for i, a := range c.Args {
		switch {
		case ress[i] != nil, objs[i] != nil:
		case isPointer(a.Type()):
			ops = append(ops, uint32(ptrs[i].off))
		default:
			ops = append(ops, uint32(t.value(a)))
		}
	}
	id := t.f.OpWords(spirv.OpFunctionCall, t.typ(callee.Sig.Ret), ops...)
	if air.HasResult(c) {
		t.vals[c] = id
	}
}

func (t *translator) undefCall(c *air.Call) {
	if air.HasResult(c) && !isPointer(c.Type()) {
		t.vals[c] = t.b.Undef(t.typ(c.Type()))
	}
}

// emitCallee emits one specialisation of callee and returns its id.
func (t *translator) emitCallee(callee *air.Function, ptrs []pointer, ress []*resource, objs []*object) spirv.ID {
	saved := t.funcState
	defer func() { t.funcState = saved }()
	t.active[callee] = true
	defer delete(t.active, callee)

	ret := t.typ(callee.Sig.Ret)
	var params []spirv.ID
	for i, a := range callee.Args {
		switch {
		case ress[i] != nil, objs[i] != nil:
		case isPointer(a.Type()):
			params = append(params, t.u32)
		default:
			params = append(params, t.typ(a.Type()))
		}
	}
	t.f = t.b.NewFunction(ret, t.b.TypeFunction(ret, params...), spirv.FunctionControlNone)
	t.b.Name(t.f.ID, callee.Name)
	t.vals = map[air.Value]spirv.ID{}
	t.ptrs = map[air.Value]pointer{}
	t.res = map[air.Value]*resource{}
	t.roots = map[air.Value]*root{}
	t.objs = map[air.Value]*object{}
	t.isEntry = false
	for i, a := range callee.Args {
		switch {
		case objs[i] != nil:
			t.objs[a] = objs[i]
		case ress[i] != nil:
			t.res[a] = ress[i]
		case isPointer(a.Type()):
			p := t.f.Param(t.u32)
			if ptrs[i].dyn == 0 {
				t.ptrs[a] = pointer{root: ptrs[i].root, cst: ptrs[i].cst, off: ptrs[i].off}
			} else {
				t.ptrs[a] = pointer{root: ptrs[i].root, dyn: p, off: p}
			}
		default:
			t.vals[a] = t.f.Param(t.typ(a.Type()))
		}
	}
	t.f.Label(t.b.ID())
	t.emitBody(callee)
	return t.f.ID
}

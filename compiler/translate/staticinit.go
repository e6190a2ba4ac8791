package translate

import (
	"sort"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Static initialisers (ABI.md, "Function constants"). Metal source such as
// `constant ushort pitch = pitch_fc;` compiles to a global constructor,
// listed in @llvm.global_ctors (section air.static_init), that loads the
// function constant and stores it (or a predicate derived from it) into a
// mutable addrspace(2) global, which entry points then read. Metal runs the
// constructors before the entry point; so does the translated module: the
// entry function calls each constructor, in priority order, before its
// body. The globals they write are Private, so each invocation initialises
// its own copy with the same values.

// staticInit is one @llvm.global_ctors entry.
type staticInit struct {
	prio uint64
	fn   *air.Function
}

// staticInits returns the module's global constructors in the order they
// run, and a finding detail for an entry that names no function with a body.
func staticInits(m *air.Module) ([]staticInit, []string) {
	var g *air.GlobalVariable
	for _, gv := range m.Globals {
		if gv.Name == "llvm.global_ctors" {
			g = gv
			break
		}
	}
	if g == nil || g.Init == nil {
		return nil, nil
	}
	arr, ok := g.Init.(*air.ConstAggregate)
	if !ok {
		if _, zero := g.Init.(*air.ConstZero); zero {
			return nil, nil
		}
		return nil, []string{"llvm.global_ctors initializer"}
	}
	var list []staticInit
	var bad []string
	for _, e := range arr.Elems {
		st, ok := e.(*air.ConstAggregate)
		if !ok || len(st.Elems) < 2 {
			bad = append(bad, "llvm.global_ctors entry")
			continue
		}
		prio, _ := st.Elems[0].(*air.ConstInt)
		fn, _ := st.Elems[1].(*air.Function)
		if prio == nil || fn == nil || fn.IsDeclaration() || len(fn.Args) != 0 {
			bad = append(bad, "llvm.global_ctors entry")
			continue
		}
		list = append(list, staticInit{prio.Bits, fn})
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].prio < list[j].prio })
	return list, bad
}

// runStaticInits calls the module's global constructors from the entry function.
func (t *translator) runStaticInits() {
	list, bad := staticInits(t.m)
	for _, d := range bad {
		t.miss.add(CodeUnhandledInstruction, d)
	}
	void := t.b.TypeVoid()
	for _, si := range list {
		id, ok := t.specs[si.fn.Name+"#ctor"]
		if !ok {
			id = t.emitCallee(si.fn, nil, nil, nil)
			t.specs[si.fn.Name+"#ctor"] = id
		}
		t.f.OpWords(spirv.OpFunctionCall, void, uint32(id))
	}
}

package translate

import "github.com/airpipe/airpipe/compiler/air"

// Pointer slots. Unoptimised AIR keeps pointers in private memory: a struct
// of buffer pointers built in an alloca by the entry point and read back in
// a helper (`this` of a C++ shader object). A pointer has no bits in this
// model, so such a store is kept at translation time instead: a slot is a
// constant offset in an alloca, written once with a pointer whose root and
// offset are constants, and a load of a pointer from the same slot yields
// that pointer. Anything else (a second store, a variable address, a
// pointer with a computed offset, a load before the store) is refused by name.
// A texture or sampler handle stored the same way (a C++ shader object's
// texture members) is kept the same way: the load yields the resource.

// slotKey is one pointer-sized place in a private root.
type slotKey struct {
	root *root
	off  int64
}

func (t *translator) storePointer(in *air.Store) {
	p := t.ptr(in.Ptr)
	if p.root == nil || p.root.kind != rootFunction || p.dyn != 0 {
		t.miss.add(CodeUnhandledInstruction, "store of a pointer")
		return
	}
	if r := t.resource(in.Val); r != nil {
		t.storeResource(slotKey{p.root, p.cst}, r)
		return
	}
	v := t.ptr(in.Val)
	if v.root == nil || v.dyn != 0 {
		t.miss.add(CodeUnhandledInstruction, "store of a computed pointer")
		return
	}
	k := slotKey{p.root, p.cst}
	if _, dup := t.slots[k]; dup || t.resSlots[k] != nil {
		t.miss.add(CodeUnhandledInstruction, "pointer slot stored twice")
		return
	}
	t.slots[k] = v
}

func (t *translator) loadPointer(in *air.Load) {
	p := t.ptr(in.Ptr)
	if p.root == nil || p.dyn != 0 {
		t.miss.add(CodeUnhandledInstruction, "load of a pointer")
		return
	}
	if r := t.resSlots[slotKey{p.root, p.cst}]; r != nil {
		t.res[in] = r
		return
	}
	v, ok := t.slots[slotKey{p.root, p.cst}]
	if !ok {
		t.miss.add(CodeUnhandledInstruction, "load of a pointer")
		return
	}
	t.ptrs[in] = v
}

// storeResource keeps texture or sampler r in the slot k.
func (t *translator) storeResource(k slotKey, r *resource) {
	if _, dup := t.slots[k]; dup || t.resSlots[k] != nil {
		t.miss.add(CodeUnhandledInstruction, "pointer slot stored twice")
		return
	}
	if t.resSlots == nil {
		t.resSlots = map[slotKey]*resource{}
	}
	t.resSlots[k] = r
}

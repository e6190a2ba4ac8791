package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Memory records: alloca, load, store and getelementptr (compiler/air's
// memory.go).

// readGEP reads GEP [flags, srcty, ops...] and the older GEP_OLD and
// INBOUNDS_GEP_OLD [ops...], whose source type is the base's pointee.
func (r *reader) readGEP(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	g := &air.GEP{}
	if x.code == funcCodeInstGEP {
		if err := x.need(2); err != nil {
			return nil, err
		}
		if ops[0]&^7 != 0 {
			return nil, x.unsupported("getelementptr flags %#x", ops[0])
		}
		g.InBounds = ops[0]&1 != 0
		g.NUSW = ops[0]&3 != 0
		g.NUW = ops[0]&4 != 0
		t, err := r.typeAt(ops[1], x.what)
		if err != nil {
			return nil, err
		}
		g.SourceElem = t
		i = 2
	} else {
		g.InBounds = x.code == funcCodeInstInboundsGEPOld
		g.NUSW = g.InBounds
	}
	base, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	g.Base = base
	if g.SourceElem == nil {
		p, ok := base.Type().(*air.PointerType)
		if !ok || p.Elem == nil {
			return nil, x.bad("base of an untyped getelementptr is not a typed pointer")
		}
		g.SourceElem = p.Elem
	}
	for i < len(ops) {
		v, err := r.opPair(x.fs, ops, &i)
		if err != nil {
			return nil, err
		}
		g.Indices = append(g.Indices, v)
	}
	t, err := r.gepResult(g)
	if err != nil {
		return nil, err
	}
	g.Typ = t
	return g, nil
}

// gepResult computes a getelementptr's result type.
func (r *reader) gepResult(g *air.GEP) (air.Type, *Error) {
	bp, ok := g.Base.Type().(*air.PointerType)
	var vecLen int
	if !ok {
		if v, vok := g.Base.Type().(*air.VectorType); vok {
			return nil, unsupported(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "vector getelementptr of %s", v)
		}
		return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "base of type %s", g.Base.Type())
	}
	for _, ix := range g.Indices {
		if v, ok := ix.Type().(*air.VectorType); ok {
			vecLen = v.Len
		}
	}
	if vecLen != 0 {
		return nil, unsupported(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "vector getelementptr")
	}
	if bp.Elem == nil {
		return bp, nil
	}
	// typed pointers: walk the indices for the result's pointee type
	t := g.SourceElem
	for k, ix := range g.Indices {
		if k == 0 {
			continue
		}
		switch tt := t.(type) {
		case *air.StructType:
			ci, ok := ix.(*air.ConstInt)
			if !ok || ci.Bits >= uint64(len(tt.Fields)) {
				return nil, unsupported(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "struct field chosen at run time")
			}
			t = tt.Fields[ci.Bits]
		case *air.ArrayType:
			t = tt.Elem
		case *air.VectorType:
			t = tt.Elem
		default:
			return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "index into %s", t)
		}
	}
	return r.ptrType(t, bp.AddrSpace), nil
}

// readAlloca reads ALLOCA [instty, opty, op, align, addrspace?].
func (r *reader) readAlloca(x *instRec) (air.Instruction, *Error) {
	if err := x.need(4); err != nil {
		return nil, err
	}
	ops := x.ops
	ty, err := r.typeAt(ops[0], x.what)
	if err != nil {
		return nil, err
	}
	opty, err := r.typeAt(ops[1], x.what)
	if err != nil {
		return nil, err
	}
	size, err := r.value(x.fs, ops[2], opty)
	if err != nil {
		return nil, err
	}
	rec := ops[3]
	a := &air.Alloca{Count: size}
	a.InAlloca = rec&(1<<5) != 0
	a.SwiftErr = rec&(1<<7) != 0
	if rec&(1<<6) == 0 {
		p, ok := ty.(*air.PointerType)
		if !ok || p.Elem == nil {
			return nil, x.bad("implicit alloca type is not a typed pointer")
		}
		ty = p.Elem
	}
	a.Elem = ty
	al, ok := decodeAlign(rec&31 | (rec>>8&7)<<5)
	if !ok {
		return nil, x.bad("alignment")
	}
	a.Align = al
	if len(ops) > 4 {
		a.AddrSpace = int(ops[4])
	}
	a.Typ = r.ptrType(ty, a.AddrSpace)
	return a, nil
}

// readLoad reads LOAD [op, ty?, align, vol] and LOADATOMIC [op, ty?,
// align, vol, ordering, ssid].
func (r *reader) readLoad(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	ptr, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	atomic := x.code == funcCodeInstLoadAtomic
	extra := 2
	if atomic {
		extra = 4
	}
	l := &air.Load{Ptr: ptr}
	if i+extra+1 == len(ops) {
		t, err := r.typeAt(ops[i], x.what)
		if err != nil {
			return nil, err
		}
		l.Typ = t
		i++
	} else if i+extra == len(ops) {
		p, ok := ptr.Type().(*air.PointerType)
		if !ok || p.Elem == nil {
			return nil, x.bad("implicit load type from %s", ptr.Type())
		}
		l.Typ = p.Elem
	} else {
		return nil, x.bad("%d operands", len(ops))
	}
	if l.Align, l.Volatile, l.Ordering, l.SyncScope, err = memAccess(ops[i:], atomic, x); err != nil {
		return nil, err
	}
	return l, nil
}

// readStore reads STORE [ptr, val, align, vol], STOREATOMIC [ptr, val,
// align, vol, ordering, ssid] and STORE_OLD, whose value has the type the
// typed pointer points to.
func (r *reader) readStore(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	ptr, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	var val air.Value
	if x.code == funcCodeInstStoreOld {
		p, ok := ptr.Type().(*air.PointerType)
		if !ok || p.Elem == nil {
			return nil, x.bad("store through %s", ptr.Type())
		}
		val, err = r.opTyped(x.fs, ops, &i, p.Elem)
	} else {
		val, err = r.opPair(x.fs, ops, &i)
	}
	if err != nil {
		return nil, err
	}
	atomic := x.code == funcCodeInstStoreAtomic
	want := 2
	if atomic {
		want = 4
	}
	if len(ops) != i+want {
		return nil, x.bad("%d operands", len(ops))
	}
	s := &air.Store{Val: val, Ptr: ptr}
	s.Typ = air.Void
	if s.Align, s.Volatile, s.Ordering, s.SyncScope, err = memAccess(ops[i:], atomic, x); err != nil {
		return nil, err
	}
	return s, nil
}

// memAccess decodes the [align, vol] tail of a load or store record, and the
// [ordering, ssid] after it when the access is atomic; the caller has checked
// that ops holds them all.
func memAccess(ops []uint64, atomic bool, x *instRec) (align uint64, volatile bool, ord air.Ordering, scope uint64, err *Error) {
	align, ok := decodeAlign(ops[0])
	if !ok {
		return 0, false, 0, 0, x.bad("alignment %d", ops[0])
	}
	volatile = ops[1] != 0
	if atomic {
		if ops[2] >= uint64(len(orderings)) {
			return 0, false, 0, 0, x.bad("ordering %d", ops[2])
		}
		ord, scope = orderings[ops[2]], ops[3]
	}
	return align, volatile, ord, scope, nil
}

// alignAt decodes the optional alignment at ops[k]: 0 when the record stops before it.
func alignAt(ops []uint64, k int) (uint64, bool) {
	if k >= len(ops) {
		return 0, true
	}
	return decodeAlign(ops[k])
}

package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// maxTypes bounds the type table (NUMENTRY) independently of input size.
const maxTypes = 1 << 20

// typeBlockState is what readTypes carries from one TYPE_BLOCK record to
// the next.
type typeBlockState struct {
	pendingName string                   // the STRUCT_NAME for the next named struct
	opaquePtr   map[int]*air.PointerType // one opaque pointer type per address space
}

// readTypes reads the TYPE_BLOCK into r.types.
func (r *reader) readTypes() *Error {
	c := r.c
	ts := &typeBlockState{opaquePtr: map[int]*air.PointerType{}}
	if err := r.eachRecord(func(code uint64) *Error {
		if code != 1 && code != 19 && len(r.types) >= cap(r.types) {
			return malformed(c.r.pos, recordName(typeBlockID, code), "more types than NUMENTRY said (%d)", cap(r.types))
		}
		t, err := r.typeRecord(ts, code, c.ops)
		if err != nil || t == nil {
			return err
		}
		return r.defineType(t)
	}); err != nil {
		return err
	}
	for i, t := range r.types {
		if t == nil {
			return malformed(c.r.pos, "TYPE_BLOCK", "type %d never defined", i)
		}
		if st, ok := t.(*air.StructType); ok && st.Fields == nil && !st.Opaque && !st.Literal && st.ID < 0 {
			return malformed(c.r.pos, "TYPE_BLOCK", "struct type %d referenced but never defined", i)
		}
	}
	r.numberStructs()
	return nil
}

// needTypeOps checks that a TYPE_BLOCK record has at least n operands.
func (r *reader) needTypeOps(code uint64, ops []uint64, n int) *Error {
	if len(ops) < n {
		return malformed(r.c.r.pos, recordName(typeBlockID, code), "%d operands, want %d", len(ops), n)
	}
	return nil
}

// typeRecord reads one TYPE_BLOCK record: the type it defines, or nil for
// NUMENTRY and STRUCT_NAME, which define none.
func (r *reader) typeRecord(ts *typeBlockState, code uint64, ops []uint64) (air.Type, *Error) {
	c := r.c
	switch code {
	case 1: // NUMENTRY
		if err := r.needTypeOps(code, ops, 1); err != nil {
			return nil, err
		}
		if ops[0] > maxTypes || ops[0] > c.r.left()/2 {
			return nil, malformed(c.r.pos, "TYPE_BLOCK/NUMENTRY", "%d types", ops[0])
		}
		r.types = make([]air.Type, 0, ops[0])
		return nil, nil
	case 2:
		return air.Void, nil
	case 3:
		return air.FloatTy, nil
	case 4:
		return air.DoubleTy, nil
	case 10:
		return air.HalfTy, nil
	case 23:
		return air.BFloatTy, nil
	case 13:
		return &air.FloatType{Kind: air.X86FP80}, nil
	case 14:
		return &air.FloatType{Kind: air.FP128}, nil
	case 15:
		return &air.FloatType{Kind: air.PPCFP128}, nil
	case 5:
		return air.Label, nil
	case 16:
		return air.MDType, nil
	case 22:
		return air.Token, nil
	case 7: // INTEGER [width]
		if err := r.needTypeOps(code, ops, 1); err != nil {
			return nil, err
		}
		if ops[0] < 1 || ops[0] > 1<<23 {
			return nil, malformed(c.r.pos, "TYPE_BLOCK/INTEGER", "width %d", ops[0])
		}
		return &air.IntType{Bits: int(ops[0])}, nil
	case 8, 25: // POINTER [pointee, addrspace]; OPAQUE_POINTER [addrspace]
		return r.pointerTypeRecord(ts, code, ops)
	case 21, 9: // FUNCTION [vararg, retty, params...]; FUNCTION_OLD [vararg, attrid, retty, params...]
		return r.functionTypeRecord(code, ops)
	case 18, 19, 20, 6: // STRUCT_ANON, STRUCT_NAME, STRUCT_NAMED, OPAQUE
		return r.structTypeRecord(ts, code, ops)
	case 11, 12: // ARRAY [n, elt]; VECTOR [n, elt, scalable]
		return r.sequenceTypeRecord(code, ops)
	}
	return nil, unknownRecord(c.r.pos, typeBlockID, code)
}

// defineType puts t at the next slot of the type table, where a forward
// reference may have put its placeholder struct already.
func (r *reader) defineType(t air.Type) *Error {
	c := r.c
	n := len(r.types)
	if n >= cap(r.types) {
		return malformed(c.r.pos, "TYPE_BLOCK", "more types than NUMENTRY said")
	}
	slot := r.types[: n+1 : cap(r.types)]
	if old := slot[n]; old != nil && old != t {
		return malformed(c.r.pos, "TYPE_BLOCK", "type %d was forward-referenced as a struct", n)
	}
	r.types = slot
	r.types[n] = t
	return nil
}

// pointerTypeRecord reads POINTER [pointee, addrspace] and OPAQUE_POINTER
// [addrspace]; opaque pointers of one address space are one type.
func (r *reader) pointerTypeRecord(ts *typeBlockState, code uint64, ops []uint64) (air.Type, *Error) {
	if err := r.needTypeOps(code, ops, 1); err != nil {
		return nil, err
	}
	if code == 8 {
		elem, err := r.typeRef(ops[0])
		if err != nil {
			return nil, err
		}
		as := 0
		if len(ops) > 1 {
			as = int(ops[1])
		}
		return &air.PointerType{Elem: elem, AddrSpace: as}, nil
	}
	as := int(ops[0])
	p := ts.opaquePtr[as]
	if p == nil {
		p = &air.PointerType{AddrSpace: as}
		ts.opaquePtr[as] = p
	}
	return p, nil
}

// functionTypeRecord reads FUNCTION [vararg, retty, params...] and
// FUNCTION_OLD [vararg, attrid, retty, params...].
func (r *reader) functionTypeRecord(code uint64, ops []uint64) (air.Type, *Error) {
	first := 1
	if code == 9 {
		first = 2
	}
	if err := r.needTypeOps(code, ops, first+1); err != nil {
		return nil, err
	}
	ft := &air.FunctionType{VarArg: ops[0] != 0}
	ret, err := r.typeRef(ops[first])
	if err != nil {
		return nil, err
	}
	ft.Ret = ret
	ft.Params = make([]air.Type, 0, len(ops)-first-1)
	for _, id := range ops[first+1:] {
		p, err := r.typeRef(id)
		if err != nil {
			return nil, err
		}
		ft.Params = append(ft.Params, p)
	}
	return ft, nil
}

// structTypeRecord reads STRUCT_ANON [packed, elts...], STRUCT_NAME (the
// name of the next named struct: no type), STRUCT_NAMED [packed, elts...]
// and OPAQUE.
func (r *reader) structTypeRecord(ts *typeBlockState, code uint64, ops []uint64) (air.Type, *Error) {
	switch code {
	case 18: // STRUCT_ANON
		if err := r.needTypeOps(code, ops, 1); err != nil {
			return nil, err
		}
		st := &air.StructType{Literal: true, Packed: ops[0] != 0}
		if err := r.structFields(st, ops[1:]); err != nil {
			return nil, err
		}
		return st, nil
	case 19: // STRUCT_NAME
		ts.pendingName = opsString(ops)
		return nil, nil
	}
	st := r.forwardStruct(len(r.types))
	st.Name = ts.pendingName
	ts.pendingName = ""
	if code == 6 {
		st.Opaque = true
	} else {
		if err := r.needTypeOps(code, ops, 1); err != nil {
			return nil, err
		}
		st.Packed = ops[0] != 0
		if err := r.structFields(st, ops[1:]); err != nil {
			return nil, err
		}
	}
	st.ID = 0
	return st, nil
}

// sequenceTypeRecord reads ARRAY [n, elt] and VECTOR [n, elt, scalable].
func (r *reader) sequenceTypeRecord(code uint64, ops []uint64) (air.Type, *Error) {
	if err := r.needTypeOps(code, ops, 2); err != nil {
		return nil, err
	}
	elem, err := r.typeRef(ops[1])
	if err != nil {
		return nil, err
	}
	if code == 11 {
		return &air.ArrayType{Len: ops[0], Elem: elem}, nil
	}
	if ops[0] == 0 || ops[0] > 1<<16 {
		return nil, unsupported(r.c.r.pos, "TYPE_BLOCK/VECTOR", "vector of %d elements", ops[0])
	}
	return &air.VectorType{Len: int(ops[0]), Elem: elem, Scalable: len(ops) > 2 && ops[2] != 0}, nil
}

// typeRef returns type id, creating a placeholder identified struct for a
// forward reference (only structs may be referenced before definition).
func (r *reader) typeRef(id uint64) (air.Type, *Error) {
	if id < uint64(len(r.types)) {
		t := r.types[id]
		if t == nil {
			return nil, malformed(r.c.r.pos, "TYPE_BLOCK", "type %d undefined", id)
		}
		return t, nil
	}
	if id >= uint64(cap(r.types)) {
		return nil, malformed(r.c.r.pos, "TYPE_BLOCK", "type id %d out of range", id)
	}
	return r.forwardStruct(int(id)), nil
}

// forwardStruct returns the placeholder struct at slot id, making it.
func (r *reader) forwardStruct(id int) *air.StructType {
	full := r.types[:cap(r.types)]
	if st, ok := full[id].(*air.StructType); ok && !st.Literal {
		return st
	}
	st := &air.StructType{ID: -1}
	full[id] = st
	return st
}

func (r *reader) structFields(st *air.StructType, ids []uint64) *Error {
	st.Fields = make([]air.Type, 0, len(ids))
	for _, id := range ids {
		f, err := r.typeRef(id)
		if err != nil {
			return err
		}
		st.Fields = append(st.Fields, f)
	}
	return nil
}

// numberStructs lists identified structs and numbers the unnamed ones.
func (r *reader) numberStructs() {
	n := 0
	for _, t := range r.types {
		st, ok := t.(*air.StructType)
		if !ok || st.Literal {
			continue
		}
		r.m.Structs = append(r.m.Structs, st)
		if st.Name == "" {
			st.ID = n
			n++
		}
	}
}

// typeAt returns the type with the given id.
func (r *reader) typeAt(id uint64, what string) (air.Type, *Error) {
	if id >= uint64(len(r.types)) {
		return nil, malformed(r.c.r.pos, what, "type id %d out of range (%d types)", id, len(r.types))
	}
	return r.types[id], nil
}

// ptrType is the pointer to elem in address space as, typed when the
// module uses typed pointers.
func (r *reader) ptrType(elem air.Type, as int) *air.PointerType {
	key := ptrKey{elem, as}
	if p, ok := r.ptrCache[key]; ok {
		return p
	}
	p := r.findPtrType(elem, as)
	if r.ptrCache == nil {
		r.ptrCache = map[ptrKey]*air.PointerType{}
	}
	r.ptrCache[key] = p
	return p
}

type ptrKey struct {
	elem air.Type
	as   int
}

func (r *reader) findPtrType(elem air.Type, as int) *air.PointerType {
	opaque := false
	for _, t := range r.types {
		if p, ok := t.(*air.PointerType); ok {
			if p.AddrSpace == as && (p.Elem == nil || p.Elem == elem) {
				return p
			}
			opaque = opaque || p.Elem == nil
		}
	}
	if opaque {
		// an opaque-pointer module: no pointee types anywhere
		return &air.PointerType{AddrSpace: as}
	}
	return &air.PointerType{Elem: elem, AddrSpace: as}
}

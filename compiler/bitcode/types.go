package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// maxTypes bounds the type table (NUMENTRY) independently of input size.
const maxTypes = 1 << 20

func (r *reader) readTypes() *Error {
	c := r.c
	const blk = typeBlockID
	var pendingName string
	var typed bool
	opaquePtr := map[int]*air.PointerType{}
	if err := r.eachRecord(func(code uint64) *Error {
		ops := c.ops
		if code != 1 && code != 19 && len(r.types) >= cap(r.types) {
			return malformed(c.r.pos, recordName(blk, code), "more types than NUMENTRY said (%d)", cap(r.types))
		}
		var t air.Type
		need := func(n int) *Error {
			if len(ops) < n {
				return malformed(c.r.pos, recordName(blk, code), "%d operands, want %d", len(ops), n)
			}
			return nil
		}
		switch code {
		case 1: // NUMENTRY
			if err := need(1); err != nil {
				return err
			}
			if ops[0] > maxTypes || ops[0] > c.r.left()/2 {
				return malformed(c.r.pos, "TYPE_BLOCK/NUMENTRY", "%d types", ops[0])
			}
			r.types = make([]air.Type, 0, ops[0])
			return nil
		case 2:
			t = air.Void
		case 3:
			t = air.FloatTy
		case 4:
			t = air.DoubleTy
		case 10:
			t = air.HalfTy
		case 23:
			t = air.BFloatTy
		case 13:
			t = &air.FloatType{Kind: air.X86FP80}
		case 14:
			t = &air.FloatType{Kind: air.FP128}
		case 15:
			t = &air.FloatType{Kind: air.PPCFP128}
		case 5:
			t = air.Label
		case 16:
			t = air.MDType
		case 22:
			t = air.Token
		case 7: // INTEGER [width]
			if err := need(1); err != nil {
				return err
			}
			if ops[0] < 1 || ops[0] > 1<<23 {
				return malformed(c.r.pos, "TYPE_BLOCK/INTEGER", "width %d", ops[0])
			}
			t = &air.IntType{Bits: int(ops[0])}
		case 8: // POINTER [pointee, addrspace]
			if err := need(1); err != nil {
				return err
			}
			elem, err := r.typeRef(ops[0])
			if err != nil {
				return err
			}
			as := 0
			if len(ops) > 1 {
				as = int(ops[1])
			}
			typed = true
			t = &air.PointerType{Elem: elem, AddrSpace: as}
		case 25: // OPAQUE_POINTER [addrspace]
			if err := need(1); err != nil {
				return err
			}
			as := int(ops[0])
			p := opaquePtr[as]
			if p == nil {
				p = &air.PointerType{AddrSpace: as}
				opaquePtr[as] = p
			}
			t = p
		case 21, 9: // FUNCTION [vararg, retty, params...]; FUNCTION_OLD [vararg, attrid, retty, params...]
			first := 1
			if code == 9 {
				first = 2
			}
			if err := need(first + 1); err != nil {
				return err
			}
			ft := &air.FunctionType{VarArg: ops[0] != 0}
			ret, err := r.typeRef(ops[first])
			if err != nil {
				return err
			}
			ft.Ret = ret
			ft.Params = make([]air.Type, 0, len(ops)-first-1)
			for _, id := range ops[first+1:] {
				p, err := r.typeRef(id)
				if err != nil {
					return err
				}
				ft.Params = append(ft.Params, p)
			}
			t = ft
		case 18: // STRUCT_ANON [packed, elts...]
			if err := need(1); err != nil {
				return err
			}
			st := &air.StructType{Literal: true, Packed: ops[0] != 0}
			if err := r.structFields(st, ops[1:]); err != nil {
				return err
			}
			t = st
		case 19: // STRUCT_NAME
			pendingName = opsString(ops)
			return nil
		case 20, 6: // STRUCT_NAMED [packed, elts...]; OPAQUE
			st := r.forwardStruct(len(r.types))
			st.Name = pendingName
			pendingName = ""
			if code == 6 {
				st.Opaque = true
			} else {
				if err := need(1); err != nil {
					return err
				}
				st.Packed = ops[0] != 0
				if err := r.structFields(st, ops[1:]); err != nil {
					return err
				}
			}
			st.ID = 0
			t = st
		case 11, 12: // ARRAY [n, elt]; VECTOR [n, elt, scalable]
			if err := need(2); err != nil {
				return err
			}
			elem, err := r.typeRef(ops[1])
			if err != nil {
				return err
			}
			if code == 11 {
				t = &air.ArrayType{Len: ops[0], Elem: elem}
			} else {
				if ops[0] == 0 || ops[0] > 1<<16 {
					return unsupported(c.r.pos, "TYPE_BLOCK/VECTOR", "vector of %d elements", ops[0])
				}
				t = &air.VectorType{Len: int(ops[0]), Elem: elem, Scalable: len(ops) > 2 && ops[2] != 0}
			}
		default:
			return unknownRecord(c.r.pos, blk, code)
		}
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
	_ = typed
	return nil
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

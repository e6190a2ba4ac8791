package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Aggregate member records: extractvalue and insertvalue (compiler/air's
// aggregate.go).

// readExtractValue reads EXTRACTVAL [agg, idx...].
func (r *reader) readExtractValue(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	agg, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	e := &air.ExtractValue{Agg: agg}
	if e.Indices, e.Typ, err = r.memberPath(agg.Type(), ops[i:], x); err != nil {
		return nil, err
	}
	return e, nil
}

// readInsertValue reads INSERTVAL [agg, val, idx...].
func (r *reader) readInsertValue(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	agg, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	val, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	e := &air.InsertValue{Agg: agg, Val: val}
	if e.Indices, _, err = r.memberPath(agg.Type(), ops[i:], x); err != nil {
		return nil, err
	}
	e.Typ = agg.Type()
	return e, nil
}

// memberType is the type of field idx of an aggregate type.
func (r *reader) memberType(t air.Type, idx uint64) (air.Type, *Error) {
	switch t := t.(type) {
	case *air.StructType:
		if idx < uint64(len(t.Fields)) {
			return t.Fields[idx], nil
		}
	case *air.ArrayType:
		if idx < t.Len {
			return t.Elem, nil
		}
	}
	return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK", "index %d into %s", idx, t)
}

// memberPath walks the constant member indices of an extractvalue or insertvalue
// into t, returning them and the type of the member they reach.
func (r *reader) memberPath(t air.Type, ops []uint64, x *instRec) ([]uint32, air.Type, *Error) {
	if len(ops) == 0 {
		return nil, nil, x.bad("no indices")
	}
	idx := make([]uint32, 0, len(ops))
	for _, o := range ops {
		var err *Error
		if t, err = r.memberType(t, o); err != nil {
			return nil, nil, err
		}
		idx = append(idx, uint32(o))
	}
	return idx, t, nil
}

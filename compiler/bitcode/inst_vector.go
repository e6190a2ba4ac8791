package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Vector element records: extractelement, insertelement and shufflevector
// (compiler/air's vector.go).

// readExtractElement reads EXTRACTELT [vec, idx].
func (r *reader) readExtractElement(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	v, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	idx, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	vt, ok := v.Type().(*air.VectorType)
	if !ok {
		return nil, x.bad("extractelement from %s", v.Type())
	}
	e := &air.ExtractElement{Vec: v, Index: idx}
	e.Typ = vt.Elem
	return e, nil
}

// readInsertElement reads INSERTELT [vec, elt, idx].
func (r *reader) readInsertElement(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	v, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	vt, ok := v.Type().(*air.VectorType)
	if !ok {
		return nil, x.bad("insertelement into %s", v.Type())
	}
	elt, err := r.opTyped(x.fs, ops, &i, vt.Elem)
	if err != nil {
		return nil, err
	}
	idx, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	e := &air.InsertElement{Vec: v, Elem: elt, Index: idx}
	e.Typ = v.Type()
	return e, nil
}

// readShuffleVector reads SHUFFLEVEC [v1, v2, mask].
func (r *reader) readShuffleVector(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	a, b, err := r.opPairOfOneType(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	m, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	at, ok := a.Type().(*air.VectorType)
	mt, ok2 := m.Type().(*air.VectorType)
	if !ok || !ok2 {
		return nil, x.bad("shufflevector of %s with mask %s", a.Type(), m.Type())
	}
	mask, err2 := r.shuffleMask(m, mt.Len)
	if err2 != "" {
		return nil, x.unsupported("%s", err2)
	}
	s := &air.ShuffleVector{X: a, Y: b, Mask: mask}
	s.Typ = &air.VectorType{Len: mt.Len, Elem: at.Elem}
	s.Typ = r.internVector(s.Typ.(*air.VectorType))
	return s, nil
}

// shuffleMask reads a shufflevector mask constant (-1 for undef/poison
// lanes). All-zero and all-undef masks of one length share one slice, so
// that a short record cannot make a long allocation.
func (r *reader) shuffleMask(m air.Value, n int) ([]int, string) {
	switch c := m.(type) {
	case *air.ConstZero:
		return r.sharedMask(n, 0), ""
	case *air.ConstUndef, *air.ConstPoison:
		return r.sharedMask(n, -1), ""
	case *air.ConstAggregate:
		mask := make([]int, n)
		for k, e := range c.Elems {
			switch e := e.(type) {
			case *air.ConstInt:
				mask[k] = int(e.Bits)
			case *air.ConstUndef, *air.ConstPoison:
				mask[k] = -1
			default:
				return nil, "shufflevector mask element is not a constant integer"
			}
		}
		return mask, ""
	}
	return nil, "shufflevector mask is not a constant"
}

func (r *reader) sharedMask(n, v int) []int {
	key := [2]int{n, v}
	if m, ok := r.masks[key]; ok {
		return m
	}
	m := make([]int, n)
	for k := range m {
		m[k] = v
	}
	if r.masks == nil {
		r.masks = map[[2]int][]int{}
	}
	r.masks[key] = m
	return m
}

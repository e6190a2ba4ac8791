package air

import "fmt"

// Byte layout of LLVM types under AIR's datalayout: integers and floats are
// naturally aligned (i1 takes a byte), pointers are 8 bytes, and a vector
// is aligned to the power of two at or above its size (v96:128, v48:64), as
// AIR's datalayout string lists. Struct fields are aligned unless packed.

// StoreSize is the number of bytes a value of t occupies when stored.
func StoreSize(t Type) (uint64, error) {
	switch t := t.(type) {
	case *IntType:
		return uint64((t.Bits + 7) / 8), nil
	case *FloatType:
		switch t.Kind {
		case Half, BFloat:
			return 2, nil
		case Float:
			return 4, nil
		case Double:
			return 8, nil
		}
	case *PointerType:
		return 8, nil
	case *VectorType:
		e, err := AllocSize(t.Elem)
		if err != nil {
			return 0, err
		}
		return e * uint64(t.Len), nil
	case *ArrayType, *StructType:
		return AllocSize(t)
	}
	return 0, fmt.Errorf("no layout for %s", t)
}

// AlignOf is t's ABI alignment in bytes.
func AlignOf(t Type) (uint64, error) {
	switch t := t.(type) {
	case *VectorType:
		s, err := StoreSize(t)
		if err != nil {
			return 0, err
		}
		a := uint64(1)
		for a < s {
			a <<= 1
		}
		return a, nil
	case *ArrayType:
		return AlignOf(t.Elem)
	case *StructType:
		if t.Packed {
			return 1, nil
		}
		a := uint64(1)
		for _, f := range t.Fields {
			fa, err := AlignOf(f)
			if err != nil {
				return 0, err
			}
			a = max(a, fa)
		}
		return a, nil
	}
	return StoreSize(t)
}

// AllocSize is the distance between consecutive values of t in memory.
func AllocSize(t Type) (uint64, error) {
	switch t := t.(type) {
	case *ArrayType:
		e, err := AllocSize(t.Elem)
		if err != nil {
			return 0, err
		}
		return e * t.Len, nil
	case *StructType:
		_, size, err := StructLayout(t)
		return size, err
	}
	s, err := StoreSize(t)
	if err != nil {
		return 0, err
	}
	a, err := AlignOf(t)
	if err != nil {
		return 0, err
	}
	return RoundUp(s, a), nil
}

// StructLayout returns each field's byte offset and the struct's alloc size.
func StructLayout(t *StructType) ([]uint64, uint64, error) {
	if t.Opaque {
		return nil, 0, fmt.Errorf("no layout for opaque %s", t)
	}
	offs := make([]uint64, len(t.Fields))
	var off uint64
	align := uint64(1)
	for i, f := range t.Fields {
		s, err := AllocSize(f)
		if err != nil {
			return nil, 0, err
		}
		a := uint64(1)
		if !t.Packed {
			if a, err = AlignOf(f); err != nil {
				return nil, 0, err
			}
		}
		off = RoundUp(off, a)
		offs[i] = off
		off += s
		align = max(align, a)
	}
	return offs, RoundUp(off, align), nil
}

// RoundUp rounds x up to a multiple of a (a ≤ 1: x itself).
func RoundUp(x, a uint64) uint64 {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

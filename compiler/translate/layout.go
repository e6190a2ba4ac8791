package translate

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
)

// Byte layout of LLVM types under AIR's datalayout: integers and floats are
// naturally aligned (i1 takes a byte), pointers are 8 bytes, and a vector
// is aligned to the power of two at or above its size (v96:128, v48:64), as
// AIR's datalayout string lists. Struct fields are aligned unless packed.

// storeSize is the number of bytes a value of t occupies when stored.
func storeSize(t air.Type) (uint64, error) {
	switch t := t.(type) {
	case *air.IntType:
		return uint64((t.Bits + 7) / 8), nil
	case *air.FloatType:
		switch t.Kind {
		case air.Half, air.BFloat:
			return 2, nil
		case air.Float:
			return 4, nil
		case air.Double:
			return 8, nil
		}
	case *air.PointerType:
		return 8, nil
	case *air.VectorType:
		e, err := allocSize(t.Elem)
		if err != nil {
			return 0, err
		}
		return e * uint64(t.Len), nil
	case *air.ArrayType, *air.StructType:
		return allocSize(t)
	}
	return 0, fmt.Errorf("no layout for %s", t)
}

// alignOf is t's ABI alignment in bytes.
func alignOf(t air.Type) (uint64, error) {
	switch t := t.(type) {
	case *air.VectorType:
		s, err := storeSize(t)
		if err != nil {
			return 0, err
		}
		a := uint64(1)
		for a < s {
			a <<= 1
		}
		return a, nil
	case *air.ArrayType:
		return alignOf(t.Elem)
	case *air.StructType:
		if t.Packed {
			return 1, nil
		}
		a := uint64(1)
		for _, f := range t.Fields {
			fa, err := alignOf(f)
			if err != nil {
				return 0, err
			}
			a = max(a, fa)
		}
		return a, nil
	}
	return storeSize(t)
}

// allocSize is the distance between consecutive values of t in memory.
func allocSize(t air.Type) (uint64, error) {
	switch t := t.(type) {
	case *air.ArrayType:
		e, err := allocSize(t.Elem)
		if err != nil {
			return 0, err
		}
		return e * t.Len, nil
	case *air.StructType:
		offs, size, err := structLayout(t)
		_ = offs
		return size, err
	}
	s, err := storeSize(t)
	if err != nil {
		return 0, err
	}
	a, err := alignOf(t)
	if err != nil {
		return 0, err
	}
	return roundUp(s, a), nil
}

// structLayout returns each field's byte offset and the struct's alloc size.
func structLayout(t *air.StructType) ([]uint64, uint64, error) {
	if t.Opaque {
		return nil, 0, fmt.Errorf("no layout for opaque %s", t)
	}
	offs := make([]uint64, len(t.Fields))
	var off uint64
	align := uint64(1)
	for i, f := range t.Fields {
		s, err := allocSize(f)
		if err != nil {
			return nil, 0, err
		}
		a := uint64(1)
		if !t.Packed {
			if a, err = alignOf(f); err != nil {
				return nil, 0, err
			}
		}
		off = roundUp(off, a)
		offs[i] = off
		off += s
		align = max(align, a)
	}
	return offs, roundUp(off, align), nil
}

func roundUp(x, a uint64) uint64 {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

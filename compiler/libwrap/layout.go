package libwrap

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
)

// Byte layout of the values the wrapper moves, under AIR's datalayout
// (natural alignment, i1 in a byte, vectors aligned to the power of two at
// or above their size: v96:128, v48:64; struct fields aligned unless
// packed). The records of the ABI are laid out as a C struct of the
// parameters would be under those rules (README.md).

// storeSize is the number of bytes a value of t occupies when stored.
func storeSize(t air.Type) (uint64, error) {
	switch t := t.(type) {
	case *air.IntType:
		if t.Bits > 64 {
			return 0, fmt.Errorf("i%d", t.Bits)
		}
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
		return 0, fmt.Errorf("%s", t)
	case *air.VectorType:
		if t.Scalable {
			return 0, fmt.Errorf("%s", t)
		}
		if it, ok := t.Elem.(*air.IntType); ok && it.Bits == 1 {
			return 0, fmt.Errorf("%s", t)
		}
		e, err := allocSize(t.Elem)
		if err != nil {
			return 0, err
		}
		return e * uint64(t.Len), nil
	case *air.ArrayType, *air.StructType:
		return allocSize(t)
	}
	return 0, fmt.Errorf("%s", t)
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
		if t.Opaque {
			return 0, fmt.Errorf("opaque %s", t)
		}
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
		if t.Opaque {
			return 0, fmt.Errorf("opaque %s", t)
		}
		var off uint64
		align := uint64(1)
		for _, f := range t.Fields {
			s, err := allocSize(f)
			if err != nil {
				return 0, err
			}
			a := uint64(1)
			if !t.Packed {
				if a, err = alignOf(f); err != nil {
					return 0, err
				}
			}
			off = roundUp(off, a) + s
			align = max(align, a)
		}
		return roundUp(off, align), nil
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

func roundUp(x, a uint64) uint64 {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

package libwrap

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
)

// Byte layout of the values the wrapper moves: AIR's datalayout
// (air.AllocSize, air.AlignOf: natural alignment, i1 in a byte, vectors
// aligned to the power of two at or above their size, struct fields aligned
// unless packed). The records of the ABI are laid out as a C struct of the
// parameters would be under those rules (README.md). The wrapper carries
// fewer types than the datalayout lays out: carried names the first it does
// not.

// carried reports, by name, the first part of t the wrapper cannot move
// through a record: a pointer, an integer over 64 bits, a scalable or bool
// vector, an opaque struct, a type with no byte layout.
func carried(t air.Type) error {
	switch t := t.(type) {
	case *air.IntType:
		if t.Bits > 64 {
			return fmt.Errorf("i%d", t.Bits)
		}
		return nil
	case *air.FloatType:
		switch t.Kind {
		case air.Half, air.BFloat, air.Float, air.Double:
			return nil
		}
	case *air.VectorType:
		if t.Scalable {
			return fmt.Errorf("%s", t)
		}
		if it, ok := t.Elem.(*air.IntType); ok && it.Bits == 1 {
			return fmt.Errorf("%s", t)
		}
		return carried(t.Elem)
	case *air.ArrayType:
		return carried(t.Elem)
	case *air.StructType:
		if t.Opaque {
			return fmt.Errorf("opaque %s", t)
		}
		for _, f := range t.Fields {
			if err := carried(f); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s", t)
}

// alignOf is t's ABI alignment in bytes (a packed struct: 1).
func alignOf(t air.Type) (uint64, error) {
	if s, ok := t.(*air.StructType); ok && s.Packed && !s.Opaque {
		return 1, nil
	}
	if err := carried(t); err != nil {
		return 0, err
	}
	return air.AlignOf(t)
}

// allocSize is the distance between consecutive values of t in memory.
func allocSize(t air.Type) (uint64, error) {
	if err := carried(t); err != nil {
		return 0, err
	}
	return air.AllocSize(t)
}

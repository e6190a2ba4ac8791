package cpuref

import (
	"encoding/binary"
	"math"
	"strings"
)

// Typed input family ("typed-small", run.go's InputFamilies). The other
// families fill every buffer alike, as bytes or 32-bit words, whatever its
// elements are. A kernel that reads a 64-bit integer (a long or ulong
// stride, an offset) from the small-integers family reads two small words
// as one huge number ((w+1 mod 8)·2³² + w mod 8) and goes out of bounds;
// one that reads half or bfloat data from it reads denormals. This family
// gives each buffer's elements values of their own Metal type, read from
// the AIR (air.arg_type_name; for a struct element, air.struct_type_info's
// members, Buffer.Members):
//
//	integers (char … ulong, signed or not, scalars and vectors)  (e + 3·index) mod 8 at their own width
//	float, half, bfloat (scalars, vectors, matrices)             ((e·7 + 13 + 31·index) mod 64) / 64, exact in each
//	bool                                                         (e + index) mod 2
//
// where e counts the buffer's scalar slots of that type (kind and width)
// from its start (an element's lanes, then the next element's; a struct's
// members in order, element after element), and index is the buffer's Metal index, so no two
// buffers start alike. Bytes that no member covers (padding), members of
// a type the family does not know (a nested struct, a pointer) and
// buffers whose element type it does not know get the small-integers
// family's words (w + 3·index) mod 8 there. Values stay small: a value read
// as an index or a count stays below 8, a float in [0, 1).
//
// typed-medium, tried next, is the same with every integer
// 8 + (e + 3·index) mod 8, in 8 … 15: no zero, for kernels that divide by
// or take the remainder of a size, shape or stride they read (a zero
// traps), and sizes at least 8, for tiled kernels that assume a size is at
// least their tile (a matrix-vector kernel whose threads each take 4 rows
// steps back from the end by 4); still far inside every buffer the
// reference sizes itself (DefaultBufferSize).

// typedOffByOne plants a fault for the tests: every integer the typed
// families give is one larger ((e + 3·index) mod 8 + 1, 9 … 16), so a kernel that reads it as an index into an 8-element table
// reads one past its end, which the harness must report as out of bounds.
var typedOffByOne = false

// scalarKind is how the typed family fills one scalar slot.
type scalarKind int

const (
	scalarUnknown scalarKind = iota
	scalarInt
	scalarFloat
	scalarHalf
	scalarBFloat
	scalarBool
)

// metalScalar reads a Metal scalar, vector or matrix type name ("uint",
// "packed_half3", "float4x4", "long2") into the kind and width in bytes of
// its scalars; ok is false for any other name (structs, atomics, pointers).
func metalScalar(name string) (kind scalarKind, width int, ok bool) {
	base := strings.TrimPrefix(name, "packed_")
	shape := strings.TrimLeft(base, "abcdefghijklmnopqrstuvwxyz")
	base = base[:len(base)-len(shape)]
	if strings.Trim(shape, "0123456789x") != "" || strings.HasPrefix(shape, "x") {
		return scalarUnknown, 0, false
	}
	switch base {
	case "bool":
		return scalarBool, 1, true
	case "char", "uchar":
		return scalarInt, 1, true
	case "short", "ushort":
		return scalarInt, 2, true
	case "int", "uint":
		return scalarInt, 4, true
	case "long", "ulong":
		return scalarInt, 8, true
	case "float":
		return scalarFloat, 4, true
	case "half":
		return scalarHalf, 2, true
	case "bfloat":
		return scalarBFloat, 2, true
	}
	return scalarUnknown, 0, false
}

// TypedFill is the typed-small family's bytes for buffer b (its Metal
// index, element type and members), size bytes long.
func TypedFill(b Buffer, size int64) []byte { return typedFill(b, size, false) }

// TypedMediumFill is the typed-medium family's bytes: TypedFill's, but
// every integer 8 + (e + 3·index) mod 8, in 8 … 15.
func TypedMediumFill(b Buffer, size int64) []byte { return typedFill(b, size, true) }

// typedFill is TypedFill, or TypedMediumFill when medium is set.
func typedFill(b Buffer, size int64, medium bool) []byte {
	out := words32(size, func(w int64) uint32 { return uint32((w + 3*int64(b.Index)) % 8) })
	type span struct {
		off, size int
		kind      scalarKind
		width     int
	}
	var spans []span
	stride := 0
	if len(b.Members) > 0 && b.ElementSize > 0 {
		stride = b.ElementSize
		for _, m := range b.Members {
			if k, w, ok := metalScalar(m.TypeName); ok && m.Size%w == 0 {
				spans = append(spans, span{m.Offset, m.Size, k, w})
			}
		}
	} else if k, w, ok := metalScalar(b.TypeName); ok {
		stride = w
		spans = []span{{0, w, k, w}}
	}
	if stride == 0 || len(spans) == 0 {
		return out
	}
	type slot struct {
		kind  scalarKind
		width int
	}
	// The scalar slots of each type filled so far, counted in a slice (each
	// span's type found once) rather than a map looked up per scalar.
	var slots []slot
	slotOf := make([]int, len(spans))
	for i, s := range spans {
		slotOf[i] = len(slots)
		for j, t := range slots {
			if t == (slot{s.kind, s.width}) {
				slotOf[i] = j
			}
		}
		if slotOf[i] == len(slots) {
			slots = append(slots, slot{s.kind, s.width})
		}
	}
	counts := make([]int64, len(slots))
	for at := int64(0); at+int64(stride) <= size; at += int64(stride) {
		for i, s := range spans {
			c := &counts[slotOf[i]]
			for o := 0; o < s.size; o += s.width {
				putScalar(out[at+int64(s.off+o):], s.kind, s.width, *c, b.Index, medium)
				*c++
			}
		}
	}
	return out
}

// putScalar writes scalar slot e of kind and width (bytes) at the start of p
// (medium: an integer in 8 … 15).
func putScalar(p []byte, kind scalarKind, width int, e int64, index int, medium bool) {
	var v uint64
	switch kind {
	case scalarInt:
		v = uint64((e + 3*int64(index)) % 8)
		if medium {
			v += 8
		}
		if typedOffByOne {
			v++
		}
	case scalarBool:
		v = uint64((e + int64(index)) % 2)
	default:
		f := float32((e*7+13+31*int64(index))%64) / 64
		switch kind {
		case scalarFloat:
			v = uint64(math.Float32bits(f))
		case scalarHalf:
			h, _ := exactHalf(f)
			v = uint64(h) // 0 for f = 0, which exactHalf does not take
		case scalarBFloat:
			v = uint64(math.Float32bits(f) >> 16) // f has at most 6 significant bits: exact
		}
	}
	switch width {
	case 1:
		p[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(p, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(p, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(p, v)
	}
}

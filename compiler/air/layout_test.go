package air

import "testing"

// TestLayout pins AIR's datalayout rules: natural alignment, i1 in a byte,
// 8-byte pointers, vectors aligned to the power of two at or above their
// size (v96:128, v48:64), struct fields aligned unless packed.
func TestLayout(t *testing.T) {
	f32, f16, i1, i8 := &FloatType{Kind: Float}, &FloatType{Kind: Half}, &IntType{Bits: 1}, &IntType{Bits: 8}
	v3 := &VectorType{Len: 3, Elem: f32}
	h3 := &VectorType{Len: 3, Elem: f16}
	for _, c := range []struct {
		name        string
		t           Type
		size, align uint64
	}{
		{"i1", i1, 1, 1},
		{"float", f32, 4, 4},
		{"ptr", &PointerType{AddrSpace: 1}, 8, 8},
		{"<3 x float>", v3, 16, 16},
		{"<3 x half>", h3, 8, 8},
		{"[3 x <3 x float>]", &ArrayType{Len: 3, Elem: v3}, 48, 16},
		{"{ i8, float }", &StructType{Fields: []Type{i8, f32}}, 8, 4},
		{"<{ i8, float }>", &StructType{Fields: []Type{i8, f32}, Packed: true}, 5, 1},
	} {
		s, err := AllocSize(c.t)
		a, err2 := AlignOf(c.t)
		if err != nil || err2 != nil || s != c.size || a != c.align {
			t.Errorf("%s: size %d align %d (%v, %v), want %d %d", c.name, s, a, err, err2, c.size, c.align)
		}
	}
	if _, err := AllocSize(&StructType{Opaque: true}); err == nil {
		t.Error("an opaque struct was given a layout")
	}
}

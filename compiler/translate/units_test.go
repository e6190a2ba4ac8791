package translate

import (
	"math"
	"reflect"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

func TestLayout(t *testing.T) {
	f32, i8, i64 := air.FloatTy, &air.IntType{Bits: 8}, &air.IntType{Bits: 64}
	v3 := &air.VectorType{Len: 3, Elem: f32}
	tests := []struct {
		ty          air.Type
		size, align uint64
	}{
		{f32, 4, 4},
		{i8, 1, 1},
		{&air.IntType{Bits: 1}, 1, 1},
		{air.HalfTy, 2, 2},
		{v3, 16, 16},
		{&air.VectorType{Len: 3, Elem: air.HalfTy}, 8, 8},
		{&air.VectorType{Len: 2, Elem: f32}, 8, 8},
		{&air.ArrayType{Len: 3, Elem: v3}, 48, 16},
		{&air.StructType{Fields: []air.Type{i8, f32, i8}}, 12, 4},
		{&air.StructType{Fields: []air.Type{i8, i64}, Packed: true}, 9, 1},
		{&air.StructType{Fields: []air.Type{f32, v3}}, 32, 16},
	}
	for _, tc := range tests {
		size, err := air.AllocSize(tc.ty)
		if err != nil {
			t.Fatalf("%s: %v", tc.ty, err)
		}
		align, _ := air.AlignOf(tc.ty)
		if size != tc.size || align != tc.align {
			t.Errorf("%s: size %d align %d, want %d %d", tc.ty, size, align, tc.size, tc.align)
		}
	}
	offs, _, _ := air.StructLayout(&air.StructType{Fields: []air.Type{f32, v3, i8}})
	if !reflect.DeepEqual(offs, []uint64{0, 16, 32}) {
		t.Errorf("offsets %v", offs)
	}
	if _, err := air.AllocSize(&air.StructType{Opaque: true}); err == nil {
		t.Error("an opaque struct has a layout")
	}
}

func TestSplitName(t *testing.T) {
	tests := []struct {
		name string
		op   string
		rest []string
	}{
		{"air.fast_pow.v3f32", "fast_pow", []string{"v3f32"}},
		{"air.min.u.i32", "min", []string{"u", "i32"}},
		{"air.convert.f.f32.u.i32", "convert", []string{"f", "f32", "u", "i32"}},
		{"air.atomic.global.add.u.i32", "atomic.global.add", []string{"u", "i32"}},
		{"air.sample_texture_2d.v4f32", "sample_texture_2d", []string{"v4f32"}},
		{"air.discard_fragment", "discard_fragment", []string{}},
		{"air.wg.barrier", "wg.barrier", []string{}},
	}
	for _, tc := range tests {
		op, rest := splitName(tc.name)
		if op != tc.op || len(rest) != len(tc.rest) || (len(rest) > 0 && !reflect.DeepEqual(rest, tc.rest)) {
			t.Errorf("splitName(%q) = %q %v, want %q %v", tc.name, op, rest, tc.op, tc.rest)
		}
	}
}

func TestTextureType(t *testing.T) {
	tests := []struct {
		name    string
		dim     spirv.Dim
		arrayed bool
		depth   bool
		comp    string
		ok      bool
	}{
		{"texture2d<float, sample>", spirv.Dim2D, false, false, "float", true},
		{"texture2d_array<half, read>", spirv.Dim2D, true, false, "half", true},
		{"texturecube<float, sample>", spirv.DimCube, false, false, "float", true},
		{"depth2d<float, sample>", spirv.Dim2D, false, true, "float", true},
		{"texture3d<uint, write>", spirv.Dim3D, false, false, "uint", true},
		{"imageblock<float>", 0, false, false, "", false},
	}
	for _, tc := range tests {
		dim, arrayed, depth, _, comp, ok := textureType(tc.name)
		if ok != tc.ok || ok && (dim != tc.dim || arrayed != tc.arrayed || depth != tc.depth || comp != tc.comp) {
			t.Errorf("textureType(%q) = %v %v %v %q %v", tc.name, dim, arrayed, depth, comp, ok)
		}
	}
}

func TestFloat32ToHalf(t *testing.T) {
	tests := []struct {
		f    float32
		want uint16
	}{
		{0, 0}, {1, 0x3c00}, {-2, 0xc000}, {0.5, 0x3800}, {65504, 0x7bff}, {1e6, 0x7c00},
		{float32(math.Inf(-1)), 0xfc00}, {5.960464477539063e-08, 0x0001}, {float32(math.Copysign(0, -1)), 0x8000},
		{1.0009765625, 0x3c01}, {1.00048828125, 0x3c00}, // ties to even
	}
	for _, tc := range tests {
		if got := float32ToHalf(tc.f); got != tc.want {
			t.Errorf("float32ToHalf(%g) = %#04x, want %#04x", tc.f, got, tc.want)
		}
	}
	if got := float32ToHalf(float32(math.NaN())); got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
		t.Errorf("NaN became %#04x", got)
	}
}

func TestMissingErrorOrder(t *testing.T) {
	var f findings
	f.add(CodeUnhandledIntrinsic, "air.z")
	f.add(CodeUnhandledInstruction, "b")
	f.add(CodeUnhandledIntrinsic, "air.a")
	f.add(CodeUnhandledIntrinsic, "air.z")
	want := []Finding{{CodeUnhandledIntrinsic, "air.z"}, {CodeUnhandledInstruction, "b"}, {CodeUnhandledIntrinsic, "air.a"}}
	if got := f.sorted(); !reflect.DeepEqual(got, want) {
		t.Errorf("sorted = %v, want %v", got, want)
	}
}

package cpuref

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// TestTypedFill pins the typed family's first elements for each kind of
// element type, written out by hand.
func TestTypedFill(t *testing.T) {
	le16 := func(v ...uint16) []byte {
		b := make([]byte, 2*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint16(b[2*i:], x)
		}
		return b
	}
	le32 := func(v ...uint32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], x)
		}
		return b
	}
	le64 := func(v ...uint64) []byte {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], x)
		}
		return b
	}
	f32 := func(n ...int) []byte { // n/64 as floats
		var w []uint32
		for _, x := range n {
			w = append(w, math.Float32bits(float32(x)/64))
		}
		return le32(w...)
	}
	cases := []struct {
		name string
		b    Buffer
		size int64
		want []byte
	}{
		// (e + 3·index) mod 8 at the element's width: buffer 11's longs are 1, 2, 3, not 2·2³² + 1.
		{"long", Buffer{Index: 11, TypeName: "long"}, 24, le64(1, 2, 3)},
		{"uint as small-integers", Buffer{Index: 1, TypeName: "uint"}, 16, le32(3, 4, 5, 6)},
		{"ushort2", Buffer{Index: 2, TypeName: "ushort2"}, 8, le16(6, 7, 0, 1)},
		{"uchar", Buffer{Index: 0, TypeName: "uchar"}, 4, []byte{0, 1, 2, 3}},
		{"packed_int3", Buffer{Index: 0, TypeName: "packed_int3"}, 12, le32(0, 1, 2)},
		// ((e·7 + 13 + 31·index) mod 64) / 64: 13, 20, 27 for buffer 0; 44, 51 for buffer 1.
		{"float", Buffer{Index: 0, TypeName: "float"}, 12, f32(13, 20, 27)},
		{"float4x4", Buffer{Index: 1, TypeName: "float4x4"}, 8, f32(44, 51)},
		{"half", Buffer{Index: 0, TypeName: "half"}, 4, le16(0x3280, 0x3500)},      // 13/64, 20/64
		{"bfloat", Buffer{Index: 0, TypeName: "bfloat2"}, 4, le16(0x3e50, 0x3ea0)}, // 13/64, 20/64
		{"bool", Buffer{Index: 1, TypeName: "bool"}, 4, []byte{1, 0, 1, 0}},
		// A struct { uint a; float b; long c; } of 16 bytes: uints and longs count apart.
		{"struct", Buffer{Index: 0, TypeName: "S", ElementSize: 16, Members: []Member{{0, 4, "uint"}, {4, 4, "float"}, {8, 8, "long"}}}, 32,
			append(append(append(le32(0), f32(13)...), le64(0)...), append(append(le32(1), f32(20)...), le64(1)...)...)},
		// Padding and unknown members keep the small-integers words (w + 3·index) mod 8.
		{"struct with padding", Buffer{Index: 0, TypeName: "P", ElementSize: 8, Members: []Member{{0, 2, "ushort"}, {4, 4, "Inner"}}}, 16,
			[]byte{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0}},
		{"unknown type", Buffer{Index: 1, TypeName: "metal::_atomic"}, 8, le32(3, 4)},
		{"partial element", Buffer{Index: 0, TypeName: "long"}, 12, append(le64(0), le32(2)...)},
	}
	for _, c := range cases {
		if got := TypedFill(c.b, c.size); !bytes.Equal(got, c.want) {
			t.Errorf("%s: %x, want %x", c.name, got, c.want)
		}
	}
	// typed-medium: 8 + (e + 3·index) mod 8; the rest as typed-small.
	for _, c := range []struct {
		name string
		b    Buffer
		size int64
		want []byte
	}{
		{"long", Buffer{Index: 11, TypeName: "long"}, 24, le64(9, 10, 11)},
		{"int", Buffer{Index: 0, TypeName: "int"}, 36, le32(8, 9, 10, 11, 12, 13, 14, 15, 8)},
		{"float", Buffer{Index: 0, TypeName: "float"}, 12, f32(13, 20, 27)},
	} {
		if got := TypedMediumFill(c.b, c.size); !bytes.Equal(got, c.want) {
			t.Errorf("medium %s: %x, want %x", c.name, got, c.want)
		}
	}
	var names []string
	for _, f := range InputFamilies {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, " "); got != "pattern small-integers unit-floats typed-small typed-medium zeros" {
		t.Fatalf("input families %s", got)
	}
}

// typedModule is a kernel whose thread i reads idx[i], a long (buffer 1),
// and, when it is not 0, copies table[idx[i]] (buffer 2, a constant table
// of 8 uints, air.buffer_size 32) into out[i] (buffer 0). On the pattern,
// small-integers (two small words make one huge long) and unit-floats, idx
// leaves the table; on zeros, nothing is written; on typed-small, idx is 1,
// 2, … 7, 0, … : inside.
const typedModule = `define void @k(ptr addrspace(1) %out, ptr addrspace(1) %idx, ptr addrspace(2) %table, i32 %gid) {
  %i = zext i32 %gid to i64
  %pi = getelementptr inbounds i64, ptr addrspace(1) %idx, i64 %i
  %x = load i64, ptr addrspace(1) %pi, align 8
  %z = icmp eq i64 %x, 0
  br i1 %z, label %done, label %copy
copy:
  %pt = getelementptr inbounds i32, ptr addrspace(2) %table, i64 %x
  %v = load i32, ptr addrspace(2) %pt, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %v, ptr addrspace(1) %po, align 4
  br label %done
done:
  ret void
}
!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"long", !"air.arg_name", !"idx"}
!5 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 32, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 32, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"Table", !"air.arg_name", !"table"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
`

// TestTypedFamilyKeepsIndicesInside runs typedModule: the typed family is
// kept, its bytes are the inputs, and the kernel copied the table's words.
// With the planted off-by-one (every integer one larger, so idx reaches 8,
// one past the table), the harness catches the read past the table on that
// family too and the kernel stays set aside as out of bounds, never judged.
func TestTypedFamilyKeepsIndicesInside(t *testing.T) {
	needTools(t)
	res, err := RunText(context.Background(), typedModule, "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.InputFamily != "typed-small" {
		t.Fatalf("input family %q, want typed-small", res.InputFamily)
	}
	var in, table, out []byte
	for i, d := range res.Inputs {
		switch d.Index {
		case 0:
			out = res.Outputs[i].Bytes
		case 1:
			in = d.Bytes
		case 2:
			table = d.Bytes
		}
	}
	if want := TypedFill(res.Kernel.Buffers[1], int64(len(in))); !bytes.Equal(in, want) {
		t.Fatal("idx's inputs are not the typed family's")
	}
	for i := range 16 {
		x := binary.LittleEndian.Uint64(in[8*i:])
		got := binary.LittleEndian.Uint32(out[4*i:])
		if x != 0 && got != binary.LittleEndian.Uint32(table[4*x:]) {
			t.Fatalf("thread %d: idx %d, wrote %#x", i, x, got)
		}
	}

	// The planted bug changes what the typed family makes: the fills kept
	// so far (familyBytes) are the correct family's.
	typedOffByOne = true
	kept := filledInputs
	filledInputs = &byteCache{max: 16 << 20}
	defer func() { typedOffByOne, filledInputs = false, kept }()
	_, err = RunText(context.Background(), typedModule, "k", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindOutOfBounds || !strings.Contains(nj.Reason, "typed-small") {
		t.Fatalf("off-by-one typed family: %v, want out of bounds on every family", err)
	}
}

package judge

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/cpuref"
)

func TestElementKind(t *testing.T) {
	for _, tc := range []struct {
		name string
		want wordKind
	}{
		{"float", wordFloat}, {"float4", wordFloat}, {"packed_float3", wordFloat}, {"float4x4", wordFloat},
		{"half", wordHalf}, {"half2", wordHalf}, {"packed_half3", wordHalf},
		{"bfloat", wordBFloat}, {"bfloat4", wordBFloat},
		{"int", wordBits}, {"uint4", wordBits}, {"ushort", wordBits}, {"bool", wordBits},
		{"Uniforms", wordBits}, {"complex64_t", wordBits}, {"floatx", wordBits}, {"float_t", wordBits}, {"", wordBits},
	} {
		if got := elementKind(tc.name); got != tc.want {
			t.Errorf("elementKind(%q) = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestSameValue(t *testing.T) {
	for _, tc := range []struct {
		kind wordKind
		a, b uint32
		want bool
	}{
		{wordBits, 1, 1, true},
		{wordBits, 0x7fc00000, 0x7fc00001, false}, // integers: NaN-looking bits are bits
		{wordFloat, 0xffc00000, 0x7fffffff, true}, // the H200's NaN against the CPU's
		{wordFloat, 0x7f800000, 0x7fc00000, false},
		{wordFloat, 0x80000000, 0x00000000, false}, // -0 is not +0
		{wordHalf, 0x021f7f76, 0x021f7e00, true},   // high lane equal, low lanes both NaN
		{wordHalf, 0x021f7f76, 0x02207e00, false},  // high lane differs
		{wordHalf, 0x00007c00, 0x00007e00, false},  // +inf is not a NaN
		{wordBFloat, 0x7fc1ffc0, 0x7fff7f81, true}, // both lanes NaN
		{wordBFloat, 0x7f807f80, 0x7f807fc0, false},
		{wordFloat, 0x021f7f76, 0x021f7e00, false}, // as float32 the words are numbers that differ
	} {
		if got := tc.kind.sameValue(tc.a, tc.b); got != tc.want {
			t.Errorf("%s.sameValue(%#08x, %#08x) = %v, want %v", tc.kind, tc.a, tc.b, got, tc.want)
		}
		if tc.want && tc.kind.canonical(tc.a) != tc.kind.canonical(tc.b) {
			t.Errorf("%s: equal values %#08x, %#08x have different canonical words", tc.kind, tc.a, tc.b)
		}
	}
}

// typedResult is a one-buffer kernel's reference whose buffer 0 has the
// element type typeName and ends as want.
func typedResult(typeName string, denormsDisabled bool, want ...uint32) *cpuref.Result {
	buf := make([]byte, 4*len(want))
	for i, w := range want {
		binary.LittleEndian.PutUint32(buf[4*i:], w)
	}
	k := &cpuref.Kernel{Name: "k", Buffers: []cpuref.Buffer{{Index: 0, Access: "read_write", AddrSpace: 1, TypeName: typeName}},
		DenormsDisabled: denormsDisabled}
	return &cpuref.Result{Kernel: k, Inputs: []cpuref.Data{{Index: 0, Bytes: make([]byte, len(buf))}},
		Outputs: []cpuref.Data{{Index: 0, Bytes: buf}}}
}

// mem is a struct member at offset off of size bytes.
func mem(off, size int, typeName string) cpuref.Member {
	return cpuref.Member{Offset: off, Size: size, TypeName: typeName}
}

// structResult is typedResult for a buffer of structs of size bytes with
// the given members (air.struct_type_info); denormals disabled.
func structResult(size int, members []cpuref.Member, want ...uint32) *cpuref.Result {
	r := typedResult("S", true, want...)
	r.Kernel.Buffers[0].ElementSize, r.Kernel.Buffers[0].Members = size, members
	return r
}

// fastMath marks a reference's kernel as compiled with nnan/ninf.
func fastMath(r *cpuref.Result) *cpuref.Result {
	r.Kernel.NoNaNsOrInfs = true
	return r
}

func words(ws ...uint32) map[int][]byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return map[int][]byte{0: b}
}

// TestCompareTyped judges buffers as their element types, and shows each
// acceptance able to fail: the same words in an integer buffer, or without
// denormals disabled, are mismatches.
func TestCompareTyped(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ref      *cpuref.Result
		got      map[int][]byte
		status   Status
		dataKey  string
		dataWant string
	}{
		{"float NaN payload", typedResult("float", false, 0xffc00000, 1), words(0x7fffffff, 1), Passed, "nan_payload_words", "1"},
		{"int NaN-looking bits", typedResult("int", false, 0xffc00000, 1), words(0x7fffffff, 1), Failed, "", ""},
		{"half lane NaN payload", typedResult("half4", false, 0x021f7f76, 1), words(0x021f7e00, 1), Passed, "nan_payload_words", "1"},
		{"half lane differs", typedResult("half4", false, 0x021f7f76, 1), words(0x02207e00, 1), Failed, "compared_as", "half"},
		{"bfloat NaN payload", typedResult("bfloat", false, 0x7fc13f80, 1), words(0xffff3f80, 1), Passed, "float_words", "2"},
		{"denormal flushed, denormals disabled", typedResult("float", true, 0x00000001, 1), words(0, 1), Passed, "denormals_flushed", "1"},
		{"denormal flushed, denormals allowed", typedResult("float", false, 0x00000001, 1), words(0, 1), Failed, "compared_as", "float"},
		{"struct buffer bit for bit", typedResult("Uniforms", true, 0x00000001, 1), words(0, 1), Failed, "compared_as", "bits"},
		{"atomic<float> flushed denormal", structResult(4, []cpuref.Member{mem(0, 4, "float")}, 0x00000001), words(0, 1), Passed, "denormals_flushed", "1"},
		{"atomic<uint> bit for bit", structResult(4, []cpuref.Member{mem(0, 4, "uint")}, 0x00000001), words(0, 1), Failed, "compared_as", "bits"},
		{"struct {int; float}: the float word", structResult(8, []cpuref.Member{mem(0, 4, "int"), mem(4, 4, "float")}, 7, 0x00000001), words(7, 0), Passed, "denormals_flushed", "1"},
		{"struct {int; float}: the int word", structResult(8, []cpuref.Member{mem(0, 4, "int"), mem(4, 4, "float")}, 0xffc00000, 1), words(0x7fffffff, 1), Failed, "compared_as", "bits"},
		{"struct {half; short}: mixed word", structResult(4, []cpuref.Member{mem(0, 2, "half"), mem(2, 2, "short")}, 0x00017e01), words(0x00017e00, 1), Failed, "compared_as", "bits"},
		{"struct of 6 bytes straddles words", structResult(6, []cpuref.Member{mem(0, 4, "float"), mem(4, 2, "half")}, 0x00000001), words(0, 1), Failed, "compared_as", "bits"},
		{"fast math, reference NaN", fastMath(typedResult("float", false, 0xffc00000, 1)), words(0xff800000, 1), Unjudged, "fast_math_undefined_words", "1"},
		{"fast math, reference inf in a half lane", fastMath(typedResult("half2", false, 0x3c007c00, 1)), words(0x3c007bff, 1), Unjudged, "fast_math_undefined_words", "1"},
		{"fast math, a finite half lane differs too", fastMath(typedResult("half2", false, 0x3c007c00, 1)), words(0x3c017bff, 1), Failed, "compared_as", "half"},
		{"fast math, finite word differs", fastMath(typedResult("float", false, 0xffc00000, 2)), words(0xff800000, 3), Failed, "compared_as", "float"},
		{"no fast math, reference NaN", typedResult("float", false, 0xffc00000, 1), words(0xff800000, 1), Failed, "compared_as", "float"},
	} {
		r := Compare(tc.ref, tc.got)
		if r.Status != tc.status {
			t.Errorf("%s: %s %s %s, want %s", tc.name, r.Status, r.Code, r.Message, tc.status)
			continue
		}
		if tc.dataKey != "" && r.Data[tc.dataKey] != tc.dataWant {
			t.Errorf("%s: data %v, want %s=%s", tc.name, r.Data, tc.dataKey, tc.dataWant)
		}
	}
}

// TestElementKindAsTrim: elementKind's byte loops decide every name as the
// strings.TrimLeft/Trim definition it replaced: letters, then only digits
// and x, not starting with x; a name that splits so has its letters' kind
// (elementKind of the letters alone, which the table above checks).
func TestElementKindAsTrim(t *testing.T) {
	byTrim := func(typeName string) wordKind {
		base := strings.TrimPrefix(typeName, "packed_")
		shape := strings.TrimLeft(base, "abcdefghijklmnopqrstuvwxyz")
		base = base[:len(base)-len(shape)]
		if strings.Trim(shape, "0123456789x") != "" || strings.HasPrefix(shape, "x") {
			return wordBits
		}
		return elementKind(base)
	}
	parts := []string{"", "packed_", "float", "half", "bfloat", "int", "Float", "x", "4", "4x4", "3y", "_t", "x2", "2x", "9"}
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				name := a + b + c
				if got, want := elementKind(name), byTrim(name); got != want {
					t.Errorf("elementKind(%q) = %s, the Trim definition %s", name, got, want)
				}
			}
		}
	}
}

// TestKindsOfAsKindOfWord: the per-output table Compare and Digest read
// gives every word the kind kindOfWord gives it, for outputs of every
// shape: plain and typed buffers, buffers of structs (element sizes that
// are and are not multiples of 4), a vertex shader's output records,
// render targets, depth, writable textures.
func TestKindsOfAsKindOfWord(t *testing.T) {
	structs := cpuref.Buffer{Index: 1, TypeName: "S", ElementSize: 12, Members: []cpuref.Member{
		{Offset: 0, Size: 4, TypeName: "float"}, {Offset: 4, Size: 2, TypeName: "half"}, {Offset: 6, Size: 2, TypeName: "ushort"}, {Offset: 8, Size: 4, TypeName: "int"}}}
	odd := cpuref.Buffer{Index: 2, TypeName: "T", ElementSize: 6, Members: []cpuref.Member{{Offset: 0, Size: 4, TypeName: "float"}}}
	kernel := &cpuref.Kernel{Stage: air.Kernel, Buffers: []cpuref.Buffer{{Index: 0, TypeName: "half4"}, structs, odd, {Index: 3, TypeName: "uint"}},
		Textures: []cpuref.Texture{{Index: 0, Kind: 'f', Access: "write"}, {Index: 1, Kind: 'u', Access: "read_write"}}}
	vertex := &cpuref.Kernel{Stage: air.Vertex, Buffers: []cpuref.Buffer{{Index: cpuref.OutputBuffer, TypeName: "float"}},
		Outputs: []cpuref.VertexOutput{{Kind: 'f', Components: 4}, {Kind: 'u', Components: 1}, {Kind: 'f', Components: 2}}}
	fragment := &cpuref.Kernel{Stage: air.Fragment, Targets: []cpuref.RenderTarget{{Index: 0, Kind: 'f'}, {Index: 2, Kind: 'i'}}}
	tests := []struct {
		name    string
		k       *cpuref.Kernel
		indices []int
	}{
		{"kernel buffers and textures", kernel, []int{0, 1, 2, 3, 7, cpuref.StorageTextureBase, cpuref.StorageTextureBase + 1, cpuref.DepthBuffer}},
		{"vertex records", vertex, []int{cpuref.OutputBuffer, 0}},
		{"render targets", fragment, []int{cpuref.RenderTargetBase, cpuref.RenderTargetBase + 1, cpuref.RenderTargetBase + 2, cpuref.DepthBuffer}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kinds := map[wordKind]bool{}
			for _, index := range tc.indices {
				ks := kindsOf(tc.k, index)
				for w := range 200 {
					want := kindOfWord(tc.k, index, w)
					kinds[want] = true
					if got := ks.at(w); got != want {
						t.Fatalf("output %d word %d: %s, kindOfWord says %s", index, w, got, want)
					}
				}
			}
			if len(kinds) < 2 {
				t.Fatalf("only %v: the case tells no kinds apart", kinds)
			}
		})
	}
}

package bitcode

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/oracle"
)

// typedPtrModule builds a module of typed pointers (as older AIR is): types
// void, i32, { i32 }, { i32 }*, an opaque ptr and void ({ i32 }*, ptr); one
// attribute group per entry of groups (ids from 1, parameter given by the
// entry's second operand), one attribute list of them all, and a function
// declaration of type void ({ i32 }*, ptr) with that list.
func typedPtrModule(groups ...[]uint64) []byte {
	var list []uint64
	for i := range groups {
		list = append(list, uint64(i+1))
	}
	return typedPtrModuleList(list, groups...)
}

// typedPtrModuleList is typedPtrModule with the attribute list given.
func typedPtrModuleList(list []uint64, groups ...[]uint64) []byte {
	return module(func(w *bitWriter) {
		w.enter(typeBlockID, 4)
		w.record(1, 7)
		w.record(2)              // 0: void
		w.record(7, 32)          // 1: i32
		w.record(18, 0, 1)       // 2: { i32 }
		w.record(8, 2, 0)        // 3: { i32 }*
		w.record(25, 0)          // 4: ptr
		w.record(21, 0, 0, 3, 4) // 5: void ({ i32 }*, ptr)
		w.record(8, 5, 0)        // 6: void ({ i32 }*, ptr)*
		w.end()
		w.enter(paramAttrGroupID, 4)
		for i, g := range groups {
			w.record(3, append([]uint64{uint64(i + 1)}, g...)...)
		}
		w.end()
		w.enter(paramAttrID, 4)
		w.record(2, list...)
		w.end()
		w.record(8, 0, 0, 5, 0, 1, 0, 1, 0, 0, 0) // FUNCTION declaration, attribute list 1
	})
}

// TestTypeAttrUpgrade checks that byval and sret without a type (enum
// encoding 0 and type encoding 5 of old bitcode) take the typed pointer's
// pointee type, as LLVM's reader upgrades them, and print as LLVM 19 does.
func TestTypeAttrUpgrade(t *testing.T) {
	data := typedPtrModule(
		[]uint64{1, 0, 3},           // param 0: byval, enum-encoded
		[]uint64{1, 5, 29, 1, 1, 4}, // param 0: sret without its type, then align 4
	)
	m, err := ReadModule(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath(oracle.Tool); err == nil {
		v, err := oracle.LLVMDis(context.Background(), data, printed(t, m))
		if err != nil {
			t.Fatal(err)
		}
		if v.OracleFailed || !v.Agrees {
			t.Errorf("oracle: %+v", v)
		}
	}
	set := m.Functions[0].Attrs.Param(0)
	if want := "declare void @0(ptr byval({ i32 }) sret({ i32 }) align 4, ptr)"; !strings.Contains(printed(t, m), want) {
		t.Fatalf("printed\n%s\nwant a line %q", printed(t, m), want)
	}
	for _, a := range set[:2] {
		if st, ok := a.Type.(*air.StructType); !ok || len(st.Fields) != 1 {
			t.Errorf("%s type %v, want the pointee { i32 }", a.Kind, a.Type)
		}
	}
}

// TestAttrGroupRefusals checks the attribute encodings and forms LLVM 19
// refuses, or this reader does, fail by name.
func TestAttrGroupRefusals(t *testing.T) {
	cases := []struct {
		name         string
		group        []uint64
		code, detail string
		msg          string
	}{
		{"byval without a type on an opaque pointer", []uint64{2, 0, 3}, CodeMalformed, "MODULE_BLOCK/FUNCTION", "not a typed pointer"},
		{"byval without a type on the return", []uint64{0, 5, 3}, CodeMalformed, "MODULE_BLOCK/FUNCTION", "outside a parameter"},
		{"elementtype without a type", []uint64{1, 5, 77}, CodeUnsupported, "PARAMATTR_GROUP_BLOCK/elementtype without a type", ""},
		{"encoding 2", []uint64{1, 2, 3}, CodeUnsupported, "PARAMATTR_GROUP_BLOCK/attribute encoding 2", ""},
		{"encoding 9", []uint64{1, 9, 3}, CodeUnsupported, "PARAMATTR_GROUP_BLOCK/attribute encoding 9", ""},
		{"unknown kind", []uint64{1, 0, 96}, CodeUnsupported, "PARAMATTR_GROUP_BLOCK/attribute kind 96", ""},
		{"enum encoding of an int kind", []uint64{1, 0, 1}, CodeMalformed, grpEntry, "not an enum attribute"},
		{"int encoding of an enum kind", []uint64{1, 1, 9, 4}, CodeMalformed, grpEntry, "not an integer attribute"},
		{"type encoding of an enum kind", []uint64{1, 6, 9, 1}, CodeMalformed, grpEntry, "not a type attribute"},
		{"range encoding of an int kind", []uint64{1, 7, 1, 32, 0, 20}, CodeMalformed, grpEntry, "not a constant range attribute"},
		{"range list encoding of range", []uint64{1, 8, 92, 1, 64, 0, 8}, CodeMalformed, grpEntry, "not a constant range list attribute"},
		{"truncated range", []uint64{1, 7, 92, 32, 0}, CodeMalformed, grpEntry, "truncated constant range"},
		{"range of 0 bits", []uint64{1, 7, 92, 0, 0, 2}, CodeMalformed, grpEntry, "of 0 bits"},
		{"wide range past its words", []uint64{1, 7, 92, 128, 1<<32 | 2, 0, 2}, CodeMalformed, grpEntry, "words"},
		{"overlapping range list", []uint64{2, 8, 94, 2, 64, 0, 8, 6, 16}, CodeMalformed, grpEntry, "unordered or overlapping"},
		{"empty range in a list", []uint64{2, 8, 94, 1, 64, 8, 8}, CodeMalformed, grpEntry, "unordered or overlapping"},
	}
	for _, c := range cases {
		_, err := ReadModule(typedPtrModule(c.group))
		e, ok := err.(*Error)
		if !ok || e.Code != c.code || e.Detail != c.detail || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: got %v, want %s %s (%s)", c.name, err, c.code, c.detail, c.msg)
		}
	}
}

// TestConstantRanges checks the decoding of range bounds: sign-rotated
// operands, truncated to the bit width and read signed, LLVM's encoding
// of the most negative word, and wide bounds of several words.
func TestConstantRanges(t *testing.T) {
	cases := []struct {
		group []uint64
		want  string
	}{
		{[]uint64{2, 7, 92, 32, 0, 20}, "range(i32 0, 10)"},
		{[]uint64{2, 7, 92, 64, 11, 200}, "range(i64 -5, 100)"},
		{[]uint64{2, 7, 92, 8, 2, 3}, "range(i8 1, -1)"},
		{[]uint64{2, 7, 92, 8, 2, 512}, "range(i8 1, 0)"}, // 256 truncated to 8 bits
		{[]uint64{2, 7, 92, 64, 1, 0}, "range(i64 -9223372036854775808, 0)"},
		{[]uint64{2, 7, 92, 128, 2<<32 | 1, 0, 2, 2}, "range(i128 0, 18446744073709551617)"},
		{[]uint64{2, 7, 92, 128, 2<<32 | 1, 3, 0, 2}, "range(i128 18446744073709551615, 18446744073709551616)"},
		{[]uint64{2, 8, 94, 2, 64, 0, 8, 16, 24}, "initializes((0, 4), (8, 12))"},
		{[]uint64{2, 8, 94, 1, 64, 17, 0}, "initializes((-8, 0))"},
	}
	for _, c := range cases {
		m, err := ReadModule(typedPtrModule(c.group))
		if err != nil {
			t.Errorf("%v: %v", c.group, err)
			continue
		}
		if set := m.Functions[0].Attrs.Param(1); len(set) != 1 || len(set[0].Ranges) == 0 {
			t.Errorf("%v: attributes %v, want one constant-range attribute", c.group, set)
			continue
		}
		want := "declare void @0(ptr, ptr " + c.want + ")"
		if got := printed(t, m); !strings.Contains(got, want) {
			t.Errorf("%v: printed\n%s\nwant a line %q", c.group, got, want)
		}
	}
}

func printed(t *testing.T, m *air.Module) string {
	var buf bytes.Buffer
	if err := WriteLL(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestUndefinedAttrGroup checks that an attribute list naming a group no
// GRP_ENTRY defines reads, the undefined id adding no attributes (LLVM
// looks groups up in a map that yields an empty set), and that llvm-dis-19
// prints the same.
func TestUndefinedAttrGroup(t *testing.T) {
	data := typedPtrModuleList([]uint64{7, 1, 9}, []uint64{1, 0, 9}) // group 1: param 0 noalias; 7, 9 undefined
	m, err := ReadModule(data)
	if err != nil {
		t.Fatalf("undefined attribute group refused: %v", err)
	}
	if want := "declare void @0(ptr noalias, ptr)"; !strings.Contains(printed(t, m), want) {
		t.Fatalf("printed\n%s\nwant a line %q", printed(t, m), want)
	}
	needTools(t, oracle.Tool)
	v, err := oracle.LLVMDis(context.Background(), data, printed(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if v.OracleFailed || !v.Agrees {
		t.Fatalf("oracle: %+v", v)
	}
}

package bitcode

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/oracle"
)

// intrinsicDecls declares one instance of each intrinsic of intrinsicAttrs,
// without attributes; llvm-as-19 gives each LLVM's own.
var intrinsicDecls = map[string]string{
	"llvm.assume":         "declare void @llvm.assume(i1)",
	"llvm.lifetime.start": "declare void @llvm.lifetime.start.p0(i64, ptr)",
	"llvm.lifetime.end":   "declare void @llvm.lifetime.end.p0(i64, ptr)",
	"llvm.memcpy":         "declare void @llvm.memcpy.p0.p2.i64(ptr, ptr addrspace(2), i64, i1)",
	"llvm.memmove":        "declare void @llvm.memmove.p1.p1.i32(ptr addrspace(1), ptr addrspace(1), i32, i1)",
	"llvm.memset":         "declare void @llvm.memset.p3.i64(ptr addrspace(3), i8, i64, i1)",
	"llvm.abs":            "declare <2 x i16> @llvm.abs.v2i16(<2 x i16>, i1)",
	"llvm.ctlz":           "declare i32 @llvm.ctlz.i32(i32, i1)",
	"llvm.cttz":           "declare i64 @llvm.cttz.i64(i64, i1)",
	"llvm.ctpop":          "declare i8 @llvm.ctpop.i8(i8)",
	"llvm.fabs":           "declare half @llvm.fabs.f16(half)",
	"llvm.fma":            "declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)",
	"llvm.fmuladd":        "declare bfloat @llvm.fmuladd.bf16(bfloat, bfloat, bfloat)",
	"llvm.fshl":           "declare i32 @llvm.fshl.i32(i32, i32, i32)",
	"llvm.fshr":           "declare i16 @llvm.fshr.i16(i16, i16, i16)",
	"llvm.maxnum":         "declare float @llvm.maxnum.f32(float, float)",
	"llvm.minnum":         "declare double @llvm.minnum.f64(double, double)",
	"llvm.smax":           "declare i32 @llvm.smax.i32(i32, i32)",
	"llvm.smin":           "declare i8 @llvm.smin.i8(i8, i8)",
	"llvm.umax":           "declare i16 @llvm.umax.i16(i16, i16)",
	"llvm.umin":           "declare i64 @llvm.umin.i64(i64, i64)",
	"llvm.expect":         "declare i1 @llvm.expect.i1(i1, i1)",
}

// TestIntrinsicAttrs checks intrinsicAttrs against LLVM: a module
// declaring each listed intrinsic, assembled by llvm-as-19 (which gives
// the declarations LLVM's attributes), read with the table's attributes
// in place of the bitcode's, prints as llvm-dis-19 prints it. A wrong or
// missing table attribute shows as a disagreement.
func TestIntrinsicAttrs(t *testing.T) {
	needTools(t, "llvm-as-19", oracle.Tool)
	var names []string
	for k := range intrinsicAttrs {
		if _, ok := intrinsicDecls[k]; !ok {
			t.Errorf("%s is in intrinsicAttrs but not checked here", k)
		}
		names = append(names, k)
	}
	sort.Strings(names)
	var ll strings.Builder
	for _, k := range names {
		ll.WriteString(intrinsicDecls[k] + "\n")
	}
	// a name that only starts like a listed intrinsic keeps its attributes
	ll.WriteString("declare void @llvm.memcpy.inline.p0.p0.i64(ptr, ptr, i64, i1)\n")
	path := filepath.Join(t.TempDir(), "intrinsics.ll")
	if err := os.WriteFile(path, []byte(ll.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	data := assemble(t, path)
	ours, err := printLL(t, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := oracle.LLVMDis(context.Background(), data, ours)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Agrees {
		t.Fatalf("oracle disagrees at line %d:\n ours:   %s\n theirs: %s", v.Line, v.Ours, v.Theirs)
	}
	if !strings.Contains(ours, "declare void @llvm.assume(i1 noundef)") {
		t.Errorf("llvm.assume printed without noundef:\n%s", ours)
	}
}

// TestIntrinsicAttrsReplaced builds, by hand, bitcode declaring
// llvm.assume without attributes (as older compilers wrote it) and
// llvm.smax with a noundef of its own, and requires llvm-dis-19 and our
// printer to agree: LLVM gives both its own attributes.
func TestIntrinsicAttrsReplaced(t *testing.T) {
	data := module(func(w *bitWriter) {
		w.record(1, 1) // VERSION 1: names from the symbol table
		w.enter(typeBlockID, 4)
		w.record(1, 5)
		w.record(2)              // 0: void
		w.record(7, 1)           // 1: i1
		w.record(7, 32)          // 2: i32
		w.record(21, 0, 0, 1)    // 3: void (i1)
		w.record(21, 0, 2, 2, 2) // 4: i32 (i32, i32)
		w.end()
		w.enter(paramAttrGroupID, 4)
		w.record(3, 1, 1, 0, 68) // group 1: param 0 noundef
		w.end()
		w.enter(paramAttrID, 4)
		w.record(2, 1)
		w.end()
		w.record(8, 3, 0, 1, 0, 0, 0, 0, 0) // llvm.assume, no attributes
		w.record(8, 4, 0, 1, 0, 1, 0, 0, 0) // llvm.smax.i32, noundef on its first parameter
		w.enter(valueSymtabID, 4)
		w.record(1, append([]uint64{0}, chars("llvm.assume")...)...)
		w.record(1, append([]uint64{1}, chars("llvm.smax.i32")...)...)
		w.end()
	})
	m, err := ReadModule(data)
	if err != nil {
		t.Fatal(err)
	}
	text := printed(t, m)
	for _, want := range []string{"declare void @llvm.assume(i1 noundef)", "declare i32 @llvm.smax.i32(i32, i32)"} {
		if !strings.Contains(text, want) {
			t.Errorf("printed\n%s\nwant a line %q", text, want)
		}
	}
	needTools(t, oracle.Tool)
	v, err := oracle.LLVMDis(context.Background(), data, text)
	if err != nil {
		t.Fatal(err)
	}
	if v.OracleFailed || !v.Agrees {
		t.Fatalf("oracle: %+v\nours:\n%s", v, text)
	}
}

func chars(s string) []uint64 {
	out := make([]uint64, len(s))
	for i := range s {
		out[i] = uint64(s[i])
	}
	return out
}

// TestModuleFlagUpgrade builds, by hand, module flags in the behaviours
// older compilers wrote ("PIC Level" Max, "PIE Level" Error,
// "sign-return-address" Error) and one LLVM keeps, and requires the
// upgraded behaviours and llvm-dis-19's agreement.
func TestModuleFlagUpgrade(t *testing.T) {
	data := module(func(w *bitWriter) {
		w.record(1, 1)
		w.enter(typeBlockID, 4)
		w.record(1, 2)
		w.record(7, 32) // 0: i32
		w.record(16)    // 1: metadata
		w.end()
		w.enter(constantsID, 4)
		w.record(1, 0)  // SETTYPE i32
		w.record(4, 2)  // value 0: i32 1
		w.record(4, 14) // value 1: i32 7
		w.record(4, 4)  // value 2: i32 2
		w.end()
		w.enter(metadataID, 4)
		w.record(1, chars("PIC Level")...)           // md 0
		w.record(1, chars("PIE Level")...)           // md 1
		w.record(1, chars("sign-return-address")...) // md 2
		w.record(1, chars("frame-pointer")...)       // md 3
		w.record(2, 0, 0)                            // md 4: i32 1
		w.record(2, 0, 1)                            // md 5: i32 7
		w.record(2, 0, 2)                            // md 6: i32 2
		w.record(3, 6, 1, 7)                         // md 7: !{i32 7, !"PIC Level", i32 2}
		w.record(3, 5, 2, 7)                         // md 8: !{i32 1, !"PIE Level", i32 2}
		w.record(3, 5, 3, 7)                         // md 9: !{i32 1, !"sign-return-address", i32 2}
		w.record(3, 6, 4, 7)                         // md 10: !{i32 7, !"frame-pointer", i32 2}
		w.record(4, chars("llvm.module.flags")...)
		w.record(10, 7, 8, 9, 10)
		w.end()
	})
	m, err := ReadModule(data)
	if err != nil {
		t.Fatal(err)
	}
	text := printed(t, m)
	for _, want := range []string{
		`!0 = !{i32 8, !"PIC Level", i32 2}`,
		`!1 = !{i32 7, !"PIE Level", i32 2}`,
		`!2 = !{i32 8, !"sign-return-address", i32 2}`,
		`!3 = !{i32 7, !"frame-pointer", i32 2}`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("printed\n%s\nwant a line %q", text, want)
		}
	}
	needTools(t, oracle.Tool)
	v, err := oracle.LLVMDis(context.Background(), data, text)
	if err != nil {
		t.Fatal(err)
	}
	if v.OracleFailed || !v.Agrees {
		t.Fatalf("oracle: %+v\nours:\n%s", v, text)
	}
}

package cpuref

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// intModule is a kernel with an unsigned function constant count (index 0,
// contract 4) and an int mode (index 2, contract 4), which the static
// initializer copies into @mode; buffer 1, extra, is present only when
// count > 1 and gets gid. The kernel switches on @mode over the cases
// -1, 0 and 3, without a default: out[gid] = v + gid, v the phi of
// phis (its first incoming value is the switch's default, undef).
func intModule(phis string) string {
	return `source_filename = "fcint"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"
@_Z5count.MTL_FC_INIT_0_j = internal addrspace(2) externally_initialized constant i32 undef, align 4
@_Z4mode.MTL_FC_INIT_2_i = internal addrspace(2) externally_initialized constant i32 undef, align 4
@mode = internal addrspace(2) global i32 0, align 4
@pExtra = internal addrspace(2) global i8 0, align 1
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
define internal void @init() section "air.static_init" {
  %c = load i32, ptr addrspace(2) @_Z5count.MTL_FC_INIT_0_j, align 4
  %many = icmp ugt i32 %c, 1
  %q = zext i1 %many to i8
  store i8 %q, ptr addrspace(2) @pExtra, align 1
  %m = load i32, ptr addrspace(2) @_Z4mode.MTL_FC_INIT_2_i, align 4
  store i32 %m, ptr addrspace(2) @mode, align 4
  ret void
}
define void @k(ptr addrspace(1) %out, ptr addrspace(1) %extra, i32 %gid) {
entry:
  %i = zext i32 %gid to i64
  %m = load i32, ptr addrspace(2) @mode, align 4
  switch i32 %m, label %done [
    i32 3, label %three
    i32 -1, label %minus
    i32 0, label %zero
  ]
zero:
  br label %done
three:
  br label %done
minus:
  br label %done
done:
  %v = phi i32 ` + phis + `
  %g = add i32 %v, %gid
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %g, ptr addrspace(1) %p, align 4
  %e = getelementptr inbounds i32, ptr addrspace(1) %extra, i64 %i
  store i32 %gid, ptr addrspace(1) %e, align 4
  ret void
}
!air.kernel = !{!0}
!air.function_constants = !{!20, !21}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4, !6}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.function_constant", !5, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"extra"}
!5 = !{ptr addrspace(2) @pExtra, !"bool", !"hasExtra"}
!6 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !{ptr addrspace(2) @_Z5count.MTL_FC_INIT_0_j, !"uint", !"count", i32 0, i1 true}
!21 = !{ptr addrspace(2) @_Z4mode.MTL_FC_INIT_2_i, !"int", !"mode", i32 2, i1 true}
`
}

// Phi incoming lists for intModule (default, zero, three, minus).
const (
	// intMinusUndef: -1 leaves the value undef too, 0 gives 10, 3 gives 30.
	intMinusUndef = `[ undef, %entry ], [ 10, %zero ], [ 30, %three ], [ undef, %minus ]`
	// intAllUndef: no case defines it.
	intAllUndef = `[ undef, %entry ], [ undef, %zero ], [ undef, %three ], [ undef, %minus ]`
	// intDefault: the default gives 5, so the contract's 4 is defined.
	intDefault = `[ 5, %entry ], [ 10, %zero ], [ 30, %three ], [ 40, %minus ]`
)

// TestIntCandidates: the values a constant is compared with, through the
// initializer's mirror and a switch, signed for int, in ascending order.
func TestIntCandidates(t *testing.T) {
	tm := parseText(intModule(intMinusUndef))
	for _, c := range []struct {
		global, ty string
		want       []uint32
	}{
		{"_Z4mode.MTL_FC_INIT_2_i", "int", []uint32{0xffffffff, 0, 3}},
		{"_Z4mode.MTL_FC_INIT_2_i", "uint", []uint32{0, 3, 0xffffffff}},
		{"_Z5count.MTL_FC_INIT_0_j", "uint", []uint32{1}},
	} {
		got := intCandidates(tm, c.global, c.ty)
		if len(got) != len(c.want) {
			t.Fatalf("%s as %s: %#x, want %#x", c.global, c.ty, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("%s as %s: %#x, want %#x", c.global, c.ty, got, c.want)
			}
		}
	}
}

// TestIntegerConstantSearch runs intModule's kernel: under the contract
// (mode 4) its output is undef; count = 1 is skipped (it removes the extra
// buffer), mode = -1 still leaves it undef, and mode = 0 is kept — its
// words and the assignment recorded, the output 10 + gid. When no case
// defines the output, the undef verdict stands, saying what was tried; a
// defined default keeps the contract.
func TestIntegerConstantSearch(t *testing.T) {
	needTools(t)
	run := func(phis string) (*Result, error) {
		t.Helper()
		return RunText(context.Background(), intModule(phis), "k", Options{})
	}
	res, err := run(intMinusUndef)
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]uint32{}
	for _, fc := range res.Kernel.FunctionConstants {
		words[fc.Name] = fc.Word
	}
	if words["mode"] != 0 || words["count"] != 4 {
		t.Fatalf("function constants %+v: want mode 0, count 4 (the contract's)", res.Kernel.FunctionConstants)
	}
	if s := res.Kernel.FunctionConstantSearch; !strings.HasPrefix(s, "mode=0, the rest as the contract (under the contract's mode=4") || !strings.Contains(s, "run 2 ") || !strings.Contains(s, "1 skipped") {
		t.Fatalf("assignment %q", s)
	}
	out := res.Outputs[0].Bytes
	for g := 0; g < 4; g++ {
		if w := binary.LittleEndian.Uint32(out[4*g:]); w != uint32(10+g) {
			t.Fatalf("out[%d] = %d, want %d", g, w, 10+g)
		}
	}
	_, err = run(intAllUndef)
	if !undefinedOutputs(err) || !strings.Contains(err.Error(), "under 3 other assignments of count, mode") || !strings.Contains(err.Error(), "4 more skipped") {
		t.Fatalf("no case defines the output: %v", err)
	}
	res, err = run(intDefault)
	if err != nil || res.Kernel.FunctionConstantSearch != "" {
		t.Fatalf("a defined default: %v, search %q", err, res.Kernel.FunctionConstantSearch)
	}
}

// TestIntAssignments: the search's order, each constant alone, then pairs.
func TestIntAssignments(t *testing.T) {
	a, b := fcEntry{FunctionConstant: FunctionConstant{Name: "a"}}, fcEntry{FunctionConstant: FunctionConstant{Name: "b"}}
	var got []string
	for _, as := range intAssignments([]fcEntry{a, b}, [][]uint32{{0, 1}, {7}}) {
		var s []string
		for _, c := range as {
			s = append(s, fmt.Sprintf("%s=%d", c.fc.Name, c.v))
		}
		got = append(got, strings.Join(s, ","))
	}
	if want := "a=0 a=1 b=7 a=0,b=7 a=1,b=7"; strings.Join(got, " ") != want {
		t.Errorf("order %q, want %q", strings.Join(got, " "), want)
	}
}

// pairModule is a kernel whose output needs two int function constants, a
// (index 1) and b (index 3), each switched on with one case (0) and no
// default: out[gid] = va + vb + gid, defined only when both are 0.
const pairModule = `source_filename = "fcpair"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"
@_Z1a.MTL_FC_INIT_1_i = internal addrspace(2) externally_initialized constant i32 undef, align 4
@_Z1b.MTL_FC_INIT_3_i = internal addrspace(2) externally_initialized constant i32 undef, align 4
define void @k(ptr addrspace(1) %out, i32 %gid) {
entry:
  %a = load i32, ptr addrspace(2) @_Z1a.MTL_FC_INIT_1_i, align 4
  switch i32 %a, label %ja [
    i32 0, label %a0
  ]
a0:
  br label %ja
ja:
  %va = phi i32 [ undef, %entry ], [ 10, %a0 ]
  %b = load i32, ptr addrspace(2) @_Z1b.MTL_FC_INIT_3_i, align 4
  switch i32 %b, label %jb [
    i32 0, label %b0
  ]
b0:
  br label %jb
jb:
  %vb = phi i32 [ undef, %ja ], [ 20, %b0 ]
  %s = add i32 %va, %vb
  %g = add i32 %s, %gid
  %i = zext i32 %gid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %g, ptr addrspace(1) %p, align 4
  ret void
}
!air.kernel = !{!0}
!air.function_constants = !{!20, !21}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !{ptr addrspace(2) @_Z1a.MTL_FC_INIT_1_i, !"int", !"a", i32 1, i1 true}
!21 = !{ptr addrspace(2) @_Z1b.MTL_FC_INIT_3_i, !"int", !"b", i32 3, i1 true}
`

// TestIntegerConstantSearchPair: neither constant alone defines the
// output; the pair a = b = 0, tried after both singles, does.
func TestIntegerConstantSearchPair(t *testing.T) {
	needTools(t)
	res, err := RunText(context.Background(), pairModule, "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Kernel.FunctionConstantSearch; !strings.HasPrefix(s, "a=0, b=0, the rest as the contract (under the contract's a=3, b=5") || !strings.Contains(s, "run 3 ") {
		t.Fatalf("assignment %q", s)
	}
	if w := binary.LittleEndian.Uint32(res.Outputs[0].Bytes[4:]); w != 31 {
		t.Fatalf("out[1] = %d, want 31", w)
	}
}

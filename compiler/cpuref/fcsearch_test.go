package cpuref

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestFalseSubsets: the search's order, by size and then lexicographically.
func TestFalseSubsets(t *testing.T) {
	for n, want := range map[int]string{
		0: "[]",
		1: "[[0]]",
		2: "[[0] [1] [0 1]]",
		3: "[[0] [1] [2] [0 1] [0 2] [1 2] [0 1 2]]",
	} {
		if got := fmt.Sprint(falseSubsets(n)); got != want {
			t.Errorf("falseSubsets(%d) = %s, want %s", n, got, want)
		}
	}
	if got := len(falseSubsets(maxSearchedBools)); got != 1<<maxSearchedBools-1 {
		t.Errorf("falseSubsets(%d) has %d subsets, want %d", maxSearchedBools, got, 1<<maxSearchedBools-1)
	}
}

// searchModule is a kernel with bool function constants aligned (0), u8
// (1), u16 (2), u32 (3) and other (4), conditional buffers in8, in16, in32
// on buffer 1 whose predicates the static initializer computes by body,
// which stores @p8, @p16 and @p32, and out on buffer 0. The kernel writes
// 1 into out[gid].
func searchModule(body string) string {
	return `@_Z7aligned.MTL_FC_INIT_0_b = internal addrspace(2) externally_initialized constant i8 undef, align 1
@_Z2u8.MTL_FC_INIT_1_b = internal addrspace(2) externally_initialized constant i8 undef, align 1
@_Z3u16.MTL_FC_INIT_2_b = internal addrspace(2) externally_initialized constant i8 undef, align 1
@_Z3u32.MTL_FC_INIT_3_b = internal addrspace(2) externally_initialized constant i8 undef, align 1
@_Z5other.MTL_FC_INIT_4_b = internal addrspace(2) externally_initialized constant i8 undef, align 1
@copy = internal addrspace(2) global i8 0, align 1
@p8 = internal addrspace(2) global i8 0, align 1
@p16 = internal addrspace(2) global i8 0, align 1
@p32 = internal addrspace(2) global i8 0, align 1
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
define internal void @init() section "air.static_init" {
  %a = load i8, ptr addrspace(2) @_Z7aligned.MTL_FC_INIT_0_b, align 1
  %b8 = load i8, ptr addrspace(2) @_Z2u8.MTL_FC_INIT_1_b, align 1
  %b16 = load i8, ptr addrspace(2) @_Z3u16.MTL_FC_INIT_2_b, align 1
  %b32 = load i8, ptr addrspace(2) @_Z3u32.MTL_FC_INIT_3_b, align 1
  %o = load i8, ptr addrspace(2) @_Z5other.MTL_FC_INIT_4_b, align 1
  store i8 %o, ptr addrspace(2) @copy, align 1
` + body + `
  ret void
}
define void @k(ptr addrspace(1) %in8, ptr addrspace(1) %in16, ptr addrspace(1) %in32, ptr addrspace(1) %out, i32 %gid) {
  %i = zext i32 %gid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 1, ptr addrspace(1) %p, align 4
  ret void
}
!air.kernel = !{!0}
!air.function_constants = !{!20, !21, !22, !23, !24}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !5, !7, !9, !10}
!3 = !{i32 0, !"air.function_constant", !4, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"in8"}
!4 = !{ptr addrspace(2) @p8, !"bool", !"use8"}
!5 = !{i32 1, !"air.function_constant", !6, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"ushort", !"air.arg_name", !"in16"}
!6 = !{ptr addrspace(2) @p16, !"bool", !"use16"}
!7 = !{i32 2, !"air.function_constant", !8, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"in32"}
!8 = !{ptr addrspace(2) @p32, !"bool", !"use32"}
!9 = !{i32 3, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!10 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !{ptr addrspace(2) @_Z7aligned.MTL_FC_INIT_0_b, !"bool", !"aligned", i32 0, i1 true}
!21 = !{ptr addrspace(2) @_Z2u8.MTL_FC_INIT_1_b, !"bool", !"u8", i32 1, i1 true}
!22 = !{ptr addrspace(2) @_Z3u16.MTL_FC_INIT_2_b, !"bool", !"u16", i32 2, i1 true}
!23 = !{ptr addrspace(2) @_Z3u32.MTL_FC_INIT_3_b, !"bool", !"u32", i32 3, i1 true}
!24 = !{ptr addrspace(2) @_Z5other.MTL_FC_INIT_4_b, !"bool", !"other", i32 4, i1 true}
`
}

// Predicate bodies for searchModule.
const (
	// fcsAngleLike: use8 = u8 | !aligned, use16 = aligned & u16, use32 = aligned & u32.
	fcsAngleLike = `  %na = xor i8 %a, 1
  %q8 = or i8 %b8, %na
  %ca = icmp ne i8 %a, 0
  %c16 = icmp ne i8 %b16, 0
  %d16 = and i1 %ca, %c16
  %q16 = zext i1 %d16 to i8
  %c32 = icmp ne i8 %b32, 0
  %d32 = and i1 %ca, %c32
  %q32 = zext i1 %d32 to i8
  store i8 %q8, ptr addrspace(2) @p8, align 1
  store i8 %q16, ptr addrspace(2) @p16, align 1
  store i8 %q32, ptr addrspace(2) @p32, align 1`
	// fcsDirect: each predicate is its bool, normalized.
	fcsDirect = `  %q8 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %b8)
  %q16 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %b16)
  %q32 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %b32)
  store i8 %q8, ptr addrspace(2) @p8, align 1
  store i8 %q16, ptr addrspace(2) @p16, align 1
  store i8 %q32, ptr addrspace(2) @p32, align 1`
	// fcsExclusive: use8 = u8, use16 = !u8, use32 = false: never two at once.
	fcsExclusive = `  %n8 = xor i8 %b8, 1
  store i8 %b8, ptr addrspace(2) @p8, align 1
  store i8 %n8, ptr addrspace(2) @p16, align 1
  store i8 0, ptr addrspace(2) @p32, align 1`
	// constant: every predicate true whatever the constants.
	fcsConstant = `  store i8 1, ptr addrspace(2) @p8, align 1
  store i8 1, ptr addrspace(2) @p16, align 1
  store i8 1, ptr addrspace(2) @p32, align 1`
	// masked: every predicate reads u8 (and other through @copy) but holds whatever they are.
	fcsMasked = `  %c = load i8, ptr addrspace(2) @copy, align 1
  %m = or i8 %b8, %c
  %q = or i8 %m, 1
  store i8 %q, ptr addrspace(2) @p8, align 1
  store i8 %q, ptr addrspace(2) @p16, align 1
  store i8 %q, ptr addrspace(2) @p32, align 1`
)

// TestFunctionConstantSearch reads the kernel's interface under each
// initializer: the assignment kept (the constants turned false), the
// predicates it gives, the words every function constant gets, or the
// refusal's reason.
func TestFunctionConstantSearch(t *testing.T) {
	cases := []struct {
		name, body string
		off        string // the constants turned false, "" for the contract
		predicates string
		refusal    string // a substring of the refusal's reason
	}{
		{"angle-like: aligned false", fcsAngleLike, "aligned", "in16: use16=false, in32: use32=false, in8: use8=true", ""},
		{"direct: two false", fcsDirect, "u8, u16", "in16: use16=false, in32: use32=true, in8: use8=false", ""},
		{"exclusive: the contract stands", fcsExclusive, "", "in16: use16=false, in32: use32=false, in8: use8=true", ""},
		{"constant: nothing to vary", fcsConstant, "", "", "read no bool function constant to vary"},
		{"masked: nothing removes it", fcsMasked, "", "", "no assignment of u8, other removes the conflict: 4 tried"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, err := inspect(parseText(searchModule(c.body)), "k")
			if c.refusal != "" {
				var nj *NotJudgeableError
				if !errors.As(err, &nj) || !sharedSlot(err) || !strings.Contains(nj.Reason, c.refusal) {
					t.Fatalf("got %v, want the shared-slot refusal saying %q", err, c.refusal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := k.Predicates(); got != c.predicates {
				t.Errorf("predicates %q, want %q", got, c.predicates)
			}
			off := map[string]bool{}
			for _, n := range strings.Split(c.off, ", ") {
				off[n] = n != ""
			}
			for _, fc := range k.FunctionConstants {
				want := uint32(1)
				if off[fc.Name] {
					want = 0
				}
				if fc.Word != want {
					t.Errorf("%s = %d, want %d", fc.Name, fc.Word, want)
				}
			}
			switch {
			case c.off == "" && k.FunctionConstantSearch != "":
				t.Errorf("search %q, want the contract", k.FunctionConstantSearch)
			case c.off != "" && !strings.HasPrefix(k.FunctionConstantSearch, strings.ReplaceAll(c.off, ", ", "=false, ")+"=false, the rest as the contract"):
				t.Errorf("search %q, want %s false", k.FunctionConstantSearch, c.off)
			}
		})
	}
}

// TestInitializerReads: the constants each predicate's value comes from,
// through locals, stores and loads of other globals.
func TestInitializerReads(t *testing.T) {
	for _, c := range []struct {
		body    string
		globals []string
		want    string
	}{
		{fcsAngleLike, []string{"p8"}, "_Z2u8.MTL_FC_INIT_1_b _Z7aligned.MTL_FC_INIT_0_b"},
		{fcsAngleLike, []string{"p16"}, "_Z3u16.MTL_FC_INIT_2_b _Z7aligned.MTL_FC_INIT_0_b"},
		{fcsDirect, []string{"p32"}, "_Z3u32.MTL_FC_INIT_3_b"},
		{fcsMasked, []string{"p8"}, "_Z2u8.MTL_FC_INIT_1_b _Z5other.MTL_FC_INIT_4_b"},
		{fcsConstant, []string{"p8", "p16"}, ""},
	} {
		reads := initializerReads(parseText(searchModule(c.body)), c.globals)
		var got []string
		for g := range reads {
			if strings.Contains(g, "MTL_FC_INIT") {
				got = append(got, g)
			}
		}
		sort.Strings(got)
		if strings.Join(got, " ") != c.want {
			t.Errorf("%v: reads %v, want %s", c.globals, got, c.want)
		}
	}
}

// TestFunctionConstantSearchRuns runs the angle-like kernel: the host
// module's function-constant globals hold the kept words (aligned = 0, the
// rest 1), so the constructor that checks the static initializer's own run
// against the evaluated predicates passes (exit 11 otherwise), and the
// kernel, given in8 alone on buffer 1, writes its words.
func TestFunctionConstantSearchRuns(t *testing.T) {
	needTools(t)
	res, err := RunText(context.Background(), searchModule(fcsAngleLike), "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kernel.FunctionConstantSearch == "" || len(res.Kernel.Buffers) != 2 || res.Kernel.Buffers[1].Name != "in8" {
		t.Fatalf("search %q, buffers %+v", res.Kernel.FunctionConstantSearch, res.Kernel.Buffers)
	}
	for _, g := range []string{"@_Z7aligned.MTL_FC_INIT_0_b = internal addrspace(2) constant i8 0,", "@_Z2u8.MTL_FC_INIT_1_b = internal addrspace(2) constant i8 1,"} {
		if !strings.Contains(res.LL, g) {
			t.Errorf("the host module lacks %s", g)
		}
	}
}

// TestBoolWordInLLVMTypes: a bool the search turns false is 0 in i8 and
// false in i1, true is 1 and true.
func TestBoolWordInLLVMTypes(t *testing.T) {
	for _, c := range []struct {
		word     uint32
		ty, want string
	}{{0, "i8", "0"}, {1, "i8", "1"}, {0, "i1", "false"}, {1, "i1", "true"}} {
		got, err := fcValue(FunctionConstant{Name: "b", Type: "bool", Word: c.word}, c.ty)
		if err != nil || got != c.want {
			t.Errorf("bool %d as %s: %q %v, want %q", c.word, c.ty, got, err, c.want)
		}
	}
}

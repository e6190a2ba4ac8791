package cpuref

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestUnreadSIMDCalls: a SIMD-group call whose every use is an
// llvm.assume, or that has no use, is found with its assumes; one used
// otherwise is not, nor is one that returns nothing.
func TestUnreadSIMDCalls(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []int // line indices within the body, from 0
	}{
		{"assume only", "  %u = tail call i1 @air.is_uniform.i32(i32 %n) #3\n  tail call void @llvm.assume(i1 %u) #4", []int{0, 1}},
		{"two assumes, debug info", "  %u = call i1 @air.is_uniform.i1(i1 %c), !dbg !9\n  call void @llvm.assume(i1 %u), !dbg !9\n  call void @llvm.assume(i1 %u) #4, !dbg !10", []int{0, 1, 2}},
		{"quoted name", "  %\"u 1\" = call i1 @air.is_uniform.i32(i32 %n)\n  call void @llvm.assume(i1 %\"u 1\")", []int{0, 1}},
		{"a branch reads it", "  %u = call i1 @air.is_uniform.i32(i32 %n)\n  call void @llvm.assume(i1 %u)\n  br i1 %u, label %a, label %b", nil},
		{"stored", "  %u = call i1 @air.is_uniform.i32(i32 %n)\n  %z = zext i1 %u to i32", nil},
		{"assume with a bundle", "  %u = call i1 @air.is_uniform.i32(i32 %n)\n  call void @llvm.assume(i1 %u) [ \"align\"(ptr %p, i64 8) ]", nil},
		{"a longer name is not a use", "  %u = call i1 @air.is_uniform.i32(i32 %n)\n  call void @llvm.assume(i1 %u)\n  %z = zext i1 %u2 to i32\n  %y = add i32 %u.x, 1", []int{0, 1}},
		{"no assume: unused", "  %u = call i1 @air.is_uniform.i32(i32 %n)", []int{0}},
		{"another function's value", "  %v = call i1 @air.is_uniform.i32(i32 %n)\n  call void @llvm.assume(i1 %u)", []int{0}},
		{"an unused shuffle", "  %s = tail call float @air.simd_shuffle_down.f32(float %x, i16 1) #8", []int{0}},
		{"a used shuffle", "  %s = tail call float @air.simd_shuffle_down.f32(float %x, i16 1) #8\n  %t = fadd float %s, %x", nil},
		{"an unnamed sum", "  call i32 @air.simd_sum.u.i32(i32 %v)", []int{0}},
		{"a barrier", "  call void @air.simdgroup.barrier(i32 1, i32 4)", nil},
		{"a matrix store", "  tail call fastcc void @air.simdgroup_matrix_8x8_store.v64f32.p3f32(<64 x float> %m, ptr addrspace(3) %p, <2 x i64> <i64 8, i64 1>, <2 x i64> zeroinitializer, i1 false)", nil},
		{"not a SIMD-group function", "  %c = call float @air.fast_cos.f32(float %x)", nil},
	}
	for _, c := range cases {
		text := "define void @f() {\nentry:\n" + c.body + "\n  ret void\n}\n"
		got := unreadSIMDCalls(parseText(text))
		var lines []int
		for i := range got {
			lines = append(lines, i-2)
		}
		slices.Sort(lines)
		if !slices.Equal(lines, c.want) {
			t.Errorf("%s: got lines %v, want %v", c.name, lines, c.want)
		}
	}
}

// TestUnreadSIMDCallInBranch: lanes 4 and up assume a uniform value inside
// a branch lanes 0-3 skip, then every lane meets at a simd_sum. The
// assumption is no rendezvous, so the kernel runs, as it does with a
// shuffle whose result nothing uses; the same is_uniform
// whose result is stored stays one, and its lanes diverge.
func TestUnreadSIMDCallInBranch(t *testing.T) {
	needTools(t)
	kernel := func(use string) string {
		return simdKernel([]string{"%few = icmp ult i16 %lane, 4\n  br i1 %few, label %join, label %many\nmany:\n  %u = call i1 @air.is_uniform.i32(i32 %w)\n  " + use + "\n  br label %join\njoin:\n  %r0 = call i32 @air.simd_sum.u.i32(i32 %v)"})
	}
	opts := Options{SIMDWidth: 8}
	res, err := RunText(context.Background(), kernel("call void @llvm.assume(i1 %u)"), "k", opts)
	if err != nil {
		t.Fatalf("an assumption in a branch: %v", err)
	}
	in, out := res.Inputs[0].Bytes, res.Outputs[1].Bytes
	word := func(b []byte, i int) uint32 {
		return uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
	}
	var sum uint32
	for l := range 8 {
		sum += word(in, l)
	}
	if got := word(out, 0); got != sum {
		t.Errorf("lane 0's simd_sum: got %#x, want %#x", got, sum)
	}
	if _, err := RunText(context.Background(), kernel("%s = call i32 @air.simd_shuffle_down.u.i32(i32 %v, i16 1)"), "k", opts); err != nil {
		t.Errorf("an unused shuffle in a branch: %v", err)
	}
	stored := "%uz = zext i1 %u to i32\n  store i32 %uz, ptr addrspace(1) %ob, align 4"
	_, err = RunText(context.Background(), kernel(stored), "k", opts)
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindSIMDDivergence {
		t.Errorf("an is_uniform that is stored, in a branch: got %v, want %s", err, KindSIMDDivergence)
	}
	if !strings.Contains(kernel(""), "@air.is_uniform.i32") {
		t.Fatal("the kernel lost its is_uniform")
	}
}

// FuzzUnreadSIMDCalls: on any text, the lines found are call lines of a
// SIMD-group function that returns a value, or llvm.assume lines, and every
// assume found reads a value whose call is found too.
func FuzzUnreadSIMDCalls(f *testing.F) {
	f.Add("define void @f() {\n  %u = call i1 @air.is_uniform.i32(i32 %n)\n  call void @llvm.assume(i1 %u)\n  ret void\n}\n")
	f.Add("define void @f() {\n  call i32 @air.simd_sum.u.i32(i32 %v)\n  %s = call float @air.simd_shuffle.f32(float %x, i16 1)\n  store float %s, ptr %p\n}\n")
	f.Add("define void @f() {\n  call void @llvm.assume(i1 %u)\n}\ndefine void @g() {\n  %u = call i1 @air.is_uniform.i1(i1 %c)\n}\n")
	f.Fuzz(func(t *testing.T, text string) {
		tm := parseText(text)
		found := unreadSIMDCalls(tm)
		calls := map[string]bool{}
		for i := range found {
			l := tm.lines[i]
			if m := resultCall.FindStringSubmatch(l); m != nil {
				calls[m[1]] = true
			}
		}
		for i := range found {
			l := tm.lines[i]
			switch m := assumeCall.FindStringSubmatch(l); {
			case m != nil:
				if !calls[m[1]] {
					t.Fatalf("line %d %q: an assume of a value whose call is not removed", i, l)
				}
			case resultCall.MatchString(l) || discardsValue(l):
			default:
				t.Fatalf("line %d %q: neither a SIMD-group call nor an assume", i, l)
			}
		}
	})
}

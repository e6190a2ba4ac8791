package cpuref

import (
	"context"
	"errors"
	"testing"
)

// TestArrayBounds: a load or store outside a private array (an alloca) is
// an out-of-bounds access the reference reports, as it does for a buffer,
// instead of reading or overwriting the array beside it on the CPU's stack
// (bounds.go); accesses inside run as before, and the module's own
// llvm.trap still traps.
func TestArrayBounds(t *testing.T) {
	needTools(t)
	const decls = "declare void @llvm.trap()"
	// Two private arrays side by side: %a, indexed by the thread, and %b,
	// which a store before %a would land in.
	access := func(index, extra string) string {
		return `  %a = alloca [8 x i32], align 4
  %b = alloca [8 x i32], align 4
  %lane = and i32 %gid, 7
  %i = ` + index + `
  %is = sext i32 %i to i64
  %pb = getelementptr inbounds [8 x i32], ptr %b, i64 0, i64 0
  store i32 7, ptr %pb, align 4
  %pa = getelementptr inbounds [8 x i32], ptr %a, i64 0, i64 %is
  store i32 %v, ptr %pa, align 4
` + extra + `  %r = load i32, ptr %pb, align 4
  %s = add i32 %r, %v
  store i32 %s, ptr addrspace(1) %p, align 4`
	}
	cases := []struct {
		name, body, kind, detail string
	}{
		{"inside", access("add i32 %lane, 0", ""), "", ""},
		{"a store before the array", access("sub i32 %lane, 1", ""), KindOutOfBounds, "private or threadgroup array"},
		{"a store past the array", access("add i32 %lane, 1", ""), KindOutOfBounds, "private or threadgroup array"},
		{"a load past the array", access("add i32 %lane, 0", "  %pl = getelementptr inbounds [8 x i32], ptr %a, i64 0, i64 8\n  %l = load i32, ptr %pl, align 4\n  store i32 %l, ptr %pb, align 4\n"), KindOutOfBounds, "private or threadgroup array"},
		{"the module's own trap", access("add i32 %lane, 0", "  %t = icmp eq i32 %gid, 3\n  br i1 %t, label %boom, label %on\nboom:\n  call void @llvm.trap()\n  unreachable\non:\n"), KindTrap, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := RunText(context.Background(), variant("kernel", decls, "", c.body, ""), "k", Options{})
			if c.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				in, out := res.Inputs[0].Bytes, res.Outputs[0].Bytes
				for w := range 16 {
					v := uint32(in[4*w]) | uint32(in[4*w+1])<<8 | uint32(in[4*w+2])<<16 | uint32(in[4*w+3])<<24
					got := uint32(out[4*w]) | uint32(out[4*w+1])<<8 | uint32(out[4*w+2])<<16 | uint32(out[4*w+3])<<24
					if got != v+7 {
						t.Errorf("word %d: got %#x, want %#x", w, got, v+7)
					}
				}
				return
			}
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != c.kind || nj.Detail != c.detail {
				t.Fatalf("got %v, want not judgeable (%s %q)", err, c.kind, c.detail)
			}
		})
	}
}

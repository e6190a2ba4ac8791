package cpuref

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
)

// TestWithInitArrays: llvm.global_ctors becomes one .init_array array per
// priority, functions in the list's order; a list of another form, or none,
// leaves the module as it is.
func TestWithInitArrays(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"one", `@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]`,
			`@airpipe_init_array = internal global [1 x ptr] [ptr @init], section ".init_array", align 8`},
		{"priorities", `@llvm.global_ctors = appending global [3 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @a, ptr null }, { i32, ptr, ptr } { i32 100, ptr @"c.1", ptr null }, { i32, ptr, ptr } { i32 65535, ptr @b, ptr null }]`,
			`@airpipe_init_array.100 = internal global [1 x ptr] [ptr @"c.1"], section ".init_array.100", align 8` + "\n" +
				`@airpipe_init_array = internal global [2 x ptr] [ptr @a, ptr @b], section ".init_array", align 8`},
		{"empty", `@llvm.global_ctors = appending global [0 x { i32, ptr, ptr }] zeroinitializer`, "\x00"},
		{"associated data", `@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr @g }]`, ""},
		{"count", `@llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]`, ""},
		{"none", `@g = global i32 0`, ""},
	} {
		in := "define void @f() {\n  ret void\n}\n" + c.in + "\n@h = global i32 1"
		want := in
		switch c.want {
		case "":
		case "\x00": // the line goes
			want = strings.Replace(in, c.in+"\n", "", 1)
		default:
			want = strings.Replace(in, c.in, c.want, 1)
		}
		if got := withInitArrays(in); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, want)
		}
	}
}

// TestConstructorOrder: constructors run before the kernel by priority,
// then in the list's order: g = 3, then g·10 + 1, then g·10 + 2 makes 312.
func TestConstructorOrder(t *testing.T) {
	needTools(t)
	decls := `@g = internal global i32 0
@llvm.global_ctors = appending global [3 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @one, ptr null }, { i32, ptr, ptr } { i32 65535, ptr @two, ptr null }, { i32, ptr, ptr } { i32 100, ptr @three, ptr null }]
define internal void @one() {
  %v = load i32, ptr @g
  %m = mul i32 %v, 10
  %a = add i32 %m, 1
  store i32 %a, ptr @g
  ret void
}
define internal void @two() {
  %v = load i32, ptr @g
  %m = mul i32 %v, 10
  %a = add i32 %m, 2
  store i32 %a, ptr @g
  ret void
}
define internal void @three() {
  store i32 3, ptr @g
  ret void
}`
	ll := variant("kernel", decls, "", "  %gv = load i32, ptr @g\n  store i32 %gv, ptr addrspace(1) %p", "")
	res, err := RunText(context.Background(), ll, "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint32(res.Outputs[0].Bytes); got != 312 {
		t.Errorf("out[0] = %d, want 312", got)
	}
}

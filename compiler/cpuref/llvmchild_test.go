package cpuref

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/airpipe/airpipe/compiler/libllvm"
	"github.com/airpipe/airpipe/internal/proc"
)

// TestMain runs the test binary as an LLVM child (libllvm.Serve) when
// TestLLVMChildren starts it as one.
func TestMain(m *testing.M) {
	proc.ServeIfChild("AIRPIPE_CPUREF_LLVM_CHILD", libllvm.Serve)
	os.Exit(m.Run())
}

// TestLLVMChildren: with LLVM children, a reference — here also one with a
// static initializer, whose constructors the children compile once written
// out as .init_array arrays, and one with threadgroup memory, which the
// bounds-checking pass checks — gives the outputs it gives with the tools,
// and starts none of llvm-dis-19, opt-19 and llc-19.
func TestLLVMChildren(t *testing.T) {
	needTools(t)
	ll, err := os.ReadFile("testdata/affine.ll")
	if err != nil {
		t.Fatal(err)
	}
	withCtor := string(ll) + "\n@g = internal global i32 0\ndefine internal void @init() {\n  store i32 7, ptr @g\n  ret void\n}\n@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]\n"
	type module struct{ text, entry string }
	modules := []module{{string(ll), "affine"}, {withCtor, "affine"}, {tgKernel("", neighbour()), "k"}}
	var want []*Result
	for _, m := range modules {
		res, err := Run(context.Background(), assemble(t, m.text), m.entry, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, res)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AIRPIPE_CPUREF_LLVM_CHILD", "1")
	UseLLVMChildren([]string{exe})
	defer llvmChildren.Store(nil)
	tools := func() int {
		n := 0
		for _, tool := range []string{"llvm-dis-19", "opt-19", "llc-19"} {
			n += proc.Tally()[tool].Runs
		}
		return n
	}
	before := tools()
	for i, m := range modules {
		// Bitcode not disassembled before: the recent texts do not answer.
		bc := assemble(t, m.text+"\n@llvmchild_test = global i32 1\n")
		res, err := Run(context.Background(), bc, m.entry, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for j, o := range want[i].Outputs {
			if !bytes.Equal(res.Outputs[j].Bytes, o.Bytes) {
				t.Errorf("module %d: buffer %d differs from the tools' reference", i, o.Index)
			}
		}
	}
	if got := tools() - before; got != 0 {
		t.Errorf("the LLVM tools ran %d times with LLVM children", got)
	}
}

package cpuref

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/airpipe/airpipe/compiler/libllvm"
)

// llvmChildren, once UseLLVMChildren set them, do the reference's
// llvm-dis-19, opt-19 and llc-19 work (compiler/libllvm) without a tool process per
// module.
var llvmChildren atomic.Pointer[libllvm.Children]

// UseLLVMChildren makes this process's references disassemble, check and
// compile through children started as argv (a program running
// libllvm.Serve) instead of starting llvm-dis-19, opt-19 and llc-19 for
// every module. What the
// children decline, the tool does, and its outcome is the verdict: the
// children only ever stand for a tool that succeeds.
func UseLLVMChildren(argv []string) {
	llvmChildren.Store(libllvm.NewChildren(argv))
}

// maxText is the most output Disassemble takes from llvm-dis-19.
const maxText = 64 << 20

// disassembleInChild is the children's text of bitcode, if they give one
// that llvm-dis-19's would be (no larger than it may print).
func disassembleInChild(ctx context.Context, bitcode []byte, timeout time.Duration) (string, bool) {
	c := llvmChildren.Load()
	if c == nil {
		return "", false
	}
	text, err := c.Disassemble(ctx, bitcode, timeout)
	return text, err == nil && len(text) <= maxText
}

// buildInChild reports whether the children wrote to obj the object that
// checkBounds and llc-19 (-O0 -mcpu=x86-64 -relocation-model=pic
// -fast-isel=false -filetype=obj, no other option) make of the text file ll,
// whose text is host: in one request, the module read once.
func buildInChild(ctx context.Context, ll, obj, host string, strip bool, timeout time.Duration) bool {
	c := llvmChildren.Load()
	if c == nil {
		return false
	}
	passes, check := boundsCheck(host, strip) // bounds.go
	if !check {
		return c.Compile(ctx, ll, obj, timeout) == nil
	}
	return c.Build(ctx, ll, obj, strip, passes, guardRenames, timeout) == nil
}

// optimizeInChild reports whether the children wrote what opt-19 -S
// [--strip-debug] [-passes=PASSES] makes of the text file ll to out.
func optimizeInChild(ctx context.Context, ll, out string, strip bool, passes string, timeout time.Duration) bool {
	c := llvmChildren.Load()
	return c != nil && c.Optimize(ctx, ll, out, strip, passes, timeout) == nil
}

package bitcode

import (
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
)

// TestIndirectCalls reads calls through a pointer (testdata/indirect_call.ll)
// and checks that each callee is the value the call names, that
// air.Call.Called tells them from the direct call, and that a callee
// defined after the call in block layout is resolved.
func TestIndirectCalls(t *testing.T) {
	needTools(t, "llvm-as-19")
	m, err := ReadModule(assemble(t, "testdata/indirect_call.ll"))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Function("dispatch")
	if f == nil {
		t.Fatal("no @dispatch")
	}
	var calls []*air.Call
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			if c, ok := in.(*air.Call); ok {
				calls = append(calls, c)
			}
		}
	}
	if len(calls) != 6 {
		t.Fatalf("%d calls, want 6", len(calls))
	}
	// callee's kind, per call in order: a, b, d, the varargs call, e, @sink
	want := []string{"arg fp", "load", "select", "arg vfp", "load", "direct"}
	for k, c := range calls {
		got := ""
		switch v := c.Callee.(type) {
		case *air.Argument:
			got = "arg " + [...]string{"fp", "i", "c", "vfp"}[v.Index]
		case *air.Load:
			got = "load"
		case *air.Select:
			got = "select"
		case *air.Function:
			got = "direct"
		default:
			got = "unexpected callee"
		}
		if got != want[k] {
			t.Errorf("call %d: callee %T (%s), want %s", k, c.Callee, got, want[k])
		}
		if (c.Called() == nil) != (want[k] != "direct") {
			t.Errorf("call %d: Called() = %v, want nil exactly for calls through a pointer", k, c.Called())
		}
	}
	if vc := calls[3]; !vc.Sig.VarArg || len(vc.Args) != 3 {
		t.Errorf("varargs call: signature %s with %d arguments, want varargs with 3", vc.Sig, len(vc.Args))
	}
	if calls[2].CallingConv != 8 || calls[1].Tail != air.Tail {
		t.Errorf("calling convention %d and tail %d, want fastcc (8) and tail", calls[2].CallingConv, calls[1].Tail)
	}
	if !calls[0].Attrs.Param(0).Has("zeroext") {
		t.Errorf("call-site attributes of the first call: %v, want zeroext on its argument", calls[0].Attrs.Params)
	}
}

package cpuref

import (
	"errors"
	"strings"
	"testing"
)

// TestFloatAtomicDefinitions: each float atomic Metal has is LLVM's atomic
// instruction on the float; forms Metal lacks (min, a double) stay unknown.
func TestFloatAtomicDefinitions(t *testing.T) {
	for _, c := range []struct {
		d    declaration
		want string // a line of the body; "" for undefined
	}{
		{declaration{Name: "air.atomic.global.add.f32", Ret: "float", Params: []string{"ptr addrspace(1)", "float", "i32", "i32", "i1"}}, "atomicrmw fadd ptr addrspace(1) %a0, float %a1 seq_cst"},
		{declaration{Name: "air.atomic.local.sub.f32", Ret: "float", Params: []string{"ptr addrspace(3)", "float", "i32", "i32", "i1"}}, "atomicrmw fsub ptr addrspace(3) %a0, float %a1 seq_cst"},
		{declaration{Name: "air.atomic.global.xchg.f32", Ret: "float", Params: []string{"ptr addrspace(1)", "float", "i32", "i32", "i1"}}, "atomicrmw xchg ptr addrspace(1) %a0, float %a1"},
		{declaration{Name: "air.atomic.global.load.f32", Ret: "float", Params: []string{"ptr addrspace(1)", "i32", "i32", "i1"}}, "load atomic float, ptr addrspace(1) %a0"},
		{declaration{Name: "air.atomic.local.store.f32", Ret: "void", Params: []string{"ptr addrspace(3)", "float", "i32", "i32", "i1"}}, "store atomic float %a1, ptr addrspace(3) %a0"},
		{declaration{Name: "air.atomic.global.min.f32", Ret: "float", Params: []string{"ptr addrspace(1)", "float", "i32", "i32", "i1"}}, ""},
		{declaration{Name: "air.atomic.global.add.f32", Ret: "float", Params: []string{"ptr addrspace(3)", "float", "i32", "i32", "i1"}}, ""},
		{declaration{Name: "air.atomic.global.add.f64", Ret: "double", Params: []string{"ptr addrspace(1)", "double", "i32", "i32", "i1"}}, ""},
	} {
		def, err := defineOp(c.d)
		if c.want == "" {
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != KindUnknownOp {
				t.Errorf("%s(%v): %v, want %s", c.d.Name, c.d.Params, err, KindUnknownOp)
			}
			continue
		}
		if err != nil || !strings.Contains(def, c.want) || !strings.Contains(def, "@airpipe_atomic(") {
			t.Errorf("%s: %v\n%s\nwant a line with %q and the atomic mark", c.d.Name, err, def, c.want)
		}
	}
	if !floatAtomicOrderOnly(declaration{Name: "air.atomic.local.add.f32"}) || floatAtomicOrderOnly(declaration{Name: "air.atomic.global.xchg.f32"}) {
		t.Error("the float adds (and only they) are order-only")
	}
}

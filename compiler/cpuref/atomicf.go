package cpuref

import (
	"fmt"
	"strings"
)

// floatAtomicBody defines Metal's atomic<float> operations,
// air.atomic.{global,local}.{add,sub,xchg,load,store}.f32 (ptr, float v,
// order, scope, volatile), as LLVM's atomic instructions on the float:
// atomicrmw fadd / fsub / xchg (returning the old value, as Metal's
// fetch_add, fetch_sub and exchange do), load atomic and store atomic.
// Threads run one after another, so each is trivially atomic. The adds'
// order is the threads' order here and any order on a GPU, so a float sum of
// several threads is only fixed up to that order (floatAtomicOrderOnly).
// Other operations and widths stay undefined (KindUnknownOp).
func floatAtomicBody(d declaration, parts []string) string {
	if len(parts) != 4 || parts[3] != "f32" {
		return ""
	}
	space := map[string]string{"global": "ptr addrspace(1)", "local": "ptr addrspace(3)"}[parts[1]]
	if len(d.Params) < 1 || space == "" || d.Params[0] != space {
		return ""
	}
	mark := "  call void @airpipe_atomic(ptr addrspace(1) %a0)\n"
	if parts[1] == "local" {
		mark = "  %w = addrspacecast ptr addrspace(3) %a0 to ptr addrspace(1)\n  call void @airpipe_atomic(ptr addrspace(1) %w)\n"
	}
	op := parts[2]
	switch {
	case op == "load" && d.Ret == "float":
		return mark + "  %r = load atomic float, " + space + " %a0 seq_cst, align 4\n  ret float %r\n"
	case op == "store" && d.Ret == "void" && len(d.Params) >= 2 && d.Params[1] == "float":
		return mark + "  store atomic float %a1, " + space + " %a0 seq_cst, align 4\n  ret void\n"
	}
	rmw := map[string]string{"add": "fadd", "sub": "fsub", "xchg": "xchg"}[op]
	if rmw == "" || d.Ret != "float" || len(d.Params) < 2 || d.Params[1] != "float" {
		return ""
	}
	return mark + fmt.Sprintf("  %%r = atomicrmw %s %s %%a0, float %%a1 seq_cst, align 4\n  ret float %%r\n", rmw, space)
}

// floatAtomicOrderOnly reports the float atomic adds and subtracts: Metal
// fixes each to one IEEE addition but leaves open the order in which the
// threads' operations happen, so, like the order-only operations
// (orderonly.go), a module declaring one has its float outputs compared
// within the ULP bound (Result.Approximate names it).
func floatAtomicOrderOnly(d declaration) bool {
	op := strings.TrimPrefix(d.Name, "air.")
	return op == "atomic.global.add.f32" || op == "atomic.global.sub.f32" ||
		op == "atomic.local.add.f32" || op == "atomic.local.sub.f32"
}

package cpuref

import (
	"context"
	"errors"
	"testing"
)

// atomicModule is a kernel whose every thread adds 1 to counter (buffer 1)
// with air.atomic.global.add.u.i32 and then runs store, which may write
// the value the add returned (%old) into out (buffer 0).
func atomicModule(store string) string {
	return `declare i32 @air.atomic.global.add.u.i32(ptr addrspace(1), i32, i32, i32, i1)
define void @k(ptr addrspace(1) %out, ptr addrspace(1) %counter, i32 %gid) {
  %i = zext i32 %gid to i64
  %old = call i32 @air.atomic.global.add.u.i32(ptr addrspace(1) %counter, i32 1, i32 0, i32 2, i1 true)
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
` + store + `
  ret void
}
!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"counter"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
`
}

// TestAtomicOrderDependence: a kernel with atomics runs the reverse-order
// pass too. Writing the slot a fetch-add returned depends on the order
// threads run (on a GPU, on timing), and is set aside as order-dependent
// instead of being compared (a false red); only counting does not, and is
// judged.
func TestAtomicOrderDependence(t *testing.T) {
	needTools(t)
	_, err := RunText(context.Background(), atomicModule("  store i32 %old, ptr addrspace(1) %po, align 4"), "k", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindOrderDependent || nj.Detail != "thread order" {
		t.Fatalf("the returned slot written: %v, want order-dependent thread order", err)
	}
	if _, err := RunText(context.Background(), atomicModule("  store i32 7, ptr addrspace(1) %po, align 4"), "k", Options{}); err != nil {
		t.Fatalf("counting only: %v", err)
	}
}

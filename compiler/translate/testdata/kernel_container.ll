; Unoptimised C++-style AIR: the entry point stores its buffer pointers in a
; struct on the stack and a helper method reads them back (pointer slots).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.Container = type { ptr addrspace(1), ptr addrspace(2) }

define void @container(ptr addrspace(1) %out, ptr addrspace(2) %scale, i32 %gid) {
  %c = alloca %struct.Container, align 8
  %f0 = getelementptr %struct.Container, ptr %c, i64 0, i32 0
  store ptr addrspace(1) %out, ptr %f0, align 8
  %f1 = getelementptr %struct.Container, ptr %c, i64 0, i32 1
  store ptr addrspace(2) %scale, ptr %f1, align 8
  call fastcc void @run(ptr %c, i32 %gid)
  ret void
}

define internal fastcc void @run(ptr %this, i32 %gid) {
  %f0 = getelementptr %struct.Container, ptr %this, i64 0, i32 0
  %out = load ptr addrspace(1), ptr %f0, align 8
  %f1 = getelementptr %struct.Container, ptr %this, i64 0, i32 1
  %scale = load ptr addrspace(2), ptr %f1, align 8
  %s = load float, ptr addrspace(2) %scale, align 4
  %i = zext i32 %gid to i64
  %p = getelementptr float, ptr addrspace(1) %out, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %r = fmul float %v, %s
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @container, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"scale"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

; airpipe sample: a kernel with a loop that calls an air.* math function.
source_filename = "sum_sqrt"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.fast_sqrt.f32(float)

define void @sum_sqrt(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, i32 %gid) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi float [ 0.000000e+00, %entry ], [ %sum, %loop ]
  %base = mul i32 %gid, 4
  %j = add i32 %base, %i
  %idx = zext i32 %j to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %s = call float @air.fast_sqrt.f32(float %v)
  %sum = fadd float %acc, %s
  %next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %next, 4
  br i1 %done, label %exit, label %loop

exit:
  %o = zext i32 %gid to i64
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %o
  store float %sum, ptr addrspace(1) %q, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!6}
!air.language_version = !{!7}
!0 = !{ptr @sum_sqrt, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!6 = !{i32 2, i32 6, i32 0}
!7 = !{!"Metal", i32 3, i32 0, i32 0}

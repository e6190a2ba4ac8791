; A kernel with threadgroup memory (a global and an argument sized at
; dispatch), a threadgroup barrier, a private array (alloca), and device atomics.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@tile = internal addrspace(3) global [64 x float] undef, align 4

define void @reduce(ptr addrspace(1) %in, ptr addrspace(1) %counter, i32 %lid, i32 %gid, <3 x i32> %tpg, ptr addrspace(3) %scratch) {
  %tmp = alloca [4 x float], align 4
  %gi = zext i32 %gid to i64
  %pin = getelementptr float, ptr addrspace(1) %in, i64 %gi
  %v = load float, ptr addrspace(1) %pin, align 4
  %li = zext i32 %lid to i64
  %slot = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %li
  store float %v, ptr addrspace(3) %slot, align 4
  %sc = getelementptr i32, ptr addrspace(3) %scratch, i64 %li
  store i32 %gid, ptr addrspace(3) %sc, align 4
  tail call void @air.wg.barrier(i32 2, i32 1)
  %first = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 0
  %f0 = load float, ptr addrspace(3) %first, align 4
  %s0 = load i32, ptr addrspace(3) %scratch, align 4
  %s0f = uitofp i32 %s0 to float
  %f = fadd float %f0, %s0f
  %t0 = getelementptr [4 x float], ptr %tmp, i64 0, i64 1
  store float %f, ptr %t0, align 4
  %t1 = load float, ptr %t0, align 4
  %pos = fcmp ogt float %t1, 0.000000e+00
  br i1 %pos, label %count, label %done

count:
  %w = extractelement <3 x i32> %tpg, i32 0
  %old = tail call i32 @air.atomic.global.add.u.i32(ptr addrspace(1) %counter, i32 %w, i32 0, i32 2, i1 false)
  br label %done

done:
  ret void
}

declare void @air.wg.barrier(i32, i32)
declare i32 @air.atomic.global.add.u.i32(ptr addrspace(1), i32, i32, i32, i1)

!air.kernel = !{!0}
!0 = !{ptr @reduce, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"metal::atomic_uint", !"air.arg_name", !"counter"}
!5 = !{i32 2, !"air.thread_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!7 = !{i32 4, !"air.threads_per_threadgroup", !"air.arg_type_name", !"uint3", !"air.arg_name", !"tpg"}
!8 = !{i32 5, !"air.threadgroup", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"scratch"}

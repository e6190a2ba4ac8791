; SIMD-group votes, ballots, elections, is_uniform and the SIMD-group
; barrier (MSL §6.9), in a kernel whose control flow diverges by lane, and
; simdgroups_per_threadgroup.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i1 @air.simd_all(i1)
declare i1 @air.simd_any(i1)
declare i64 @air.simd_ballot.i64(i1)
declare i64 @air.simd_active_threads_mask.i64()
declare i1 @air.simd_vote_all.i64(i64)
declare i1 @air.simd_vote_any.i64(i64)
declare i1 @air.simd_is_first()
declare i1 @air.is_uniform.i1(i1)
declare i1 @air.is_uniform.i32(i32)
declare void @air.simdgroup.barrier(i32, i32)
declare void @llvm.assume(i1)

define void @votes(ptr addrspace(1) %out, i32 %gid, i32 %lane, i32 %groups) {
entry:
  %i = zext i32 %gid to i64
  %base = mul i64 %i, 9
  %p0 = getelementptr i32, ptr addrspace(1) %out, i64 %base
  %u = call i1 @air.is_uniform.i32(i32 7)
  call void @llvm.assume(i1 %u)
  call void @air.simdgroup.barrier(i32 0, i32 1)
  %low = icmp ult i32 %lane, 2
  %uu = call i1 @air.is_uniform.i1(i1 %low)
  %a = call i1 @air.simd_all(i1 %low)
  %n = call i1 @air.simd_any(i1 %low)
  %ca = zext i1 %a to i32
  %cn = zext i1 %n to i32
  %cu = zext i1 %uu to i32
  store i32 %ca, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %p0, i64 1
  store i32 %cn, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr i32, ptr addrspace(1) %p0, i64 2
  store i32 %cu, ptr addrspace(1) %p2, align 4
  %p8 = getelementptr i32, ptr addrspace(1) %p0, i64 8
  store i32 %groups, ptr addrspace(1) %p8, align 4
  %odd = trunc i32 %lane to i1
  br i1 %odd, label %oddlanes, label %done

oddlanes:
  ; Only odd lanes are active here.
  %b = call i64 @air.simd_ballot.i64(i1 %low)
  %m = call i64 @air.simd_active_threads_mask.i64()
  %all = call i1 @air.simd_vote_all.i64(i64 %m)
  %any = call i1 @air.simd_vote_any.i64(i64 %b)
  %first = call i1 @air.simd_is_first()
  call void @air.simdgroup.barrier(i32 2, i32 1)
  %bl = trunc i64 %b to i32
  %ml = trunc i64 %m to i32
  %call = zext i1 %all to i32
  %cany = zext i1 %any to i32
  %cfirst = zext i1 %first to i32
  %p3 = getelementptr i32, ptr addrspace(1) %p0, i64 3
  store i32 %bl, ptr addrspace(1) %p3, align 4
  %p4 = getelementptr i32, ptr addrspace(1) %p0, i64 4
  store i32 %ml, ptr addrspace(1) %p4, align 4
  %p5 = getelementptr i32, ptr addrspace(1) %p0, i64 5
  store i32 %call, ptr addrspace(1) %p5, align 4
  %p6 = getelementptr i32, ptr addrspace(1) %p0, i64 6
  store i32 %cany, ptr addrspace(1) %p6, align 4
  %p7 = getelementptr i32, ptr addrspace(1) %p0, i64 7
  store i32 %cfirst, ptr addrspace(1) %p7, align 4
  br label %done

done:
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @votes, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!5 = !{i32 2, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lane"}
!6 = !{i32 3, !"air.simdgroups_per_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"groups"}

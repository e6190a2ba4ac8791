; emulator fixture: threadgroup memory and barriers. Each thread of a group stores
; 3·in[gid] + lid into tg[lid]; after a barrier it reads its neighbour tg[(lid+1) mod n];
; after a second barrier it stores that value + 1 back into tg[lid]; after a third it
; writes tg[n-1-lid] to out[gid]. Every read crosses threads, so each barrier matters.
source_filename = "threadgroup"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@tg = internal unnamed_addr addrspace(3) global [1024 x i32] undef, align 4

declare void @air.wg.barrier(i32, i32)

define void @tgk(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, i32 %gid, i32 %lid, i32 %n) {
entry:
  %g = zext i32 %gid to i64
  %l = zext i32 %lid to i64
  %ip = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %g
  %v = load i32, ptr addrspace(1) %ip, align 4
  %v3 = mul i32 %v, 3
  %a = add i32 %v3, %lid
  %tp = getelementptr inbounds [1024 x i32], ptr addrspace(3) @tg, i64 0, i64 %l
  store i32 %a, ptr addrspace(3) %tp, align 4
  call void @air.wg.barrier(i32 2, i32 1)
  %l1 = add i32 %lid, 1
  %j = urem i32 %l1, %n
  %jj = zext i32 %j to i64
  %np = getelementptr inbounds [1024 x i32], ptr addrspace(3) @tg, i64 0, i64 %jj
  %w = load i32, ptr addrspace(3) %np, align 4
  call void @air.wg.barrier(i32 2, i32 1)
  %w1 = add i32 %w, 1
  store i32 %w1, ptr addrspace(3) %tp, align 4
  call void @air.wg.barrier(i32 2, i32 1)
  %nm = sub i32 %n, 1
  %r = sub i32 %nm, %lid
  %rr = zext i32 %r to i64
  %rp = getelementptr inbounds [1024 x i32], ptr addrspace(3) @tg, i64 0, i64 %rr
  %x = load i32, ptr addrspace(3) %rp, align 4
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  store i32 %x, ptr addrspace(1) %op, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @tgk, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!6 = !{i32 3, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!7 = !{i32 4, !"air.threads_per_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

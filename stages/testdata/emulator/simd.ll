; emulator fixture: SIMD-group built-ins and operations. Each thread writes 16 words to
; out[16·gid ...]: its lane, simdgroup, threads_per_simdgroup, simdgroups_per_threadgroup,
; simd_shuffle_down(in, 3), simd_shuffle_up(in, 2), simd_shuffle_xor(in, 5),
; simd_broadcast(in, 1), simd_sum, simd_max (signed), simd_prefix_exclusive_sum, the low
; word of simd_ballot(bit 5 of in), simd_is_first, simd_any | simd_all << 1 of bit 4,
; simd_max of -float(in & 0xff), simd_shuffle_rotate_down(in, 3). Lanes read each other's
; words, so a lowering that shuffles the wrong way, or a width the reference did not use,
; shows.
source_filename = "simd"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i32 @air.simd_shuffle_down.u.i32(i32, i16)
declare i32 @air.simd_shuffle_up.u.i32(i32, i16)
declare i32 @air.simd_shuffle_xor.u.i32(i32, i16)
declare i32 @air.simd_broadcast.u.i32(i32, i16)
declare i32 @air.simd_shuffle_rotate_down.u.i32(i32, i16)
declare i32 @air.simd_sum.u.i32(i32)
declare i32 @air.simd_max.s.i32(i32)
declare i32 @air.simd_prefix_exclusive_sum.u.i32(i32)
declare i64 @air.simd_ballot.i64(i1)
declare i1 @air.simd_is_first()
declare i1 @air.simd_any(i1)
declare i1 @air.simd_all(i1)
declare float @air.simd_max.f32(float)

define void @simdk(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, i32 %gid, i16 %lane, i32 %sg, i32 %w, i32 %nsg) {
entry:
  %g = zext i32 %gid to i64
  %ip = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %g
  %v = load i32, ptr addrspace(1) %ip, align 4
  %o = mul i64 %g, 16
  %ob = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o
  %r0 = zext i16 %lane to i32
  %r1 = add i32 %sg, 0
  %r2 = add i32 %w, 0
  %r3 = add i32 %nsg, 0
  %r4 = call i32 @air.simd_shuffle_down.u.i32(i32 %v, i16 3)
  %r5 = call i32 @air.simd_shuffle_up.u.i32(i32 %v, i16 2)
  %r6 = call i32 @air.simd_shuffle_xor.u.i32(i32 %v, i16 5)
  %r7 = call i32 @air.simd_broadcast.u.i32(i32 %v, i16 1)
  %r8 = call i32 @air.simd_sum.u.i32(i32 %v)
  %r9 = call i32 @air.simd_max.s.i32(i32 %v)
  %r10 = call i32 @air.simd_prefix_exclusive_sum.u.i32(i32 %v)
  %v5 = lshr i32 %v, 5
  %bit = trunc i32 %v5 to i1
  %bal = call i64 @air.simd_ballot.i64(i1 %bit)
  %r11 = trunc i64 %bal to i32
  %first = call i1 @air.simd_is_first()
  %r12 = zext i1 %first to i32
  %b4 = and i32 %v, 16
  %has = icmp ne i32 %b4, 0
  %any = call i1 @air.simd_any(i1 %has)
  %all = call i1 @air.simd_all(i1 %has)
  %any2 = zext i1 %any to i32
  %all2 = zext i1 %all to i32
  %all4 = shl i32 %all2, 1
  %r13 = or i32 %any2, %all4
  %byte = and i32 %v, 255
  %f = uitofp i32 %byte to float
  %neg = fneg float %f
  %mf = call float @air.simd_max.f32(float %neg)
  %r14 = bitcast float %mf to i32
  %r15 = call i32 @air.simd_shuffle_rotate_down.u.i32(i32 %v, i16 3)
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 0
  store i32 %r0, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 1
  store i32 %r1, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 2
  store i32 %r2, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 3
  store i32 %r3, ptr addrspace(1) %p3, align 4
  %p4 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 4
  store i32 %r4, ptr addrspace(1) %p4, align 4
  %p5 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 5
  store i32 %r5, ptr addrspace(1) %p5, align 4
  %p6 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 6
  store i32 %r6, ptr addrspace(1) %p6, align 4
  %p7 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 7
  store i32 %r7, ptr addrspace(1) %p7, align 4
  %p8 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 8
  store i32 %r8, ptr addrspace(1) %p8, align 4
  %p9 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 9
  store i32 %r9, ptr addrspace(1) %p9, align 4
  %p10 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 10
  store i32 %r10, ptr addrspace(1) %p10, align 4
  %p11 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 11
  store i32 %r11, ptr addrspace(1) %p11, align 4
  %p12 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 12
  store i32 %r12, ptr addrspace(1) %p12, align 4
  %p13 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 13
  store i32 %r13, ptr addrspace(1) %p13, align 4
  %p14 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 14
  store i32 %r14, ptr addrspace(1) %p14, align 4
  %p15 = getelementptr inbounds i32, ptr addrspace(1) %ob, i64 15
  store i32 %r15, ptr addrspace(1) %p15, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @simdk, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8, !9}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!6 = !{i32 3, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"ushort", !"air.arg_name", !"lane"}
!7 = !{i32 4, !"air.simdgroup_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"sg"}
!8 = !{i32 5, !"air.threads_per_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"w"}
!9 = !{i32 6, !"air.simdgroups_per_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"nsg"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

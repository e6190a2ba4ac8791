; SIMD-group and quad-group shuffles and broadcasts (MSL §6.9) of scalars
; and vectors of every width: each thread stores what it read.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.simd_shuffle_down.f32(float, i16)
declare i32 @air.simd_shuffle_down.u.i32(i32, i16)
declare i16 @air.simd_shuffle_down.s.i16(i16, i16)
declare i8 @air.simd_shuffle_down.u.i8(i8, i16)
declare half @air.simd_shuffle_down.f16(half, i16)
declare <2 x i32> @air.simd_shuffle_down.u.v2i32(<2 x i32>, i16)
declare <4 x float> @air.simd_shuffle_up.v4f32(<4 x float>, i16)
declare float @air.simd_shuffle_xor.f32(float, i16)
declare i32 @air.simd_shuffle.u.i32(i32, i16)
declare i32 @air.simd_broadcast.u.i32(i32, i16)
declare float @air.simd_broadcast_first.f32(float)
declare i32 @air.simd_shuffle_rotate_down.u.i32(i32, i16)
declare i32 @air.simd_shuffle_rotate_up.u.i32(i32, i16)
declare i32 @air.quad_shuffle.u.i32(i32, i16)
declare i32 @air.quad_shuffle_xor.u.i32(i32, i16)
declare i32 @air.quad_shuffle_down.u.i32(i32, i16)
declare i32 @air.quad_shuffle_up.u.i32(i32, i16)
declare i32 @air.quad_shuffle_rotate_down.u.i32(i32, i16)
declare i32 @air.quad_broadcast.u.i32(i32, i16)

define void @shuffles(ptr addrspace(1) %out, i32 %gid, i32 %lane) {
  %i = zext i32 %gid to i64
  %base = mul i64 %i, 20
  %f = uitofp i32 %lane to float
  %l16 = trunc i32 %lane to i16
  %l8 = trunc i32 %lane to i8
  %h = fptrunc float %f to half
  %v2a = insertelement <2 x i32> undef, i32 %lane, i32 0
  %v2 = insertelement <2 x i32> %v2a, i32 %gid, i32 1
  %v4 = insertelement <4 x float> zeroinitializer, float %f, i32 2

  %r0 = call float @air.simd_shuffle_down.f32(float %f, i16 1)
  %r1 = call i32 @air.simd_shuffle_down.u.i32(i32 %lane, i16 2)
  %r2 = call i16 @air.simd_shuffle_down.s.i16(i16 %l16, i16 4)
  %r3 = call i8 @air.simd_shuffle_down.u.i8(i8 %l8, i16 8)
  %r4 = call half @air.simd_shuffle_down.f16(half %h, i16 16)
  %r5 = call <2 x i32> @air.simd_shuffle_down.u.v2i32(<2 x i32> %v2, i16 1)
  %r6 = call <4 x float> @air.simd_shuffle_up.v4f32(<4 x float> %v4, i16 3)
  %r7 = call float @air.simd_shuffle_xor.f32(float %f, i16 5)
  %r8 = call i32 @air.simd_shuffle.u.i32(i32 %lane, i16 %l16)
  %r9 = call i32 @air.simd_broadcast.u.i32(i32 %lane, i16 3)
  %r10 = call float @air.simd_broadcast_first.f32(float %f)
  %r11 = call i32 @air.simd_shuffle_rotate_down.u.i32(i32 %lane, i16 1)
  %r12 = call i32 @air.simd_shuffle_rotate_up.u.i32(i32 %lane, i16 1)
  %r13 = call i32 @air.quad_shuffle.u.i32(i32 %lane, i16 3)
  %r14 = call i32 @air.quad_shuffle_xor.u.i32(i32 %lane, i16 1)
  %r15 = call i32 @air.quad_shuffle_down.u.i32(i32 %lane, i16 1)
  %r16 = call i32 @air.quad_shuffle_up.u.i32(i32 %lane, i16 2)
  %r17 = call i32 @air.quad_shuffle_rotate_down.u.i32(i32 %lane, i16 1)
  %r18 = call i32 @air.quad_broadcast.u.i32(i32 %lane, i16 0)
  %r19 = call i32 @air.simd_broadcast.u.i32(i32 %lane, i16 %l16)

  %c0 = bitcast float %r0 to i32
  %c2 = zext i16 %r2 to i32
  %c3 = zext i8 %r3 to i32
  %c4h = fpext half %r4 to float
  %c4 = bitcast float %c4h to i32
  %c5a = extractelement <2 x i32> %r5, i32 0
  %c5b = extractelement <2 x i32> %r5, i32 1
  %c5 = add i32 %c5a, %c5b
  %c6f = extractelement <4 x float> %r6, i32 2
  %c6 = bitcast float %c6f to i32
  %c7 = bitcast float %r7 to i32
  %c10 = bitcast float %r10 to i32

  %p0 = getelementptr i32, ptr addrspace(1) %out, i64 %base
  store i32 %c0, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %p0, i64 1
  store i32 %r1, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr i32, ptr addrspace(1) %p0, i64 2
  store i32 %c2, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr i32, ptr addrspace(1) %p0, i64 3
  store i32 %c3, ptr addrspace(1) %p3, align 4
  %p4 = getelementptr i32, ptr addrspace(1) %p0, i64 4
  store i32 %c4, ptr addrspace(1) %p4, align 4
  %p5 = getelementptr i32, ptr addrspace(1) %p0, i64 5
  store i32 %c5, ptr addrspace(1) %p5, align 4
  %p6 = getelementptr i32, ptr addrspace(1) %p0, i64 6
  store i32 %c6, ptr addrspace(1) %p6, align 4
  %p7 = getelementptr i32, ptr addrspace(1) %p0, i64 7
  store i32 %c7, ptr addrspace(1) %p7, align 4
  %p8 = getelementptr i32, ptr addrspace(1) %p0, i64 8
  store i32 %r8, ptr addrspace(1) %p8, align 4
  %p9 = getelementptr i32, ptr addrspace(1) %p0, i64 9
  store i32 %r9, ptr addrspace(1) %p9, align 4
  %p10 = getelementptr i32, ptr addrspace(1) %p0, i64 10
  store i32 %c10, ptr addrspace(1) %p10, align 4
  %p11 = getelementptr i32, ptr addrspace(1) %p0, i64 11
  store i32 %r11, ptr addrspace(1) %p11, align 4
  %p12 = getelementptr i32, ptr addrspace(1) %p0, i64 12
  store i32 %r12, ptr addrspace(1) %p12, align 4
  %p13 = getelementptr i32, ptr addrspace(1) %p0, i64 13
  store i32 %r13, ptr addrspace(1) %p13, align 4
  %p14 = getelementptr i32, ptr addrspace(1) %p0, i64 14
  store i32 %r14, ptr addrspace(1) %p14, align 4
  %p15 = getelementptr i32, ptr addrspace(1) %p0, i64 15
  store i32 %r15, ptr addrspace(1) %p15, align 4
  %p16 = getelementptr i32, ptr addrspace(1) %p0, i64 16
  store i32 %r16, ptr addrspace(1) %p16, align 4
  %p17 = getelementptr i32, ptr addrspace(1) %p0, i64 17
  store i32 %r17, ptr addrspace(1) %p17, align 4
  %p18 = getelementptr i32, ptr addrspace(1) %p0, i64 18
  store i32 %r18, ptr addrspace(1) %p18, align 4
  %p19 = getelementptr i32, ptr addrspace(1) %p0, i64 19
  store i32 %r19, ptr addrspace(1) %p19, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @shuffles, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!5 = !{i32 2, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lane"}

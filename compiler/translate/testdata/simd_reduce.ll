; SIMD-group reductions and prefix scans (MSL §6.9) over floats, signed and
; unsigned integers and bools, and the quad-group reductions.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.simd_sum.f32(float)
declare i16 @air.simd_sum.u.i16(i16)
declare i32 @air.simd_product.s.i32(i32)
declare float @air.simd_max.f32(float)
declare half @air.simd_min.f16(half)
declare i32 @air.simd_max.s.i32(i32)
declare i32 @air.simd_min.u.i32(i32)
declare i32 @air.simd_and.u.i32(i32)
declare i32 @air.simd_or.u.i32(i32)
declare i32 @air.simd_xor.u.i32(i32)
declare i1 @air.simd_and.i1(i1)
declare <2 x float> @air.simd_sum.v2f32(<2 x float>)
declare i32 @air.simd_prefix_inclusive_sum.u.i32(i32)
declare i32 @air.simd_prefix_exclusive_sum.u.i32(i32)
declare float @air.simd_prefix_inclusive_product.f32(float)
declare float @air.simd_prefix_exclusive_product.f32(float)
declare i32 @air.quad_sum.u.i32(i32)
declare float @air.quad_max.f32(float)

define void @reductions(ptr addrspace(1) %out, i32 %gid, i32 %lane) {
  %i = zext i32 %gid to i64
  %base = mul i64 %i, 18
  %f = uitofp i32 %lane to float
  %l16 = trunc i32 %lane to i16
  %h = fptrunc float %f to half
  %odd = trunc i32 %lane to i1
  %v2 = insertelement <2 x float> <float 1.0, float 1.0>, float %f, i32 0
  %lp1 = add i32 %lane, 1

  %r0 = call float @air.simd_sum.f32(float %f)
  %r1 = call i16 @air.simd_sum.u.i16(i16 %l16)
  %r2 = call i32 @air.simd_product.s.i32(i32 %lp1)
  %r3 = call float @air.simd_max.f32(float %f)
  %r4 = call half @air.simd_min.f16(half %h)
  %r5 = call i32 @air.simd_max.s.i32(i32 %lane)
  %r6 = call i32 @air.simd_min.u.i32(i32 %lane)
  %r7 = call i32 @air.simd_and.u.i32(i32 %lane)
  %r8 = call i32 @air.simd_or.u.i32(i32 %lane)
  %r9 = call i32 @air.simd_xor.u.i32(i32 %lane)
  %r10 = call i1 @air.simd_and.i1(i1 %odd)
  %r11 = call <2 x float> @air.simd_sum.v2f32(<2 x float> %v2)
  %r12 = call i32 @air.simd_prefix_inclusive_sum.u.i32(i32 %lane)
  %r13 = call i32 @air.simd_prefix_exclusive_sum.u.i32(i32 %lane)
  %r14 = call float @air.simd_prefix_inclusive_product.f32(float 2.0)
  %r15 = call float @air.simd_prefix_exclusive_product.f32(float 2.0)
  %r16 = call i32 @air.quad_sum.u.i32(i32 %lane)
  %r17 = call float @air.quad_max.f32(float %f)

  %c0 = fptoui float %r0 to i32
  %c1 = zext i16 %r1 to i32
  %c3 = fptoui float %r3 to i32
  %c4 = fptoui half %r4 to i32
  %c10 = zext i1 %r10 to i32
  %c11f = extractelement <2 x float> %r11, i32 1
  %c11 = fptoui float %c11f to i32
  %c14 = fptoui float %r14 to i32
  %c15 = fptoui float %r15 to i32
  %c17 = fptoui float %r17 to i32

  %p0 = getelementptr i32, ptr addrspace(1) %out, i64 %base
  store i32 %c0, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %p0, i64 1
  store i32 %c1, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr i32, ptr addrspace(1) %p0, i64 2
  store i32 %r2, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr i32, ptr addrspace(1) %p0, i64 3
  store i32 %c3, ptr addrspace(1) %p3, align 4
  %p4 = getelementptr i32, ptr addrspace(1) %p0, i64 4
  store i32 %c4, ptr addrspace(1) %p4, align 4
  %p5 = getelementptr i32, ptr addrspace(1) %p0, i64 5
  store i32 %r5, ptr addrspace(1) %p5, align 4
  %p6 = getelementptr i32, ptr addrspace(1) %p0, i64 6
  store i32 %r6, ptr addrspace(1) %p6, align 4
  %p7 = getelementptr i32, ptr addrspace(1) %p0, i64 7
  store i32 %r7, ptr addrspace(1) %p7, align 4
  %p8 = getelementptr i32, ptr addrspace(1) %p0, i64 8
  store i32 %r8, ptr addrspace(1) %p8, align 4
  %p9 = getelementptr i32, ptr addrspace(1) %p0, i64 9
  store i32 %r9, ptr addrspace(1) %p9, align 4
  %p10 = getelementptr i32, ptr addrspace(1) %p0, i64 10
  store i32 %c10, ptr addrspace(1) %p10, align 4
  %p11 = getelementptr i32, ptr addrspace(1) %p0, i64 11
  store i32 %c11, ptr addrspace(1) %p11, align 4
  %p12 = getelementptr i32, ptr addrspace(1) %p0, i64 12
  store i32 %r12, ptr addrspace(1) %p12, align 4
  %p13 = getelementptr i32, ptr addrspace(1) %p0, i64 13
  store i32 %r13, ptr addrspace(1) %p13, align 4
  %p14 = getelementptr i32, ptr addrspace(1) %p0, i64 14
  store i32 %c14, ptr addrspace(1) %p14, align 4
  %p15 = getelementptr i32, ptr addrspace(1) %p0, i64 15
  store i32 %c15, ptr addrspace(1) %p15, align 4
  %p16 = getelementptr i32, ptr addrspace(1) %p0, i64 16
  store i32 %r16, ptr addrspace(1) %p16, align 4
  %p17 = getelementptr i32, ptr addrspace(1) %p0, i64 17
  store i32 %c17, ptr addrspace(1) %p17, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @reductions, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!5 = !{i32 2, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lane"}

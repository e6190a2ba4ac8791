; SIMD-group functions the translator must refuse by name: forms Metal has
; that SPIR-V cannot express directly (a clustered scan, fill shuffles),
; names Metal does not define (an integer max without signedness, a prefix
; max), a signature unlike Metal's and a barrier with an imageblock flag.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i32 @air.quad_prefix_exclusive_sum.u.i32(i32)
declare i32 @air.simd_max.i32(i32)
declare float @air.simd_prefix_inclusive_max.f32(float)
declare float @air.simd_shuffle_and_fill_down.f32(float, float, i16)
declare float @air.simd_sum.f32(float, float)
declare void @air.simdgroup.barrier(i32, i32)

define void @refused(ptr addrspace(1) %out, i32 %lane) {
  %f = uitofp i32 %lane to float
  %a = call i32 @air.quad_prefix_exclusive_sum.u.i32(i32 %lane)
  %b = call i32 @air.simd_max.i32(i32 %lane)
  %c = call float @air.simd_prefix_inclusive_max.f32(float %f)
  %d = call float @air.simd_shuffle_and_fill_down.f32(float %f, float 0.0, i16 1)
  %e = call float @air.simd_sum.f32(float %f, float %f)
  call void @air.simdgroup.barrier(i32 8, i32 1)
  %s = add i32 %a, %b
  %g = fadd float %c, %d
  %h = fadd float %g, %e
  %hi = fptoui float %h to i32
  %r = add i32 %s, %hi
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @refused, !1, !2}
!1 = !{}
!2 = !{!3, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!5 = !{i32 1, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lane"}

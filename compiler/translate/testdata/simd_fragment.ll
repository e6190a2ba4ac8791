; SIMD-group functions in a fragment function (Metal allows them in every
; stage): a shuffle that reads the lane built-in, a sum, is_uniform and a
; SIMD-group barrier.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.simd_shuffle_down.f32(float, i16)
declare float @air.simd_sum.f32(float)
declare i1 @air.is_uniform.i1(i1)
declare void @air.simdgroup.barrier(i32, i32)
declare void @llvm.assume(i1)

define <4 x float> @frag(<4 x float> %pos) {
  %x = extractelement <4 x float> %pos, i32 0
  %pos0 = fcmp ogt float %x, 0.0
  %u = call i1 @air.is_uniform.i1(i1 %pos0)
  call void @llvm.assume(i1 %u)
  call void @air.simdgroup.barrier(i32 0, i32 1)
  %d = call float @air.simd_shuffle_down.f32(float %x, i16 1)
  %s = call float @air.simd_sum.f32(float %x)
  %c0 = insertelement <4 x float> <float 0.0, float 0.0, float 0.0, float 1.0>, float %d, i32 0
  %c1 = insertelement <4 x float> %c0, float %s, i32 1
  ret <4 x float> %c1
}

!air.fragment = !{!0}
!0 = !{ptr @frag, !1, !3}
!1 = !{!2}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!4}
!4 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"position"}

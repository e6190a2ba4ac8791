; cpuref texture fixture: a fragment function sampling a float 2D texture (index 0), an int 2D
; texture (index 1) and a depth 2D texture (index 2) through sampler 0, at the pixel's position.
; Render target 0 (float4) = the float texel swizzled .zyxw; render target 1 (int4) = the int
; texel; render target 2 (float2) = (depth, float.w + depth).
source_filename = "texture_fragment"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i1, <2 x i32>, i1, float)
declare { <4 x i32>, i8 } @air.sample_texture_2d.s.v4i32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i1, <2 x i32>, i1, float, float, i32)
declare float @air.sample_depth_2d.f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, i32, <2 x float>, i1, <2 x i32>, i1, float)

define <{ <4 x float>, <4 x i32>, <2 x float> }> @frag(<4 x float> %pos, ptr addrspace(1) %ftex, ptr addrspace(1) %itex, ptr addrspace(1) %dtex, ptr addrspace(2) %smp) {
entry:
  %xy = shufflevector <4 x float> %pos, <4 x float> poison, <2 x i32> <i32 0, i32 1>
  %uv = fmul fast <2 x float> %xy, <float 2.500000e-01, float 2.500000e-01>
  %f = call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %ftex, ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %fz = shufflevector <4 x float> %f, <4 x float> poison, <4 x i32> <i32 2, i32 1, i32 0, i32 3>
  %is = call { <4 x i32>, i8 } @air.sample_texture_2d.s.v4i32(ptr addrspace(1) %itex, ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 true, float 0.000000e+00, float 0.000000e+00, i32 0)
  %i = extractvalue { <4 x i32>, i8 } %is, 0
  %d = call float @air.sample_depth_2d.f32(ptr addrspace(1) %dtex, ptr addrspace(2) %smp, i32 1, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %fw = extractelement <4 x float> %f, i32 3
  %s = fadd float %fw, %d
  %d0 = insertelement <2 x float> poison, float %d, i32 0
  %d1 = insertelement <2 x float> %d0, float %s, i32 1
  %r0 = insertvalue <{ <4 x float>, <4 x i32>, <2 x float> }> undef, <4 x float> %fz, 0
  %r1 = insertvalue <{ <4 x float>, <4 x i32>, <2 x float> }> %r0, <4 x i32> %i, 1
  %r2 = insertvalue <{ <4 x float>, <4 x i32>, <2 x float> }> %r1, <2 x float> %d1, 2
  ret <{ <4 x float>, <4 x i32>, <2 x float> }> %r2
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !5}
!1 = !{!2, !3, !4}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"int4"}
!4 = !{!"air.render_target", i32 2, i32 0, !"air.arg_type_name", !"float2"}
!5 = !{!6, !7, !8, !9, !10}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"ftex"}
!8 = !{i32 2, !"air.texture", !"air.location_index", i32 1, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<int, sample>", !"air.arg_name", !"itex"}
!9 = !{i32 3, !"air.texture", !"air.location_index", i32 2, i32 1, !"air.sample", !"air.arg_type_name", !"depth2d<float, sample>", !"air.arg_name", !"dtex"}
!10 = !{i32 4, !"air.sampler", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

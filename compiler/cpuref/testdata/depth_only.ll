; cpuref depth-only fixture: the function returns just air.depth (a float, no struct), sampled
; from the uniform depth texture 5 at a varying's coordinates with the varying's w as LOD, and
; writes no render target.
source_filename = "depth_only"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.sample_depth_2d.f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, i32, <2 x float>, i1, <2 x i32>, i1, float)

define float @depth(<4 x float> %pos, <4 x float> %uv, i32 %layer, ptr addrspace(1) %tex, ptr addrspace(2) %smp) {
entry:
  %st = shufflevector <4 x float> %uv, <4 x float> undef, <2 x i32> <i32 0, i32 1>
  %lod = extractelement <4 x float> %uv, i32 3
  %d = call float @air.sample_depth_2d.f32(ptr addrspace(1) %tex, ptr addrspace(2) %smp, i32 1, <2 x float> %st, i1 true, <2 x i32> zeroinitializer, i1 true, float %lod)
  ret float %d
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @depth, !1, !3}
!1 = !{!2}
!2 = !{!"air.depth", !"air.depth_qualifier", !"air.any", !"air.arg_type_name", !"float", !"air.arg_name", !"depth"}
!3 = !{!4, !5, !6, !7, !8}
!4 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!5 = !{i32 1, !"air.fragment_input", !"generated(2uvDv4_f)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"uv"}
!6 = !{i32 2, !"air.render_target_array_index", !"air.arg_type_name", !"uint", !"air.arg_name", !"layer"}
!7 = !{i32 3, !"air.texture", !"air.location_index", i32 5, i32 1, !"air.sample", !"air.arg_type_name", !"depth2d<float, sample>", !"air.arg_name", !"tex"}
!8 = !{i32 4, !"air.sampler", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; texture_object.ll with the texture objects of the first call planted swapped, as a translation that
; bound an object field to the wrong texture would compute (the emulator must report a mismatch).
source_filename = "texture_object"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%"struct.metal::texture2d" = type { ptr addrspace(1) }
%"struct.metal::sampler" = type { ptr addrspace(2) }

declare <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i1, <2 x i32>, i1, float)

define internal <4 x float> @shade(%"struct.metal::texture2d" %t, %"struct.metal::texture2d" %u, %"struct.metal::sampler" %s, <2 x float> %uv) noinline {
entry:
  %th = extractvalue %"struct.metal::texture2d" %t, 0
  %uh = extractvalue %"struct.metal::texture2d" %u, 0
  %sh = extractvalue %"struct.metal::sampler" %s, 0
  %ft = call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %th, ptr addrspace(2) %sh, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %fu = call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %uh, ptr addrspace(2) %sh, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %fu2 = fmul <4 x float> %fu, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %r = fadd <4 x float> %ft, %fu2
  ret <4 x float> %r
}

define <{ <4 x float>, <4 x float> }> @frag(<4 x float> %pos, ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(2) %smp) {
entry:
  %xy = shufflevector <4 x float> %pos, <4 x float> poison, <2 x i32> <i32 0, i32 1>
  %uv = fmul <2 x float> %xy, <float 2.500000e-01, float 2.500000e-01>
  %oa = insertvalue %"struct.metal::texture2d" poison, ptr addrspace(1) %a, 0
  %ob = insertvalue %"struct.metal::texture2d" undef, ptr addrspace(1) %b, 0
  %os = insertvalue %"struct.metal::sampler" poison, ptr addrspace(2) %smp, 0
  %f0 = call <4 x float> @shade(%"struct.metal::texture2d" %ob, %"struct.metal::texture2d" %oa, %"struct.metal::sampler" %os, <2 x float> %uv)
  %f1 = call <4 x float> @shade(%"struct.metal::texture2d" %ob, %"struct.metal::texture2d" %oa, %"struct.metal::sampler" %os, <2 x float> %uv)
  %r0 = insertvalue <{ <4 x float>, <4 x float> }> undef, <4 x float> %f0, 0
  %r1 = insertvalue <{ <4 x float>, <4 x float> }> %r0, <4 x float> %f1, 1
  ret <{ <4 x float>, <4 x float> }> %r1
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !5}
!1 = !{!2, !3}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"float4"}
!5 = !{!6, !7, !8, !9}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"a"}
!8 = !{i32 2, !"air.texture", !"air.location_index", i32 3, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"b"}
!9 = !{i32 3, !"air.sampler", !"air.location_index", i32 1, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; emulator fixture: texture.ll with the 2D texture sampled through constexpr samplers the
; shader declares itself: the global @__air_sampler_state holding the state word of
; constexpr sampler(mag_filter::linear, min_filter::linear, mip_filter::linear), and the
; 2D array through the inttoptr word of constexpr sampler(mag_filter::nearest, min_filter::nearest)
; (compiler/cpuref/sampler.go: SamplerEvidence); sampler argument 1 is kept for a third sample.
source_filename = "constexpr_sampler"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i1, <2 x i32>, i1, float)
declare { <4 x float>, i8 } @air.sample_texture_2d_array.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i32, i1, <2 x i32>, i1, float, float, i32)

@__air_sampler_state = internal addrspace(2) constant i64 -9188470239253738935, align 8

define <{ <4 x float>, <4 x float> }> @frag(<4 x float> %pos, ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(2) %smp) {
entry:
  %xy = shufflevector <4 x float> %pos, <4 x float> poison, <2 x i32> <i32 0, i32 1>
  %uv = fmul <2 x float> %xy, <float 2.500000e-01, float 2.500000e-01>
  %fa = call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %a, ptr addrspace(2) @__air_sampler_state, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %fbs = call { <4 x float>, i8 } @air.sample_texture_2d_array.v4f32(ptr addrspace(1) %b, ptr addrspace(2) inttoptr (i64 -9188470239253757879 to ptr addrspace(2)), <2 x float> %uv, i32 0, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00, float 0.000000e+00, i32 0)
  %fb = extractvalue { <4 x float>, i8 } %fbs, 0
  %fc = call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %a, ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %fab = fadd <4 x float> %fa, %fb
  %sum = fadd <4 x float> %fab, %fc
  %r0 = insertvalue <{ <4 x float>, <4 x float> }> undef, <4 x float> %fa, 0
  %r1 = insertvalue <{ <4 x float>, <4 x float> }> %r0, <4 x float> %sum, 1
  ret <{ <4 x float>, <4 x float> }> %r1
}

!air.fragment = !{!0}
!air.sampler_states = !{!92}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !5}
!1 = !{!2, !3}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"float4"}
!5 = !{!6, !7, !8, !9}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"a"}
!8 = !{i32 2, !"air.texture", !"air.location_index", i32 3, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d_array<float, sample>", !"air.arg_name", !"b"}
!9 = !{i32 3, !"air.sampler", !"air.location_index", i32 1, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!92 = !{!"air.sampler_state", ptr addrspace(2) @__air_sampler_state}

; A fragment shader: position and two varyings in, a texture sampled through
; an API sampler and a constexpr sampler, a discard, one colour out.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.Params = type { <4 x float>, float }

@__air_sampler_state = internal addrspace(2) constant i64 1234, align 8

define <4 x float> @shade(<4 x float> %pos, <4 x float> %color, <2 x float> %uv, ptr addrspace(1) %tex, ptr addrspace(2) %smp, ptr addrspace(2) %params) {
  %pt = getelementptr %struct.Params, ptr addrspace(2) %params, i64 0, i32 1
  %threshold = load float, ptr addrspace(2) %pt, align 16
  %a = tail call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %b = tail call { <4 x float>, i8 } @air.sample_texture_2d.v4f32.sparse(ptr addrspace(1) %tex, ptr addrspace(2) @__air_sampler_state, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 true, float 1.000000e+00, float 0.000000e+00, i32 0)
  %bv = extractvalue { <4 x float>, i8 } %b, 0
  %mixed = tail call fast <4 x float> @air.mix.v4f32(<4 x float> %a, <4 x float> %bv, <4 x float> %color)
  %dx = tail call <2 x float> @air.dfdx.v2f32(<2 x float> %uv)
  %l = extractelement <2 x float> %dx, i32 0
  %alpha = extractelement <4 x float> %mixed, i32 3
  %low = fcmp olt float %alpha, %threshold
  br i1 %low, label %kill, label %keep

kill:
  tail call void @air.discard_fragment()
  br label %keep

keep:
  %tint = getelementptr %struct.Params, ptr addrspace(2) %params, i64 0, i32 0
  %t = load <4 x float>, ptr addrspace(2) %tint, align 16
  %o = fmul fast <4 x float> %mixed, %t
  %o2 = insertelement <4 x float> %o, float %l, i32 2
  ret <4 x float> %o2
}

declare <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float)
declare { <4 x float>, i8 } @air.sample_texture_2d.v4f32.sparse(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float, float, i32)
declare <4 x float> @air.mix.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare <2 x float> @air.dfdx.v2f32(<2 x float>)
declare void @air.discard_fragment()

!air.fragment = !{!0}
!air.sampler_states = !{!20}
!0 = !{ptr @shade, !1, !3}
!1 = !{!2}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!4, !5, !6, !7, !8, !9}
!4 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"position"}
!5 = !{i32 1, !"air.fragment_input", !"generated(5color)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"color"}
!6 = !{i32 2, !"air.fragment_input", !"generated(2uv)", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float2", !"air.arg_name", !"uv"}
!7 = !{i32 3, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"tex"}
!8 = !{i32 4, !"air.sampler", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
!9 = !{i32 5, !"air.buffer", !"air.buffer_size", i32 32, !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_size", i32 32, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"Params", !"air.arg_name", !"params"}
!20 = !{!"air.sampler_state", ptr addrspace(2) @__air_sampler_state}

; A vertex function whose outputs go through approximate operations: position = (cos(a.x),
; sqrt(|a.y|), a.z, 1) and out 1 (float) = exp2(a.x) * 0.5 + vid. The reference takes the
; device's results of the approximate calls, vertex by vertex (stages/approxtrace).
source_filename = "vertex_approx"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.V = type { <4 x float>, float }

declare float @air.fast_cos.f32(float)
declare float @air.fast_sqrt.f32(float)
declare float @air.fast_exp2.f32(float)
declare float @air.fast_fabs.f32(float)

define %struct.V @vert(i32 %vid, <4 x float> %a) {
entry:
  %x = extractelement <4 x float> %a, i32 0
  %y = extractelement <4 x float> %a, i32 1
  %z = extractelement <4 x float> %a, i32 2
  %c = call float @air.fast_cos.f32(float %x)
  %ay = call float @air.fast_fabs.f32(float %y)
  %s = call float @air.fast_sqrt.f32(float %ay)
  %p0 = insertelement <4 x float> <float 0.0, float 0.0, float 0.0, float 1.0>, float %c, i32 0
  %p1 = insertelement <4 x float> %p0, float %s, i32 1
  %p2 = insertelement <4 x float> %p1, float %z, i32 2
  %e = call float @air.fast_exp2.f32(float %x)
  %eh = fmul float %e, 0.5
  %vf = uitofp i32 %vid to float
  %o = fadd float %eh, %vf
  %r0 = insertvalue %struct.V undef, <4 x float> %p2, 0
  %r1 = insertvalue %struct.V %r0, float %o, 1
  ret %struct.V %r1
}

!air.vertex = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @vert, !1, !4}
!1 = !{!2, !3}
!2 = !{!"air.position", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!3 = !{!"air.vertex_output", !"generated(1o)", !"air.arg_type_name", !"float", !"air.arg_name", !"o"}
!4 = !{!5, !6}
!5 = !{i32 0, !"air.vertex_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"vid"}
!6 = !{i32 1, !"air.vertex_input", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"float4", !"air.arg_name", !"a"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

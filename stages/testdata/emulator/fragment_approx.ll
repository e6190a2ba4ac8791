; A fragment function whose colour goes through approximate operations:
; render target 0 (float4) = (pow(x, 2.25), sqrt(y) * 3, sin(x + y), 1) of the pixel position, and a
; half exp of the flat input in render target 1 (half4). The reference takes the device's results
; of the approximate calls, pixel by pixel (stages/approxtrace).
source_filename = "fragment_approx"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.fast_pow.f32(float, float)
declare float @air.fast_sqrt.f32(float)
declare float @air.fast_sin.f32(float)
declare half @air.fast_exp.f16(half)

define <{ <4 x float>, <4 x half> }> @frag(<4 x float> %pos, half %h) {
entry:
  %x = extractelement <4 x float> %pos, i32 0
  %y = extractelement <4 x float> %pos, i32 1
  %p = call float @air.fast_pow.f32(float %x, float 2.25)
  %s = call float @air.fast_sqrt.f32(float %y)
  %s3 = fmul float %s, 3.0
  %xy = fadd float %x, %y
  %n = call float @air.fast_sin.f32(float %xy)
  %c0 = insertelement <4 x float> <float 0.0, float 0.0, float 0.0, float 1.0>, float %p, i32 0
  %c1 = insertelement <4 x float> %c0, float %s3, i32 1
  %c2 = insertelement <4 x float> %c1, float %n, i32 2
  %hx = fptrunc float %x to half
  %ha = fadd half %h, %hx
  %e = call half @air.fast_exp.f16(half %ha)
  %d0 = insertelement <4 x half> <half 0xH0000, half 0xH0000, half 0xH0000, half 0xH3C00>, half %e, i32 0
  %r0 = insertvalue <{ <4 x float>, <4 x half> }> undef, <4 x float> %c2, 0
  %r1 = insertvalue <{ <4 x float>, <4 x half> }> %r0, <4 x half> %d0, 1
  ret <{ <4 x float>, <4 x half> }> %r1
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !4}
!1 = !{!2, !3}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"half4"}
!4 = !{!5, !6}
!5 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!6 = !{i32 1, !"air.fragment_input", !"generated(1h)", !"air.flat", !"air.arg_type_name", !"half", !"air.arg_name", !"h"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

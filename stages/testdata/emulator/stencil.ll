; emulator stencil fixture: render target 0 (float4) = (pos.x / 4, pos.y / 4, 0.5, 1) and
; air.stencil (uint) = 16·x + 3·y + 7 of pixel (x, y), different on every one of the 4×4
; pixels and at most 64 (an 8-bit stencil attachment holds it).
source_filename = "stencil_fragment"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i32 @air.convert.u.i32.f.f32(float)

define <{ <4 x float>, i32 }> @frag(<4 x float> %pos) {
entry:
  %x = extractelement <4 x float> %pos, i32 0
  %y = extractelement <4 x float> %pos, i32 1
  %x4 = fmul float %x, 2.500000e-01
  %y4 = fmul float %y, 2.500000e-01
  %c0 = insertelement <4 x float> <float 0.0, float 0.0, float 5.000000e-01, float 1.000000e+00>, float %x4, i32 0
  %c1 = insertelement <4 x float> %c0, float %y4, i32 1
  %ux = call i32 @air.convert.u.i32.f.f32(float %x)
  %uy = call i32 @air.convert.u.i32.f.f32(float %y)
  %sx = mul i32 %ux, 16
  %sy = mul i32 %uy, 3
  %sxy = add i32 %sx, %sy
  %s = add i32 %sxy, 7
  %r0 = insertvalue <{ <4 x float>, i32 }> undef, <4 x float> %c1, 0
  %r1 = insertvalue <{ <4 x float>, i32 }> %r0, i32 %s, 1
  ret <{ <4 x float>, i32 }> %r1
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !5}
!1 = !{!3, !4}
!3 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!4 = !{!"air.stencil", !"air.arg_type_name", !"uint", !"air.arg_name", !"stencil"}
!5 = !{!6}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; depth.ll with its depth planted wrong: (pos.x + pos.x) / 8, as a lowering that read the
; wrong component would (the emulator must report a mismatch at a depth pixel).
source_filename = "depth_fragment"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <{ float, <4 x float>, float }> @frag(<4 x float> %pos) {
entry:
  %x = extractelement <4 x float> %pos, i32 0
  %y = extractelement <4 x float> %pos, i32 1
  %x8 = fmul float %x, 1.250000e-01
  %x4 = fmul float %x, 2.500000e-01
  %y4 = fmul float %y, 2.500000e-01
  %c0 = insertelement <4 x float> <float 0.0, float 0.0, float 5.000000e-01, float 1.000000e+00>, float %x4, i32 0
  %c1 = insertelement <4 x float> %c0, float %y4, i32 1
  %xy = fadd float %x, %x
  %d = fmul float %xy, 1.250000e-01
  %r0 = insertvalue <{ float, <4 x float>, float }> undef, float %x8, 0
  %r1 = insertvalue <{ float, <4 x float>, float }> %r0, <4 x float> %c1, 1
  %r2 = insertvalue <{ float, <4 x float>, float }> %r1, float %d, 2
  ret <{ float, <4 x float>, float }> %r2
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !5}
!1 = !{!2, !3, !4}
!2 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"float"}
!3 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!4 = !{!"air.depth", !"air.depth_qualifier", !"air.any", !"air.arg_type_name", !"float", !"air.arg_name", !"depth"}
!5 = !{!6}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; cpuref order-only fixture: a fragment function calling air.dot.v3f32 and air.mix.v4f32.
; Render target 0 (float4) = mix(pos, (4.5, 8.5, 2.5, 5), w) with w a flat float input splat;
; render target 1 (float) = dot(pos.xyz, (2, 4, 8)). Every product and sum is exact on the 4x4
; pixel centres, so the expected words do not depend on the order of operations.
source_filename = "orderonly_fragment"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.dot.v3f32(<3 x float>, <3 x float>)
declare <4 x float> @air.mix.v4f32(<4 x float>, <4 x float>, <4 x float>)

define <{ <4 x float>, float }> @frag(<4 x float> %pos, float %w) {
entry:
  %w0 = insertelement <4 x float> poison, float %w, i32 0
  %ws = shufflevector <4 x float> %w0, <4 x float> poison, <4 x i32> zeroinitializer
  %m = call fast <4 x float> @air.mix.v4f32(<4 x float> %pos, <4 x float> <float 4.500000e+00, float 8.500000e+00, float 2.500000e+00, float 5.000000e+00>, <4 x float> %ws)
  %xyz = shufflevector <4 x float> %pos, <4 x float> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %d = call fast float @air.dot.v3f32(<3 x float> %xyz, <3 x float> <float 2.000000e+00, float 4.000000e+00, float 8.000000e+00>)
  %r0 = insertvalue <{ <4 x float>, float }> undef, <4 x float> %m, 0
  %r1 = insertvalue <{ <4 x float>, float }> %r0, float %d, 1
  ret <{ <4 x float>, float }> %r1
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !4}
!1 = !{!2, !3}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"float"}
!4 = !{!5, !6}
!5 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!6 = !{i32 1, !"air.fragment_input", !"generated(1w)", !"air.flat", !"air.arg_type_name", !"float", !"air.arg_name", !"w"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

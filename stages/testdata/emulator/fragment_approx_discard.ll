; A fragment function that calls an approximate operation and then discards the pixels of odd x:
; render target 0 (float4) = (pow(x, 2.25), y, 0, 1) of the pixel position where x is even. Every
; pixel calls pow before its discard, so the device records it for all 16 pixels (the count of a
; discarding invocation is written before it becomes a helper, whose stores are not performed),
; and the reference takes the device's result for every call (stages/approxtrace).
source_filename = "fragment_approx_discard"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.fast_pow.f32(float, float)
declare void @air.discard_fragment()

define <4 x float> @frag(<4 x float> %pos) {
entry:
  %x = extractelement <4 x float> %pos, i32 0
  %y = extractelement <4 x float> %pos, i32 1
  %p = call float @air.fast_pow.f32(float %x, float 2.25)
  %xi = fptoui float %x to i32
  %odd = and i32 %xi, 1
  %isodd = icmp eq i32 %odd, 1
  br i1 %isodd, label %drop, label %keep
drop:
  call void @air.discard_fragment()
  br label %keep
keep:
  %c0 = insertelement <4 x float> <float 0.0, float 0.0, float 0.0, float 1.0>, float %p, i32 0
  %c1 = insertelement <4 x float> %c0, float %y, i32 1
  ret <4 x float> %c1
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !4}
!1 = !{!2}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!4 = !{!5}
!5 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

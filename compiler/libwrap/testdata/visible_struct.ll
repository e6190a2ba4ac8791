; A stitchable function returning a struct by value and calling a helper of the module:
; struct Polar { float2 dir; float len; } polar(float2 p).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.Polar = type { <2 x float>, float }

define internal fastcc float @len2(<2 x float> %p) unnamed_addr #0 {
  %sq = fmul fast <2 x float> %p, %p
  %x = extractelement <2 x float> %sq, i64 0
  %y = extractelement <2 x float> %sq, i64 1
  %s = fadd fast float %x, %y
  ret float %s
}

define %struct.Polar @polar(<2 x float> noundef %p) local_unnamed_addr #0 {
  %l = tail call fastcc float @len2(<2 x float> %p)
  %a = tail call fast <2 x float> @air.fabs.v2f32(<2 x float> %p)
  %mx = extractelement <2 x float> %a, i64 0
  %my = extractelement <2 x float> %a, i64 1
  %m = tail call fast float @air.fmax.f32(float %mx, float %my)
  %li = insertelement <2 x float> poison, float %m, i64 0
  %ls = shufflevector <2 x float> %li, <2 x float> poison, <2 x i32> zeroinitializer
  %d = fmul fast <2 x float> %p, %ls
  %r0 = insertvalue %struct.Polar undef, <2 x float> %d, 0
  %r1 = insertvalue %struct.Polar %r0, float %l, 1
  ret %struct.Polar %r1
}

declare <2 x float> @air.fabs.v2f32(<2 x float>) local_unnamed_addr #1
declare float @air.fmax.f32(float, float) local_unnamed_addr #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="128" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nofree nosync nounwind willreturn memory(none) }

!air.visible = !{!0}
!0 = !{ptr @polar, !1, !2}
!1 = !{!3}
!2 = !{!4}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"Polar"}
!4 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"float2", !"air.arg_name", !"p"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

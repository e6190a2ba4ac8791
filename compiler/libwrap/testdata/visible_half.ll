; A stitchable half-precision function: half4 premultiply(half4 c, half gain).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <4 x half> @premultiply(<4 x half> noundef %c, half noundef %gain) local_unnamed_addr #0 {
  %a = extractelement <4 x half> %c, i64 3
  %g = fmul fast half %a, %gain
  %gi = insertelement <4 x half> poison, half %g, i64 0
  %gs = shufflevector <4 x half> %gi, <4 x half> poison, <4 x i32> zeroinitializer
  %m = fmul fast <4 x half> %c, %gs
  %r = insertelement <4 x half> %m, half %a, i64 3
  ret <4 x half> %r
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="128" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!air.visible = !{!0}
!0 = !{ptr @premultiply, !1, !2}
!1 = !{!3}
!2 = !{!4, !5}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"half4"}
!4 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"half4", !"air.arg_name", !"c"}
!5 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"half", !"air.arg_name", !"gain"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

; A stitchable function calling an approximate operation (air.fast_pow): it
; translates, and the reference sets it aside (Metal fixes no bits for fast_pow).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define float @gamma(float noundef %x, float noundef %g) local_unnamed_addr #0 {
  %a = tail call fast float @air.fast_fabs.f32(float %x)
  %r = tail call fast float @air.fast_pow.f32(float %a, float %g)
  ret float %r
}

declare float @air.fast_fabs.f32(float) local_unnamed_addr #1
declare float @air.fast_pow.f32(float, float) local_unnamed_addr #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="128" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nofree nosync nounwind willreturn memory(none) }

!air.visible = !{!0}
!0 = !{ptr @gamma, !1, !2}
!1 = !{!3}
!2 = !{!4, !5}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"float"}
!4 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"x"}
!5 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"g"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

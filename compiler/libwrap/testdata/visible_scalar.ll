; A stitchable function of scalars: mix(a, b, t) as [[visible]] float mix3(float, float, float).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define float @mix3(float noundef %a, float noundef %b, float noundef %t) local_unnamed_addr #0 {
  %d = fsub fast float %b, %a
  %m = fmul fast float %d, %t
  %r = fadd fast float %m, %a
  ret float %r
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="128" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!air.visible = !{!0}
!0 = !{ptr @mix3, !1, !2}
!1 = !{!3}
!2 = !{!4, !5, !6}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"float"}
!4 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"a"}
!5 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"b"}
!6 = !{i32 2, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"t"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

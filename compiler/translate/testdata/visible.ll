; A stitchable library function (air.visible): counted apart, not translated.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define float @scale(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}

!air.visible = !{!0}
!0 = !{ptr @scale, !1, !2}
!1 = !{!3}
!2 = !{!4}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"float"}
!4 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"x"}

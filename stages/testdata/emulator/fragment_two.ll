; emulator fixture: a fragment function of two float4 varyings, returning a - b: a translation that
; gave them each other's locations would draw b - a.
source_filename = "two"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <4 x float> @two(<4 x float> %a, <4 x float> %b) {
entry:
  %d = fsub <4 x float> %a, %b
  ret <4 x float> %d
}

!air.fragment = !{!0}
!air.version = !{!5}
!air.language_version = !{!6}
!0 = !{ptr @two, !1, !3}
!1 = !{!2}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!4, !7}
!4 = !{i32 0, !"air.fragment_input", !"generated(1a)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"a"}
!7 = !{i32 1, !"air.fragment_input", !"generated(1b)", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"b"}
!5 = !{i32 2, i32 6, i32 0}
!6 = !{!"Metal", i32 3, i32 0, i32 0}

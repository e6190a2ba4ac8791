; emulator fixture: a fragment function that returns nothing and has no buffer: nothing to compare, never a pass.
source_filename = "silent"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @silent(<4 x float> %color) {
entry:
  ret void
}

!air.fragment = !{!0}
!air.version = !{!5}
!air.language_version = !{!6}
!0 = !{ptr @silent, !1, !3}
!1 = !{}
!3 = !{!4}
!4 = !{i32 0, !"air.fragment_input", !"user(locn0)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"color"}
!5 = !{i32 2, i32 6, i32 0}
!6 = !{!"Metal", i32 3, i32 0, i32 0}

; A fragment function whose colour output has air.render_target index -1:
; no colour attachment index (Apple's libraries whose function is linked
; into a pipeline that assigns it). Refused by name: air.render_target -1.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <4 x float> @frag(<4 x float> %pos) {
  %c = fmul <4 x float> %pos, <float 0.5, float 0.5, float 0.5, float 1.0>
  ret <4 x float> %c
}

!air.fragment = !{!0}
!0 = !{ptr @frag, !1, !2}
!1 = !{!3}
!2 = !{!4}
!3 = !{!"air.render_target", i32 -1, i32 0, !"air.arg_type_name", !"float4", !"air.arg_name", !"color"}
!4 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}

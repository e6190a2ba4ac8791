; A fragment function with programmable blending whose returned struct leaves its
; [[color(2)]] member undef (the struct's insertvalue chain starts from undef and never sets
; member 2), as Rive's pixel-local-storage shaders do for a plane they leave: render target 2
; is undefined, not the destination. With the placeholder line below replaced by one inserting
; %dst2, every member is set and the undef base changes nothing.
source_filename = "undef_target"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <{ <4 x half>, i32, <4 x half> }> @undef_target(<4 x float> %pos, <4 x half> %dst0, i32 %dst1, <4 x half> %dst2) {
entry:
  %half = fmul <4 x half> %dst0, <half 0xH3800, half 0xH3800, half 0xH3800, half 0xH3800>
  %c1 = add i32 %dst1, 3
  %r0 = insertvalue <{ <4 x half>, i32, <4 x half> }> undef, <4 x half> %half, 0
  %r1 = insertvalue <{ <4 x half>, i32, <4 x half> }> %r0, i32 %c1, 1
MEMBER2
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @undef_target, !1, !5}
!1 = !{!2, !3, !4}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"half4", !"air.arg_name", !"out0"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"uint", !"air.arg_name", !"out1"}
!4 = !{!"air.render_target", i32 2, i32 0, !"air.arg_type_name", !"half4", !"air.arg_name", !"out2"}
!5 = !{!6, !7, !8, !9}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.render_target", i32 0, !"air.arg_type_name", !"half4", !"air.arg_name", !"dst0"}
!8 = !{i32 2, !"air.render_target", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"dst1"}
!9 = !{i32 3, !"air.render_target", i32 2, !"air.arg_type_name", !"half4", !"air.arg_name", !"dst2"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

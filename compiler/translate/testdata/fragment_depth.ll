; A fragment shader writing a colour, depth and the sample mask, reading
; front_facing, an integer (flat) varying and a half varying.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <{ <4 x half>, float, i32 }> @depth(<4 x float> %pos, i1 %front, i32 %id, <2 x half> %h) {
  %z = extractelement <4 x float> %pos, i32 2
  %hx = extractelement <2 x half> %h, i32 0
  %hf = fpext half %hx to float
  %c = select i1 %front, float %hf, float 0.0
  %ch = fptrunc float %c to half
  %col = insertelement <4 x half> <half 0xH0000, half 0xH0000, half 0xH0000, half 0xH3C00>, half %ch, i32 0
  %mask = and i32 %id, 15
  %r0 = insertvalue <{ <4 x half>, float, i32 }> undef, <4 x half> %col, 0
  %r1 = insertvalue <{ <4 x half>, float, i32 }> %r0, float %z, 1
  %r2 = insertvalue <{ <4 x half>, float, i32 }> %r1, i32 %mask, 2
  ret <{ <4 x half>, float, i32 }> %r2
}

!air.fragment = !{!0}
!0 = !{ptr @depth, !1, !5}
!1 = !{!2, !3, !4}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"half4"}
!3 = !{!"air.depth", !"air.depth_qualifier", !"air.any", !"air.arg_type_name", !"float"}
!4 = !{!"air.sample_mask", !"air.arg_type_name", !"uint"}
!5 = !{!6, !7, !8, !9}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"position"}
!7 = !{i32 1, !"air.front_facing", !"air.arg_type_name", !"bool", !"air.arg_name", !"front"}
!8 = !{i32 2, !"air.fragment_input", !"generated(2id)", !"air.flat", !"air.arg_type_name", !"uint", !"air.arg_name", !"id"}
!9 = !{i32 3, !"air.fragment_input", !"generated(1h)", !"air.center", !"air.perspective", !"air.arg_type_name", !"half2", !"air.arg_name", !"h"}

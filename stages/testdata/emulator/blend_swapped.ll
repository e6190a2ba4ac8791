; blend.ll with the inputs from colour attachments 0 and 2 swapped (dst0 reads [[color(2)]],
; dst2 [[color(0)]]): a planted fault, whose translation is judged against blend.ll's AIR.
source_filename = "blend"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <{ <4 x half>, i32, <4 x float> }> @blend(<4 x float> %pos, <4 x half> %dst0, i32 %dst1, <4 x float> %dst2, <2 x float> %dst3, <2 x half> %h) {
entry:
  %h0 = extractelement <2 x half> %h, i32 0
  %x = extractelement <4 x float> %pos, i32 0
  %xh = fptrunc float %x to half
  %hv0 = insertelement <4 x half> zeroinitializer, half %h0, i32 0
  %hv = insertelement <4 x half> %hv0, half %xh, i32 1
  %half = fmul <4 x half> %dst0, <half 0xH3800, half 0xH3800, half 0xH3800, half 0xH3800>
  %c0 = fadd <4 x half> %half, %hv
  %x1 = xor i32 %dst1, 4660
  %c1 = add i32 %x1, 3
  %sw = shufflevector <4 x float> %dst2, <4 x float> undef, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %d3 = extractelement <2 x float> %dst3, i32 1
  %c2 = insertelement <4 x float> %sw, float %d3, i32 3
  %r0 = insertvalue <{ <4 x half>, i32, <4 x float> }> undef, <4 x half> %c0, 0
  %r1 = insertvalue <{ <4 x half>, i32, <4 x float> }> %r0, i32 %c1, 1
  %r2 = insertvalue <{ <4 x half>, i32, <4 x float> }> %r1, <4 x float> %c2, 2
  ret <{ <4 x half>, i32, <4 x float> }> %r2
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @blend, !1, !5}
!1 = !{!2, !3, !4}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"half4", !"air.arg_name", !"out0"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"uint", !"air.arg_name", !"out1"}
!4 = !{!"air.render_target", i32 2, i32 0, !"air.arg_type_name", !"float4", !"air.arg_name", !"out2"}
!5 = !{!6, !7, !8, !9, !10, !11}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.render_target", i32 2, !"air.arg_type_name", !"half4", !"air.arg_name", !"dst0"}
!8 = !{i32 2, !"air.render_target", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"dst1"}
!9 = !{i32 3, !"air.render_target", i32 0, !"air.arg_type_name", !"float4", !"air.arg_name", !"dst2"}
!10 = !{i32 4, !"air.render_target", i32 3, !"air.arg_type_name", !"float2", !"air.arg_name", !"dst3"}
!11 = !{i32 5, !"air.fragment_input", !"generated(1h)", !"air.center", !"air.perspective", !"air.arg_type_name", !"half2", !"air.arg_name", !"h"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

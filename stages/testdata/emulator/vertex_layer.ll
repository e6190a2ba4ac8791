; emulator fixture: a vertex function writing its position and a render target array index (Layer), vid + 1.
source_filename = "layer"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <{ <4 x float>, i32 }> @layer(i32 %vid) {
entry:
  %vf = uitofp i32 %vid to float
  %pos = insertelement <4 x float> <float 0.0, float 0.5, float 0.0, float 1.0>, float %vf, i32 0
  %l = add i32 %vid, 1
  %r0 = insertvalue <{ <4 x float>, i32 }> undef, <4 x float> %pos, 0
  %r1 = insertvalue <{ <4 x float>, i32 }> %r0, i32 %l, 1
  ret <{ <4 x float>, i32 }> %r1
}

!air.vertex = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @layer, !1, !4}
!1 = !{!2, !3}
!2 = !{!"air.position", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!3 = !{!"air.render_target_array_index", !"air.arg_type_name", !"uint", !"air.arg_name", !"layer"}
!4 = !{!5}
!5 = !{i32 0, !"air.vertex_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"vid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

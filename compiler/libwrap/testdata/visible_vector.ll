; A stitchable colour function: float4 tint(float4 c, float3 rgb, float k), saturated (air.saturate).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <4 x float> @tint(<4 x float> noundef %c, <3 x float> noundef %rgb, float noundef %k) local_unnamed_addr #0 {
  %rgb4 = shufflevector <3 x float> %rgb, <3 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>
  %ki = insertelement <4 x float> poison, float %k, i64 0
  %ks = shufflevector <4 x float> %ki, <4 x float> poison, <4 x i32> zeroinitializer
  %s = fmul fast <4 x float> %rgb4, %ks
  %t = fmul fast <4 x float> %c, %s
  %sat = tail call fast <4 x float> @air.saturate.v4f32(<4 x float> %t)
  %a = extractelement <4 x float> %c, i64 3
  %r = insertelement <4 x float> %sat, float %a, i64 3
  ret <4 x float> %r
}

declare <4 x float> @air.saturate.v4f32(<4 x float>) local_unnamed_addr #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="128" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nofree nosync nounwind willreturn memory(none) }

!air.visible = !{!0}
!0 = !{ptr @tint, !1, !2}
!1 = !{!3}
!2 = !{!4, !5, !6}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"float4"}
!4 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"float4", !"air.arg_name", !"c"}
!5 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"float3", !"air.arg_name", !"rgb"}
!6 = !{i32 2, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"k"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

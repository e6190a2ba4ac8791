; A stitchable function returning a struct through an sret pointer (thread memory):
; struct Range { float lo, hi; int count; } bounds(float a, float b).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.Range = type { float, float, i32 }

define void @bounds(ptr noalias nocapture writeonly sret(%struct.Range) align 4 %out, float noundef %a, float noundef %b) local_unnamed_addr #2 {
  %lo = tail call fast float @air.fmin.f32(float %a, float %b)
  %hi = tail call fast float @air.fmax.f32(float %a, float %b)
  store float %lo, ptr %out, align 4
  %p1 = getelementptr inbounds %struct.Range, ptr %out, i64 0, i32 1
  store float %hi, ptr %p1, align 4
  %c = fcmp fast oeq float %a, %b
  %n = select i1 %c, i32 1, i32 2
  %p2 = getelementptr inbounds %struct.Range, ptr %out, i64 0, i32 2
  store i32 %n, ptr %p2, align 4
  ret void
}

declare float @air.fmin.f32(float, float) local_unnamed_addr #1
declare float @air.fmax.f32(float, float) local_unnamed_addr #1

attributes #1 = { mustprogress nofree nosync nounwind willreturn memory(none) }
attributes #2 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" }

!air.visible = !{!0}
!0 = !{ptr @bounds, !1, !2}
!1 = !{!3}
!2 = !{!4, !5}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"Range"}
!4 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"a"}
!5 = !{i32 2, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"b"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

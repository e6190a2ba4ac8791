; A stitchable integer function: uint pick(uint x, uint2 masks, bool invert, short shift).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define i32 @pick(i32 noundef %x, <2 x i32> noundef %masks, i1 noundef zeroext %invert, i16 noundef signext %shift) local_unnamed_addr #0 {
  %m0 = extractelement <2 x i32> %masks, i64 0
  %m1 = extractelement <2 x i32> %masks, i64 1
  %lo = and i32 %x, %m0
  %sh = sext i16 %shift to i32
  %amt = and i32 %sh, 31
  %hi = shl i32 %m1, %amt
  %v = or i32 %lo, %hi
  %n = xor i32 %v, -1
  %r = select i1 %invert, i32 %n, i32 %v
  ret i32 %r
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="128" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!air.visible = !{!0}
!0 = !{ptr @pick, !1, !2}
!1 = !{!3}
!2 = !{!4, !5, !6, !7}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"uint"}
!4 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"uint", !"air.arg_name", !"x"}
!5 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"uint2", !"air.arg_name", !"masks"}
!6 = !{i32 2, !"air.visible_input", !"air.arg_type_name", !"bool", !"air.arg_name", !"invert"}
!7 = !{i32 3, !"air.visible_input", !"air.arg_type_name", !"short", !"air.arg_name", !"shift"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

; Core Image kernels compiled with -fcikernel (function type 5, extern): several
; functions of a library share this one module, which lists none of them in a
; stage's metadata. Each takes samples (coreimage::sample_t, a float4) and values.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define internal fastcc <4 x float> @absdiff(<4 x float> %a, <4 x float> %b) unnamed_addr #0 {
  %d = fsub fast <4 x float> %a, %b
  %r = tail call fast <4 x float> @air.fabs.v4f32(<4 x float> %d)
  ret <4 x float> %r
}

define <4 x float> @_colorAbsDiff(<4 x float> noundef %a, <4 x float> noundef %b) local_unnamed_addr #0 {
  %d = tail call fastcc <4 x float> @absdiff(<4 x float> %a, <4 x float> %b)
  %aa = extractelement <4 x float> %a, i64 3
  %r = insertelement <4 x float> %d, float %aa, i64 3
  ret <4 x float> %r
}

define <4 x float> @_max3(<4 x float> noundef %a, <4 x float> noundef %b, <4 x float> noundef %c) local_unnamed_addr #0 {
  %m = tail call fast <4 x float> @air.fmax.v4f32(<4 x float> %a, <4 x float> %b)
  %n = tail call fast <4 x float> @air.fmax.v4f32(<4 x float> %m, <4 x float> %c)
  ret <4 x float> %n
}

define <4 x half> @_threshold(<4 x half> noundef %s, float noundef %level) local_unnamed_addr #0 {
  %l = fptrunc float %level to half
  %li = insertelement <4 x half> poison, half %l, i64 0
  %ls = shufflevector <4 x half> %li, <4 x half> poison, <4 x i32> zeroinitializer
  %c = fcmp fast oge <4 x half> %s, %ls
  %r = select <4 x i1> %c, <4 x half> <half 0xH3C00, half 0xH3C00, half 0xH3C00, half 0xH3C00>, <4 x half> zeroinitializer
  ret <4 x half> %r
}

declare <4 x float> @air.fabs.v4f32(<4 x float>) local_unnamed_addr #1
declare <4 x float> @air.fmax.v4f32(<4 x float>, <4 x float>) local_unnamed_addr #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="128" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nofree nosync nounwind willreturn memory(none) }

!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

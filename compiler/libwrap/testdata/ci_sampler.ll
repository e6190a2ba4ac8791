; Core Image kernels taking a coreimage::sampler and a coreimage::destination
; (the extern form: no stage metadata). The sampler reaches air.sample_texture_2d
; as a texture and a sampler handle; the destination is a struct holding a pointer.
; The wrapper ABI gives neither a value: both are refused by name.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct._texture_2d_t = type opaque
%struct._sampler_t = type opaque
%"struct.coreimage::destination" = type { ptr addrspace(2), <2 x float> }

define <4 x float> @_sampleShift(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> noundef %coord) local_unnamed_addr #4 {
  %s = tail call { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> %coord, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00, float 0.000000e+00, i32 0)
  %v = extractvalue { <4 x float>, i8 } %s, 0
  ret <4 x float> %v
}

define <2 x float> @_destCoord(%"struct.coreimage::destination" %dest) local_unnamed_addr #0 {
  %c = extractvalue %"struct.coreimage::destination" %dest, 1
  ret <2 x float> %c
}

declare { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float, float, i32) local_unnamed_addr #5

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="128" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { mustprogress nofree nounwind willreturn memory(read) "frame-pointer"="all" "no-builtins" }
attributes #5 = { mustprogress nofree nounwind willreturn memory(read) }

!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

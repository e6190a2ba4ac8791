; Two stitchable functions sharing one module, each taking a buffer pointer:
; void accumulate(device float2 *acc, float x) and float lookup(constant float *table, uint i).
; Compiled without fast math (no air.compile.denorms_disable): denormals are kept.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @accumulate(ptr addrspace(1) nocapture noundef align 8 %acc, float noundef %x) local_unnamed_addr #2 {
  %v = load <2 x float>, ptr addrspace(1) %acc, align 8
  %xi = insertelement <2 x float> poison, float %x, i64 0
  %xs = shufflevector <2 x float> %xi, <2 x float> poison, <2 x i32> zeroinitializer
  %s = fadd <2 x float> %v, %xs
  store <2 x float> %s, ptr addrspace(1) %acc, align 8
  %p1 = getelementptr inbounds <2 x float>, ptr addrspace(1) %acc, i64 1
  store <2 x float> %xs, ptr addrspace(1) %p1, align 8
  ret void
}

define float @lookup(ptr addrspace(2) nocapture noundef readonly align 4 %table, i32 noundef %i) local_unnamed_addr #3 {
  %m = and i32 %i, 15
  %w = zext i32 %m to i64
  %p = getelementptr inbounds float, ptr addrspace(2) %table, i64 %w
  %v = load float, ptr addrspace(2) %p, align 4
  %r = fmul float %v, 2.000000e+00
  ret float %r
}

attributes #2 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" }
attributes #3 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: read) "frame-pointer"="all" "no-builtins" "no-trapping-math"="true" }

!air.visible = !{!0, !10}
!0 = !{ptr @accumulate, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"float2", !"air.arg_name", !"acc", !"air.address_space", i32 1}
!4 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"x"}
!10 = !{ptr @lookup, !11, !12}
!11 = !{!13}
!12 = !{!14, !15}
!13 = !{!"air.visible_output", !"air.arg_type_name", !"float"}
!14 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"float", !"air.arg_name", !"table", !"air.address_space", i32 2}
!15 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"uint", !"air.arg_name", !"i"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}


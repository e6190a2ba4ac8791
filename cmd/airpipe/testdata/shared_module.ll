; airpipe fixture: one bitcode module that two functions of a library point
; at (as Core Image libraries do). _colorAbsDiff translates; _max3x3 calls
; an intrinsic the translator does not handle, so the two entry points get
; different verdicts although their bitcode is the same.
source_filename = "shared_module"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @_colorAbsDiff(ptr addrspace(1) noalias %data, ptr addrspace(2) noalias %factor, i32 %gid) {
entry:
  %idx = zext i32 %gid to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %data, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %f = load float, ptr addrspace(2) %factor, align 4
  %d = fsub float %v, %f
  %m = fmul float %d, %d
  store float %m, ptr addrspace(1) %p, align 4
  ret void
}

define void @_max3x3(ptr addrspace(1) noalias %data, ptr addrspace(2) noalias %factor, i32 %gid) {
entry:
  %idx = zext i32 %gid to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %data, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %f = load float, ptr addrspace(2) %factor, align 4
  %m = call float @air.airpipe_fixture_unhandled.f32(float %v, float %f)
  store float %m, ptr addrspace(1) %p, align 4
  ret void
}

declare float @air.airpipe_fixture_unhandled.f32(float, float)

!air.kernel = !{!0, !8}
!air.version = !{!6}
!air.language_version = !{!7}
!0 = !{ptr @_colorAbsDiff, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"data"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"factor"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!6 = !{i32 2, i32 6, i32 0}
!7 = !{!"Metal", i32 3, i32 0, i32 0}
!8 = !{ptr @_max3x3, !1, !2}

; emulator fixture: every thread writes each of the seven grid built-ins it
; was given into its own 16-word slot (indexed by its row-major position), so
; a built-in mapped to the wrong SPIR-V variable, or a component dropped or
; swapped, shows as a mismatch.
source_filename = "builtins"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @builtins(ptr addrspace(1) noalias %out, <2 x i32> %pos, <2 x i32> %tpos, <2 x i32> %tgpos, <2 x i32> %ntg, <2 x i32> %tptg, <2 x i32> %tpg, i32 %index) {
entry:
  %px = extractelement <2 x i32> %pos, i64 0
  %py = extractelement <2 x i32> %pos, i64 1
  %w = extractelement <2 x i32> %tpg, i64 0
  %row = mul i32 %py, %w
  %lin = add i32 %row, %px
  %base = mul i32 %lin, 16
  %b = zext i32 %base to i64
  %s = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %b
  store <2 x i32> %pos, ptr addrspace(1) %s, align 4
  %s1 = getelementptr inbounds i32, ptr addrspace(1) %s, i64 2
  store <2 x i32> %tpos, ptr addrspace(1) %s1, align 4
  %s2 = getelementptr inbounds i32, ptr addrspace(1) %s, i64 4
  store <2 x i32> %tgpos, ptr addrspace(1) %s2, align 4
  %s3 = getelementptr inbounds i32, ptr addrspace(1) %s, i64 6
  store <2 x i32> %ntg, ptr addrspace(1) %s3, align 4
  %s4 = getelementptr inbounds i32, ptr addrspace(1) %s, i64 8
  store <2 x i32> %tptg, ptr addrspace(1) %s4, align 4
  %s5 = getelementptr inbounds i32, ptr addrspace(1) %s, i64 10
  store <2 x i32> %tpg, ptr addrspace(1) %s5, align 4
  %s6 = getelementptr inbounds i32, ptr addrspace(1) %s, i64 12
  store i32 %index, ptr addrspace(1) %s6, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @builtins, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8, !9, !10}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"pos"}
!5 = !{i32 2, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint2", !"air.arg_name", !"tpos"}
!6 = !{i32 3, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"tgpos"}
!7 = !{i32 4, !"air.threadgroups_per_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"ntg"}
!8 = !{i32 5, !"air.threads_per_threadgroup", !"air.arg_type_name", !"uint2", !"air.arg_name", !"tptg"}
!9 = !{i32 6, !"air.threads_per_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"tpg"}
!10 = !{i32 7, !"air.thread_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"index"}

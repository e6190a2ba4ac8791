; A kernel dividing twice per thread: with fast math, which MSL Table 8.2
; bounds at 2.5 ulp, and without, which Table 8.1 rounds correctly:
; fast[gid] = x / 3, precise[gid] = x / 7.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @division(ptr addrspace(1) %in, ptr addrspace(1) %fast, ptr addrspace(1) %precise, i32 %gid) {
  %i = zext i32 %gid to i64
  %pi = getelementptr float, ptr addrspace(1) %in, i64 %i
  %pf = getelementptr float, ptr addrspace(1) %fast, i64 %i
  %pp = getelementptr float, ptr addrspace(1) %precise, i64 %i
  %x = load float, ptr addrspace(1) %pi, align 4
  %q = fdiv fast float %x, 3.0
  %p = fdiv float %x, 7.0
  store float %q, ptr addrspace(1) %pf, align 4
  store float %p, ptr addrspace(1) %pp, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @division, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"fast"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"precise"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

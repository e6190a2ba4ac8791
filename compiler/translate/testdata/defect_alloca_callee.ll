; Regression (translator construction defect, spirv-val: "ID defined in
; block does not dominate its use"): a helper passes a pointer to its own
; alloca to another helper, which reads and writes through it. A Function
; variable is visible only in its own SPIR-V function, so the escaping
; alloca must live in Private memory.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define internal void @bump(ptr %acc, float %x) noinline {
  %old = load float, ptr %acc, align 4
  %new = fadd float %old, %x
  store float %new, ptr %acc, align 4
  ret void
}

define internal float @sum2(float %a, float %b) noinline {
  %acc = alloca [2 x float], align 4
  %p = getelementptr [2 x float], ptr %acc, i64 0, i64 1
  store float %a, ptr %p, align 4
  call void @bump(ptr %p, float %b)
  %r = load float, ptr %p, align 4
  ret float %r
}

define void @alloca_callee(ptr addrspace(1) %out, i32 %gid) {
  %f = uitofp i32 %gid to float
  %s = call float @sum2(float %f, float 2.0)
  %i = zext i32 %gid to i64
  %po = getelementptr float, ptr addrspace(1) %out, i64 %i
  store float %s, ptr addrspace(1) %po, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @alloca_callee, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

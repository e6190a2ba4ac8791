; A kernel dividing with every kind of fdiv once per thread: approximating
; flags (fast, arcp on two lanes, afn, fast by 2^127 — outside Table 8.2's
; divisor domain) and others (none, nnan ninf nsz contract reassoc, a fast
; half division): out[gid] = the sum of the quotients.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @divide(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %gid) {
  %i = zext i32 %gid to i64
  %pi = getelementptr float, ptr addrspace(1) %in, i64 %i
  %po = getelementptr float, ptr addrspace(1) %out, i64 %i
  %x = load float, ptr addrspace(1) %pi, align 4
  %fast = fdiv fast float %x, 3.0
  %v0 = insertelement <2 x float> undef, float %x, i32 0
  %v = insertelement <2 x float> %v0, float %fast, i32 1
  %arcp = fdiv arcp <2 x float> %v, <float 7.0, float 1.5>
  %afn = fdiv afn float %fast, %x
  %far = fdiv fast float %x, 0x47E0000000000000
  %precise = fdiv float %x, 5.0
  %flags = fdiv nnan ninf nsz contract reassoc float %x, 9.0
  %h = fptrunc float %x to half
  %hq = fdiv fast half %h, 0xH4200
  %hf = fpext half %hq to float
  %a0 = extractelement <2 x float> %arcp, i32 0
  %a1 = extractelement <2 x float> %arcp, i32 1
  %s0 = fadd float %fast, %a0
  %s1 = fadd float %s0, %a1
  %s2 = fadd float %s1, %afn
  %s3 = fadd float %s2, %far
  %s4 = fadd float %s3, %precise
  %s5 = fadd float %s4, %flags
  %r = fadd float %s5, %hf
  store float %r, ptr addrspace(1) %po, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @divide, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

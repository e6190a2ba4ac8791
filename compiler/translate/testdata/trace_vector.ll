; A kernel calling a vector and a half approximate operation per thread:
; out[gid] = sum(fast_pow((x, 2x, 3x), (2, 0.5, 1.5))) + sqrt(half(x)).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare <3 x float> @air.fast_pow.v3f32(<3 x float>, <3 x float>)
declare half @air.sqrt.f16(half)

define void @approxv(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %gid) {
  %i = zext i32 %gid to i64
  %pi = getelementptr float, ptr addrspace(1) %in, i64 %i
  %po = getelementptr float, ptr addrspace(1) %out, i64 %i
  %x = load float, ptr addrspace(1) %pi, align 4
  %x2 = fmul float %x, 2.0
  %x3 = fmul float %x, 3.0
  %v0 = insertelement <3 x float> undef, float %x, i32 0
  %v1 = insertelement <3 x float> %v0, float %x2, i32 1
  %v = insertelement <3 x float> %v1, float %x3, i32 2
  %p = call <3 x float> @air.fast_pow.v3f32(<3 x float> %v, <3 x float> <float 2.0, float 0.5, float 1.5>)
  %h = fptrunc float %x to half
  %e = call half @air.sqrt.f16(half %h)
  %ef = fpext half %e to float
  %p0 = extractelement <3 x float> %p, i32 0
  %p1 = extractelement <3 x float> %p, i32 1
  %p2 = extractelement <3 x float> %p, i32 2
  %s0 = fadd float %p0, %p1
  %s1 = fadd float %s0, %p2
  %r = fadd float %s1, %ef
  store float %r, ptr addrspace(1) %po, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @approxv, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

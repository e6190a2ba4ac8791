; A kernel whose float results go through approximate operations (fast pow,
; fast sqrt, fast sin and a half exp2) and then exact arithmetic:
; out[gid] = (pow(x, 2.5) + sqrt(|x|)) * 3 - sin(x), plus a half lane pair
; exp2'd and stored beside it. The reference takes the device's approximate
; results (stages/approxtrace) and compares the rest bit for bit.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.fast_pow.f32(float, float)
declare float @air.fast_sqrt.f32(float)
declare float @air.fast_sin.f32(float)
declare float @air.fast_fabs.f32(float)
declare <2 x half> @air.fast_exp2.v2f16(<2 x half>)

define void @approx(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %gid) {
  %i = zext i32 %gid to i64
  %pi = getelementptr float, ptr addrspace(1) %in, i64 %i
  %x = load float, ptr addrspace(1) %pi, align 4
  %ax = call float @air.fast_fabs.f32(float %x)
  %p = call float @air.fast_pow.f32(float %ax, float 2.5)
  %s = call float @air.fast_sqrt.f32(float %ax)
  %n = call float @air.fast_sin.f32(float %x)
  %a = fadd float %p, %s
  %m = fmul float %a, 3.0
  %r = fsub float %m, %n
  %j = shl i64 %i, 1
  %po = getelementptr float, ptr addrspace(1) %out, i64 %j
  store float %r, ptr addrspace(1) %po, align 4
  %hb = bitcast float %n to <2 x half>
  %h = call <2 x half> @air.fast_exp2.v2f16(<2 x half> %hb)
  %j1 = or i64 %j, 1
  %ph = getelementptr <2 x half>, ptr addrspace(1) %out, i64 %j1
  store <2 x half> %h, ptr addrspace(1) %ph, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @approx, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

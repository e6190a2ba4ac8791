; Operations Metal defines bit-exactly, so the emulator can compare them
; with the CPU reference: round (half away from zero), sign (keeping -0),
; floor/ceil/trunc/fabs, fmax/fmin, saturate, integer min/max, conversions
; (float to int and back, float to half and back), and a select.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @exact(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %ints, i32 %gid) {
  %i = zext i32 %gid to i64
  %pin = getelementptr float, ptr addrspace(1) %in, i64 %i
  %x = load float, ptr addrspace(1) %pin, align 4
  %s = fmul float %x, 3.000000e+00
  %r = call float @air.round.f32(float %s)
  %g = call float @air.sign.f32(float %x)
  %fl = call float @air.floor.f32(float %s)
  %ce = call float @air.ceil.f32(float %s)
  %tr = call float @air.trunc.f32(float %s)
  %ab = call float @air.fabs.f32(float %s)
  %mx = call float @air.fmax.f32(float %r, float %fl)
  %mn = call float @air.fmin.f32(float %ce, float %tr)
  %sat = call float @air.saturate.f32(float %x)
  %hf = call half @air.convert.f.f16.f.f32(float %s)
  %back = call float @air.convert.f.f32.f.f16(half %hf)
  %base = mul i64 %i, 8
  %o0 = getelementptr float, ptr addrspace(1) %out, i64 %base
  store float %r, ptr addrspace(1) %o0, align 4
  %o1 = getelementptr float, ptr addrspace(1) %o0, i64 1
  store float %g, ptr addrspace(1) %o1, align 4
  %o2 = getelementptr float, ptr addrspace(1) %o0, i64 2
  store float %mx, ptr addrspace(1) %o2, align 4
  %o3 = getelementptr float, ptr addrspace(1) %o0, i64 3
  store float %mn, ptr addrspace(1) %o3, align 4
  %o4 = getelementptr float, ptr addrspace(1) %o0, i64 4
  store float %sat, ptr addrspace(1) %o4, align 4
  %o5 = getelementptr float, ptr addrspace(1) %o0, i64 5
  store float %back, ptr addrspace(1) %o5, align 4
  %o6 = getelementptr float, ptr addrspace(1) %o0, i64 6
  store float %ab, ptr addrspace(1) %o6, align 4
  %clamped = call float @air.fmin.f32(float %ab, float 1.000000e+06)
  %u = call i32 @air.convert.u.i32.f.f32(float %clamped)
  %sv = call i32 @air.convert.s.i32.f.f32(float %tr)
  %umin = call i32 @air.min.u.i32(i32 %u, i32 1000)
  %smax = call i32 @air.max.s.i32(i32 %sv, i32 -5)
  %uf = call float @air.convert.f.f32.u.i32(i32 %umin)
  %o7 = getelementptr float, ptr addrspace(1) %o0, i64 7
  store float %uf, ptr addrspace(1) %o7, align 4
  %pi = getelementptr i32, ptr addrspace(1) %ints, i64 %i
  %neg = icmp slt i32 %smax, 0
  %pick = select i1 %neg, i32 %umin, i32 %smax
  store i32 %pick, ptr addrspace(1) %pi, align 4
  ret void
}

declare float @air.round.f32(float)
declare float @air.sign.f32(float)
declare float @air.floor.f32(float)
declare float @air.ceil.f32(float)
declare float @air.trunc.f32(float)
declare float @air.fabs.f32(float)
declare float @air.fmax.f32(float, float)
declare float @air.fmin.f32(float, float)
declare float @air.saturate.f32(float)
declare half @air.convert.f.f16.f.f32(float)
declare float @air.convert.f.f32.f.f16(half)
declare i32 @air.convert.u.i32.f.f32(float)
declare i32 @air.convert.s.i32.f.f32(float)
declare i32 @air.min.u.i32(i32, i32)
declare i32 @air.max.s.i32(i32, i32)
declare float @air.convert.f.f32.u.i32(i32)

!air.kernel = !{!0}
!0 = !{ptr @exact, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"ints"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

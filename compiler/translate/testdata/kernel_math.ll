; A kernel calling the math and conversion families, with Metal's own
; round, sign and atan2, and a helper function taking a device pointer.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define internal fastcc <4 x float> @load4(ptr addrspace(1) %p, i64 %i) {
  %q = getelementptr <4 x float>, ptr addrspace(1) %p, i64 %i
  %v = load <4 x float>, ptr addrspace(1) %q, align 16
  ret <4 x float> %v
}

define void @math(ptr addrspace(1) %io, ptr addrspace(1) %ints, i32 %gid) {
  %i = zext i32 %gid to i64
  %v = call fastcc <4 x float> @load4(ptr addrspace(1) %io, i64 %i)
  %x = extractelement <4 x float> %v, i32 0
  %y = extractelement <4 x float> %v, i32 1
  %s = call fast float @air.fast_sin.f32(float %x)
  %p = call fast float @air.fast_pow.f32(float %s, float %y)
  %r = call float @air.round.f32(float %p)
  %g = call float @air.sign.f32(float %r)
  %a = call float @air.atan2.f32(float %g, float %x)
  %c = call fast <4 x float> @air.fast_clamp.v4f32(<4 x float> %v, <4 x float> zeroinitializer, <4 x float> <float 1.0, float 1.0, float 1.0, float 1.0>)
  %d = call fast float @air.dot.v4f32(<4 x float> %c, <4 x float> %v)
  %fr = call fast float @air.fast_fract.f32(float %d)
  %rs = call fast float @air.fast_rsqrt.f32(float %fr)
  %m = call float @air.fmod.f32(float %rs, float %a)
  %u = call i32 @air.convert.u.i32.f.f32(float %m)
  %mn = call i32 @air.min.u.i32(i32 %u, i32 %gid)
  %hf = call half @air.convert.f.f16.f.f32(float %m)
  %h2 = fadd half %hf, 0xH3C00
  %back = call float @air.convert.f.f32.f.f16(half %h2)
  %sf = call float @air.convert.f.f32.s.i32(i32 %mn)
  %sum = fadd float %back, %sf
  %out = insertelement <4 x float> %v, float %sum, i32 3
  %q = getelementptr <4 x float>, ptr addrspace(1) %io, i64 %i
  store <4 x float> %out, ptr addrspace(1) %q, align 16
  %pi = getelementptr i32, ptr addrspace(1) %ints, i64 %i
  store i32 %mn, ptr addrspace(1) %pi, align 4
  ret void
}

declare float @air.fast_sin.f32(float)
declare float @air.fast_pow.f32(float, float)
declare float @air.round.f32(float)
declare float @air.sign.f32(float)
declare float @air.atan2.f32(float, float)
declare <4 x float> @air.fast_clamp.v4f32(<4 x float>, <4 x float>, <4 x float>)
declare float @air.dot.v4f32(<4 x float>, <4 x float>)
declare float @air.fast_fract.f32(float)
declare float @air.fast_rsqrt.f32(float)
declare float @air.fmod.f32(float, float)
declare i32 @air.convert.u.i32.f.f32(float)
declare i32 @air.min.u.i32(i32, i32)
declare half @air.convert.f.f16.f.f32(float)
declare float @air.convert.f.f32.f.f16(half)
declare float @air.convert.f.f32.s.i32(i32)

!air.kernel = !{!0}
!0 = !{ptr @math, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4", !"air.arg_name", !"io"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"ints"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

; The air.* vocabulary beyond the corpus (seed 003 §3.2): integer
; saturation, halving, bit operations, geometry, ldexp/frexp/modf, any/all.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @vocab(ptr addrspace(1) %ints, ptr addrspace(1) %floats, i32 %gid) {
  %tmp = alloca float, align 4
  %ex = alloca i32, align 4
  %i = zext i32 %gid to i64
  %pi = getelementptr i32, ptr addrspace(1) %ints, i64 %i
  %x = load i32, ptr addrspace(1) %pi, align 4
  %a = call i32 @air.add_sat.u.i32(i32 %x, i32 4000000000)
  %b = call i32 @air.sub_sat.s.i32(i32 %a, i32 %x)
  %c = call i32 @air.hadd.u.i32(i32 %b, i32 %x)
  %d = call i32 @air.rhadd.s.i32(i32 %c, i32 %x)
  %e = call i32 @air.abs_diff.s.i32(i32 %d, i32 %x)
  %f = call i32 @air.clz.i32(i32 %e)
  %g = call i32 @air.ctz.i32(i32 %f)
  %h = call i32 @air.mul_hi.u.i32(i32 %g, i32 %x)
  %r = call i32 @air.rotate.i32(i32 %h, i32 %x)
  %eb = call i32 @air.extract_bits.u.i32(i32 %r, i32 4, i32 8)
  %ib = call i32 @air.insert_bits.i32(i32 %eb, i32 %x, i32 8, i32 4)
  %pc = call i32 @air.popcount.i32(i32 %ib)
  %pf = getelementptr <4 x float>, ptr addrspace(1) %floats, i64 %i
  %v = load <4 x float>, ptr addrspace(1) %pf, align 16
  %v3 = shufflevector <4 x float> %v, <4 x float> undef, <3 x i32> <i32 0, i32 1, i32 2>
  %n = call fast <3 x float> @air.fast_normalize.v3f32(<3 x float> %v3)
  %cr = call <3 x float> @air.cross.v3f32(<3 x float> %n, <3 x float> %v3)
  %len = call fast float @air.fast_length.v3f32(<3 x float> %cr)
  %ld = call float @air.ldexp.f32(float %len, i32 %pc)
  %fr = call float @air.frexp.f32(float %ld, ptr %ex)
  %mf = call float @air.modf.f32(float %fr, ptr %tmp)
  %ip = load float, ptr %tmp, align 4
  %exv = load i32, ptr %ex, align 4
  %sp = call float @air.sinpi.f32(float %mf)
  %sum = fadd float %sp, %ip
  %gt = fcmp ogt <4 x float> %v, zeroinitializer
  %any = call i1 @air.any.v4i1(<4 x i1> %gt)
  %sel = select i1 %any, float %sum, float 0.0
  %out = insertelement <4 x float> %v, float %sel, i32 3
  store <4 x float> %out, ptr addrspace(1) %pf, align 16
  store i32 %exv, ptr addrspace(1) %pi, align 4
  ret void
}

declare i32 @air.add_sat.u.i32(i32, i32)
declare i32 @air.sub_sat.s.i32(i32, i32)
declare i32 @air.hadd.u.i32(i32, i32)
declare i32 @air.rhadd.s.i32(i32, i32)
declare i32 @air.abs_diff.s.i32(i32, i32)
declare i32 @air.clz.i32(i32)
declare i32 @air.ctz.i32(i32)
declare i32 @air.mul_hi.u.i32(i32, i32)
declare i32 @air.rotate.i32(i32, i32)
declare i32 @air.extract_bits.u.i32(i32, i32, i32)
declare i32 @air.insert_bits.i32(i32, i32, i32, i32)
declare i32 @air.popcount.i32(i32)
declare <3 x float> @air.fast_normalize.v3f32(<3 x float>)
declare <3 x float> @air.cross.v3f32(<3 x float>, <3 x float>)
declare float @air.fast_length.v3f32(<3 x float>)
declare float @air.ldexp.f32(float, i32)
declare float @air.frexp.f32(float, ptr)
declare float @air.modf.f32(float, ptr)
declare float @air.sinpi.f32(float)
declare i1 @air.any.v4i1(<4 x i1>)

!air.kernel = !{!0}
!0 = !{ptr @vocab, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"ints"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4", !"air.arg_name", !"floats"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

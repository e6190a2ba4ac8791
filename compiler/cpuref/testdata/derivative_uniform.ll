; cpuref derivative fixture: derivatives of pixel-independent values, which the reference
; defines as v - v. Render target 0 (float4) = (fwidth(uv).x, fwidth(uv).y, dfdy(sample).z,
; dfdx(uv * 2^100 * 2^100).x) — the last an infinity, so NaN; render target 1 (half2) =
; dfdx(half uv) through a helper function and private memory, reached by a switch on the varying
; (uv.x = 0.25: its bits are 1048576000); render target 2 (float2) = pos.xy,
; a per-pixel value the derivatives never see.
source_filename = "derivative_uniform"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare <2 x float> @air.fwidth.v2f32(<2 x float>)
declare <4 x float> @air.dfdy.v4f32(<4 x float>)
declare <2 x float> @air.dfdx.v2f32(<2 x float>)
declare <2 x half> @air.dfdx.v2f16(<2 x half>)
declare <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i1, <2 x i32>, i1, float)

define internal <2 x half> @halfdx(<2 x float> %v) {
entry:
  %slot = alloca <2 x half>, align 4
  %h = fptrunc <2 x float> %v to <2 x half>
  store <2 x half> %h, ptr %slot, align 4
  %l = load <2 x half>, ptr %slot, align 4
  %d = tail call fast <2 x half> @air.dfdx.v2f16(<2 x half> %l)
  ret <2 x half> %d
}

define <{ <4 x float>, <2 x half>, <2 x float> }> @frag(<4 x float> %pos, <2 x float> %uv, ptr addrspace(1) %tex, ptr addrspace(2) %smp) {
entry:
  %fw = tail call fast <2 x float> @air.fwidth.v2f32(<2 x float> %uv)
  %xy = shufflevector <4 x float> %pos, <4 x float> poison, <2 x i32> <i32 0, i32 1>
  %st = fmul fast <2 x float> %xy, <float 2.500000e-01, float 2.500000e-01>
  %s = call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> %st, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %sy = tail call fast <4 x float> @air.dfdy.v4f32(<4 x float> %s)
  %big = fmul <2 x float> %uv, <float 0x4630000000000000, float 0x4630000000000000>
  %inf = fmul <2 x float> %big, <float 0x4630000000000000, float 0x4630000000000000>
  %ix = tail call <2 x float> @air.dfdx.v2f32(<2 x float> %inf)
  %ub = bitcast <2 x float> %uv to <2 x i32>
  %u0 = extractelement <2 x i32> %ub, i32 0
  switch i32 %u0, label %join [
    i32 1048576000, label %then
  ]

then:
  %hd = call <2 x half> @halfdx(<2 x float> %uv)
  br label %join

join:
  %hv = phi <2 x half> [ %hd, %then ], [ <half 0xH3C00, half 0xH3C00>, %entry ]
  %fw0 = extractelement <2 x float> %fw, i32 0
  %fw1 = extractelement <2 x float> %fw, i32 1
  %sz = extractelement <4 x float> %sy, i32 2
  %ix0 = extractelement <2 x float> %ix, i32 0
  %o0 = insertelement <4 x float> poison, float %fw0, i32 0
  %o1 = insertelement <4 x float> %o0, float %fw1, i32 1
  %o2 = insertelement <4 x float> %o1, float %sz, i32 2
  %o3 = insertelement <4 x float> %o2, float %ix0, i32 3
  %r0 = insertvalue <{ <4 x float>, <2 x half>, <2 x float> }> undef, <4 x float> %o3, 0
  %r1 = insertvalue <{ <4 x float>, <2 x half>, <2 x float> }> %r0, <2 x half> %hv, 1
  %r2 = insertvalue <{ <4 x float>, <2 x half>, <2 x float> }> %r1, <2 x float> %xy, 2
  ret <{ <4 x float>, <2 x half>, <2 x float> }> %r2
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !5}
!1 = !{!2, !3, !4}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"half2"}
!4 = !{!"air.render_target", i32 2, i32 0, !"air.arg_type_name", !"float2"}
!5 = !{!6, !7, !8, !9}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.fragment_input", !"generated(2uv)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float2", !"air.arg_name", !"uv"}
!8 = !{i32 2, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"tex"}
!9 = !{i32 3, !"air.sampler", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; cpuref derivative fixture: derivatives whose operand depends on the pixel position, which the
; reference must set aside. Each entry point takes (pos, uv varying, buf) and returns float4:
;   dx_position: dfdx(pos.x)
;   dy_select:   dfdy(pos.x < 2 ? uv : 1) — position reaches the operand only through a select
;   dy_phi:      dfdy(phi(uv.x + pos.x, uv.x)) after a branch on the varying — only through a phi
;   dx_private:  dfdx of a varying loaded back from private memory that also holds pos.x
;   dx_buffer:   dfdx of buf[1] after the pixel stored uv.x into buf[0] (device memory)
;   dx_generic:  as dx_buffer, the store going through a generic pointer cast from the buffer
;   dx_sample:   dfdx(sample_id): 0 on every pixel of this draw, but a per-pixel built-in
source_filename = "derivative_pixel"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.dfdx.f32(float)
declare <2 x float> @air.dfdy.v2f32(<2 x float>)
declare float @air.dfdy.f32(float)

define <4 x float> @dx_position(<4 x float> %pos, <2 x float> %uv, ptr addrspace(1) %buf) {
entry:
  %x = extractelement <4 x float> %pos, i32 0
  %d = tail call fast float @air.dfdx.f32(float %x)
  %r = insertelement <4 x float> zeroinitializer, float %d, i32 0
  ret <4 x float> %r
}

define <4 x float> @dy_select(<4 x float> %pos, <2 x float> %uv, ptr addrspace(1) %buf) {
entry:
  %x = extractelement <4 x float> %pos, i32 0
  %c = fcmp olt float %x, 2.000000e+00
  %v = select i1 %c, <2 x float> %uv, <2 x float> <float 1.000000e+00, float 1.000000e+00>
  %d = tail call fast <2 x float> @air.dfdy.v2f32(<2 x float> %v)
  %r = shufflevector <2 x float> %d, <2 x float> zeroinitializer, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  ret <4 x float> %r
}

define <4 x float> @dy_phi(<4 x float> %pos, <2 x float> %uv, ptr addrspace(1) %buf) {
entry:
  %u = extractelement <2 x float> %uv, i32 0
  %c = fcmp ogt float %u, 0.000000e+00
  br i1 %c, label %add, label %join

add:
  %x = extractelement <4 x float> %pos, i32 0
  %s = fadd float %u, %x
  br label %join

join:
  %v = phi float [ %s, %add ], [ %u, %entry ]
  %d = tail call fast float @air.dfdy.f32(float %v)
  %r = insertelement <4 x float> zeroinitializer, float %d, i32 0
  ret <4 x float> %r
}

define <4 x float> @dx_private(<4 x float> %pos, <2 x float> %uv, ptr addrspace(1) %buf) {
entry:
  %m = alloca [2 x float], align 4
  %x = extractelement <4 x float> %pos, i32 0
  store float %x, ptr %m, align 4
  %u = extractelement <2 x float> %uv, i32 0
  %m1 = getelementptr inbounds [2 x float], ptr %m, i64 0, i64 1
  store float %u, ptr %m1, align 4
  %l = load float, ptr %m1, align 4
  %d = tail call fast float @air.dfdx.f32(float %l)
  %r = insertelement <4 x float> zeroinitializer, float %d, i32 0
  ret <4 x float> %r
}

define <4 x float> @dx_buffer(<4 x float> %pos, <2 x float> %uv, ptr addrspace(1) %buf) {
entry:
  %u = extractelement <2 x float> %uv, i32 0
  store float %u, ptr addrspace(1) %buf, align 4
  %b1 = getelementptr inbounds float, ptr addrspace(1) %buf, i64 1
  %l = load float, ptr addrspace(1) %b1, align 4
  %d = tail call fast float @air.dfdx.f32(float %l)
  %r = insertelement <4 x float> zeroinitializer, float %d, i32 0
  ret <4 x float> %r
}

define <4 x float> @dx_generic(<4 x float> %pos, <2 x float> %uv, ptr addrspace(1) %buf) {
entry:
  %u = extractelement <2 x float> %uv, i32 0
  %g = addrspacecast ptr addrspace(1) %buf to ptr
  store float %u, ptr %g, align 4
  %b1 = getelementptr inbounds float, ptr addrspace(1) %buf, i64 1
  %l = load float, ptr addrspace(1) %b1, align 4
  %d = tail call fast float @air.dfdx.f32(float %l)
  %r = insertelement <4 x float> zeroinitializer, float %d, i32 0
  ret <4 x float> %r
}

define <4 x float> @dx_sample(<4 x float> %pos, <2 x float> %uv, ptr addrspace(1) %buf, i32 %sid) {
entry:
  %f = uitofp i32 %sid to float
  %d = tail call fast float @air.dfdx.f32(float %f)
  %r = insertelement <4 x float> zeroinitializer, float %d, i32 0
  ret <4 x float> %r
}

!air.fragment = !{!10, !11, !12, !13, !14, !15, !18}
!air.version = !{!90}
!air.language_version = !{!91}
!10 = !{ptr @dx_position, !1, !5}
!11 = !{ptr @dy_select, !1, !5}
!12 = !{ptr @dy_phi, !1, !5}
!13 = !{ptr @dx_private, !1, !5}
!14 = !{ptr @dx_buffer, !1, !5}
!15 = !{ptr @dx_sample, !1, !16}
!18 = !{ptr @dx_generic, !1, !5}
!16 = !{!6, !7, !8, !17}
!17 = !{i32 3, !"air.sample_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"sid"}
!1 = !{!2}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!5 = !{!6, !7, !8}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.fragment_input", !"generated(2uv)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float2", !"air.arg_name", !"uv"}
!8 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_name", !"buf"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

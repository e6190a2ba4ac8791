; translate fixture (executed by stages' TestEmulatorTextureSlots): textures and a sampler kept
; in a C++ shader object in private memory, as unoptimised AIR (SPIRV-Cross' MSL output, for one)
; has them: the entry point stores its texture and sampler handles into an alloca'd struct and
; calls a method that loads them back (slots.go). Render target 0 = t0 + 2·t3, render target 1 = t3.
source_filename = "texture_slots"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%"struct.metal::texture2d" = type { ptr addrspace(1) }
%"struct.metal::sampler" = type { ptr addrspace(2) }
%struct.Ctx = type { %"struct.metal::texture2d", %"struct.metal::sampler", %"struct.metal::texture2d" }

declare <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i1, <2 x i32>, i1, float)

define internal <{ <4 x float>, <4 x float> }> @Ctx_main(ptr %this, <2 x float> %uv) noinline {
entry:
  %sp = getelementptr inbounds %struct.Ctx, ptr %this, i64 0, i32 1, i32 0
  %s = load ptr addrspace(2), ptr %sp, align 8
  %ap = getelementptr inbounds %struct.Ctx, ptr %this, i64 0, i32 0, i32 0
  %a = load ptr addrspace(1), ptr %ap, align 8
  %bp = getelementptr inbounds %struct.Ctx, ptr %this, i64 0, i32 2, i32 0
  %b = load ptr addrspace(1), ptr %bp, align 8
  %fa = call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %a, ptr addrspace(2) %s, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %fb = call <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) %b, ptr addrspace(2) %s, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)
  %fb2 = fmul <4 x float> %fb, <float 2.000000e+00, float 2.000000e+00, float 2.000000e+00, float 2.000000e+00>
  %f0 = fadd <4 x float> %fa, %fb2
  %r0 = insertvalue <{ <4 x float>, <4 x float> }> undef, <4 x float> %f0, 0
  %r1 = insertvalue <{ <4 x float>, <4 x float> }> %r0, <4 x float> %fb, 1
  ret <{ <4 x float>, <4 x float> }> %r1
}

define <{ <4 x float>, <4 x float> }> @frag(<4 x float> %pos, ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(2) %smp) {
entry:
  %ctx = alloca %struct.Ctx, align 8
  %xy = shufflevector <4 x float> %pos, <4 x float> poison, <2 x i32> <i32 0, i32 1>
  %uv = fmul <2 x float> %xy, <float 2.500000e-01, float 2.500000e-01>
  %f0 = getelementptr inbounds %struct.Ctx, ptr %ctx, i64 0, i32 0, i32 0
  store ptr addrspace(1) %a, ptr %f0, align 8
  %f1 = getelementptr inbounds %struct.Ctx, ptr %ctx, i64 0, i32 1, i32 0
  store ptr addrspace(2) %smp, ptr %f1, align 8
  %f2 = getelementptr inbounds %struct.Ctx, ptr %ctx, i64 0, i32 2, i32 0
  store ptr addrspace(1) %b, ptr %f2, align 8
  %r = call <{ <4 x float>, <4 x float> }> @Ctx_main(ptr nonnull %ctx, <2 x float> %uv)
  ret <{ <4 x float>, <4 x float> }> %r
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !5}
!1 = !{!2, !3}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!3 = !{!"air.render_target", i32 1, i32 0, !"air.arg_type_name", !"float4"}
!5 = !{!6, !7, !8, !9}
!6 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"a"}
!8 = !{i32 2, !"air.texture", !"air.location_index", i32 3, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"b"}
!9 = !{i32 3, !"air.sampler", !"air.location_index", i32 1, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

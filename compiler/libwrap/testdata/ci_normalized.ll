; A Core Image kernel (extern, -fcikernel) taking a coreimage::sampler (its
; texture and sampler handles), a sample_t (float4) and reading Core
; Image's coreimage::_texture2D_is_normalized function constant: when set,
; the pixel coordinate is divided by the texture's size before sampling.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@_ZN9coreimage24_texture2D_is_normalizedE.MTL_FC_INIT_0_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, section "air.fc_initializer", align 1

define internal <2 x float> @_ZN9coreimage7sampler9transformEDv2_f(ptr addrspace(1) %tex, <2 x float> %p) #0 {
  %n = load i8, ptr addrspace(2) @_ZN9coreimage24_texture2D_is_normalizedE.MTL_FC_INIT_0_b, align 1, !range !10
  %norm = icmp ne i8 %n, 0
  br i1 %norm, label %scale, label %done
scale:
  %w = tail call i32 @air.get_width_texture_2d(ptr addrspace(1) %tex, i32 0)
  %h = tail call i32 @air.get_height_texture_2d(ptr addrspace(1) %tex, i32 0)
  %wf = uitofp i32 %w to float
  %hf = uitofp i32 %h to float
  %s0 = insertelement <2 x float> poison, float %wf, i64 0
  %s1 = insertelement <2 x float> %s0, float %hf, i64 1
  %q = fdiv <2 x float> %p, %s1
  br label %done
done:
  %r = phi <2 x float> [ %q, %scale ], [ %p, %0 ]
  ret <2 x float> %r
}

define <4 x float> @_blendOver(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> noundef %coord, <4 x float> noundef %under) local_unnamed_addr #0 {
  %uv = tail call <2 x float> @_ZN9coreimage7sampler9transformEDv2_f(ptr addrspace(1) %tex, <2 x float> %coord)
  %s = tail call { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00, float 0.000000e+00, i32 0)
  %over = extractvalue { <4 x float>, i8 } %s, 0
  %a = extractelement <4 x float> %over, i64 3
  %ia = fsub float 1.000000e+00, %a
  %iav0 = insertelement <4 x float> poison, float %ia, i64 0
  %iav = shufflevector <4 x float> %iav0, <4 x float> poison, <4 x i32> zeroinitializer
  %u = fmul <4 x float> %under, %iav
  %r = fadd <4 x float> %over, %u
  ret <4 x float> %r
}

declare { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float, float, i32) local_unnamed_addr #1
declare i32 @air.get_width_texture_2d(ptr addrspace(1), i32) local_unnamed_addr #1
declare i32 @air.get_height_texture_2d(ptr addrspace(1), i32) local_unnamed_addr #1

attributes #0 = { mustprogress nofree nounwind willreturn memory(read) "frame-pointer"="all" "no-builtins" }
attributes #1 = { mustprogress nofree nounwind willreturn memory(read) }

!air.function_constants = !{!5}
!air.version = !{!90}
!air.language_version = !{!91}
!5 = !{ptr addrspace(2) @_ZN9coreimage24_texture2D_is_normalizedE.MTL_FC_INIT_0_b, !"bool", !"coreimage::_texture2D_is_normalized", i32 0, i1 true}
!10 = !{i8 0, i8 2}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}

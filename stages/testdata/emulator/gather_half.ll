; A gather on a half texture (texture2d<half>::gather, component::z) in a fragment function:
; out = gather(s, uv, int2(0), component::z) * 2 + (0, 0, 0, uv.x); under the uniform-texture
; contract every lane is texel 0's z, rounded to half.
source_filename = "gather_half"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <4 x half> @gather_half(<2 x float> %uv, ptr addrspace(1) %tex, ptr addrspace(2) %smp) {
entry:
  %r = tail call { <4 x half>, i8 } @air.gather_texture_2d.v4f16(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i32 2, i32 0)
  %g = extractvalue { <4 x half>, i8 } %r, 0
  %d = fmul <4 x half> %g, <half 0xH4000, half 0xH4000, half 0xH4000, half 0xH4000>
  %u = extractelement <2 x float> %uv, i32 0
  %uh = fptrunc float %u to half
  %w = insertelement <4 x half> zeroinitializer, half %uh, i32 3
  %o = fadd <4 x half> %d, %w
  ret <4 x half> %o
}

declare { <4 x half>, i8 } @air.gather_texture_2d.v4f16(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i32, i32)

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @gather_half, !1, !3}
!1 = !{!2}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"half4"}
!3 = !{!4, !5, !6}
!4 = !{i32 0, !"air.fragment_input", !"generated(2uv)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float2", !"air.arg_name", !"uv"}
!5 = !{i32 1, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<half, sample>", !"air.arg_name", !"tex"}
!6 = !{i32 2, !"air.sampler", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; A stitchable function taking a texture and a sampler ([[stitchable]] half4
; tinted(texture2d<half> t, sampler s, float2 uv, half4 tint)): its
; air.visible node types them texture2d<half, sample> and sampler; it
; samples, reads texel (0, 0) and multiplies by the tint.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <4 x half> @tinted(ptr addrspace(1) nocapture readonly %t, ptr addrspace(2) nocapture readonly %s, <2 x float> noundef %uv, <4 x half> noundef %tint) local_unnamed_addr #0 {
  %smp = tail call { <4 x half>, i8 } @air.sample_texture_2d.v4f16(ptr addrspace(1) %t, ptr addrspace(2) %s, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00, float 0.000000e+00, i32 0)
  %a = extractvalue { <4 x half>, i8 } %smp, 0
  %rd = tail call { <4 x half>, i8 } @air.read_texture_2d.v4f16(ptr addrspace(1) %t, <2 x i32> zeroinitializer, i32 0, i32 0)
  %b = extractvalue { <4 x half>, i8 } %rd, 0
  %sum = fadd fast <4 x half> %a, %b
  %r = fmul fast <4 x half> %sum, %tint
  ret <4 x half> %r
}

declare { <4 x half>, i8 } @air.sample_texture_2d.v4f16(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float, float, i32) local_unnamed_addr #1
declare { <4 x half>, i8 } @air.read_texture_2d.v4f16(ptr addrspace(1), <2 x i32>, i32, i32) local_unnamed_addr #1

attributes #0 = { mustprogress nofree nounwind willreturn memory(read) "frame-pointer"="all" "no-builtins" }
attributes #1 = { mustprogress nofree nounwind willreturn memory(read) }

!air.visible = !{!0}
!0 = !{ptr @tinted, !1, !2}
!1 = !{!3}
!2 = !{!4, !5, !6, !7}
!3 = !{!"air.visible_output", !"air.arg_type_name", !"half4"}
!4 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"texture2d<half, sample>", !"air.arg_name", !"t"}
!5 = !{i32 1, !"air.visible_input", !"air.arg_type_name", !"sampler", !"air.arg_name", !"s"}
!6 = !{i32 2, !"air.visible_input", !"air.arg_type_name", !"float2", !"air.arg_name", !"uv"}
!7 = !{i32 3, !"air.visible_input", !"air.arg_type_name", !"half4", !"air.arg_name", !"tint"}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92, !93}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!93 = !{!"air.compile.fast_math_enable"}

; discard.ll without its discard (the planted fault: a translation that drops
; discard_fragment writes every pixel; the emulator must report a mismatch at an odd pixel).
source_filename = "discard_none"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <{ <4 x half>, <2 x i32> }> @frag(<4 x float> %pos, <2 x half> %h, i16 signext %s, ptr addrspace(1) noalias %buf) {
entry:
  %x = extractelement <4 x float> %pos, i32 0
  %y = extractelement <4 x float> %pos, i32 1
  %h0 = extractelement <2 x half> %h, i32 0
  %xh = fptrunc float %x to half
  %a = fadd half %h0, %xh
  %c0 = insertelement <4 x half> <half 0xH0000, half 0xH0000, half 0xH0000, half 0xH3C00>, half %a, i32 0
  %yh = fptrunc float %y to half
  %c1 = insertelement <4 x half> %c0, half %yh, i32 1
  %s32 = sext i16 %s to i32
  %ld = load i32, ptr addrspace(1) %buf, align 4
  %i0 = insertelement <2 x i32> undef, i32 %s32, i32 0
  %i1 = insertelement <2 x i32> %i0, i32 %ld, i32 1
  %r0 = insertvalue <{ <4 x half>, <2 x i32> }> undef, <4 x half> %c1, 0
  %r1 = insertvalue <{ <4 x half>, <2 x i32> }> %r0, <2 x i32> %i1, 1
  ret <{ <4 x half>, <2 x i32> }> %r1
}

!air.fragment = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @frag, !1, !4}
!1 = !{!2, !3}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"half4"}
!3 = !{!"air.render_target", i32 2, i32 0, !"air.arg_type_name", !"int2"}
!4 = !{!5, !6, !7, !8}
!5 = !{i32 0, !"air.position", !"air.center", !"air.no_perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!6 = !{i32 1, !"air.fragment_input", !"generated(1h)", !"air.center", !"air.perspective", !"air.arg_type_name", !"half2", !"air.arg_name", !"h"}
!7 = !{i32 2, !"air.fragment_input", !"generated(1s)", !"air.flat", !"air.arg_type_name", !"short", !"air.arg_name", !"s"}
!8 = !{i32 3, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_name", !"buf"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

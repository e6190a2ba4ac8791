; translate pack/unpack fixture: thread i packs in[i] (float4) with
; pack_float_to_unorm4x8, pack_float_to_snorm4x8, pack_float_to_srgb_unorm4x8 and (as half4)
; pack_half_to_unorm4x8 into packed[i] (uint4), and unpacks words[i] with
; unpack_unorm4x8_to_float, unpack_snorm4x8_to_float, unpack_unorm4x8_srgb_to_float and
; unpack_unorm4x8_to_half (widened to float) into unpacked[4i .. 4i+3] (float4).
source_filename = "kernel_pack"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i32 @air.pack.unorm4x8.v4f32(<4 x float>)
declare i32 @air.pack.snorm4x8.v4f32(<4 x float>)
declare i32 @air.pack.unorm4x8.srgb.v4f32(<4 x float>)
declare i32 @air.pack.unorm4x8.v4f16(<4 x half>)
declare <4 x float> @air.unpack.unorm4x8.v4f32(i32)
declare <4 x float> @air.unpack.snorm4x8.v4f32(i32)
declare <4 x float> @air.unpack.unorm4x8.srgb.v4f32(i32)
declare <4 x half> @air.unpack.unorm4x8.v4f16(i32)

define void @packer(ptr addrspace(1) %in, ptr addrspace(1) %packed, ptr addrspace(1) %words, ptr addrspace(1) %unpacked, i32 %gid) {
entry:
  %i = zext i32 %gid to i64
  %pin = getelementptr inbounds <4 x float>, ptr addrspace(1) %in, i64 %i
  %x = load <4 x float>, ptr addrspace(1) %pin, align 16
  %a = call i32 @air.pack.unorm4x8.v4f32(<4 x float> %x)
  %b = call i32 @air.pack.snorm4x8.v4f32(<4 x float> %x)
  %c = call i32 @air.pack.unorm4x8.srgb.v4f32(<4 x float> %x)
  %xh = fptrunc <4 x float> %x to <4 x half>
  %d = call i32 @air.pack.unorm4x8.v4f16(<4 x half> %xh)
  %p0 = insertelement <4 x i32> undef, i32 %a, i32 0
  %p1 = insertelement <4 x i32> %p0, i32 %b, i32 1
  %p2 = insertelement <4 x i32> %p1, i32 %c, i32 2
  %p3 = insertelement <4 x i32> %p2, i32 %d, i32 3
  %ppk = getelementptr inbounds <4 x i32>, ptr addrspace(1) %packed, i64 %i
  store <4 x i32> %p3, ptr addrspace(1) %ppk, align 16
  %pw = getelementptr inbounds i32, ptr addrspace(1) %words, i64 %i
  %w = load i32, ptr addrspace(1) %pw, align 4
  %u = call <4 x float> @air.unpack.unorm4x8.v4f32(i32 %w)
  %s = call <4 x float> @air.unpack.snorm4x8.v4f32(i32 %w)
  %g = call <4 x float> @air.unpack.unorm4x8.srgb.v4f32(i32 %w)
  %h = call <4 x half> @air.unpack.unorm4x8.v4f16(i32 %w)
  %hf = fpext <4 x half> %h to <4 x float>
  %i4 = shl i64 %i, 2
  %q0 = getelementptr inbounds <4 x float>, ptr addrspace(1) %unpacked, i64 %i4
  store <4 x float> %u, ptr addrspace(1) %q0, align 16
  %q1 = getelementptr inbounds <4 x float>, ptr addrspace(1) %q0, i64 1
  store <4 x float> %s, ptr addrspace(1) %q1, align 16
  %q2 = getelementptr inbounds <4 x float>, ptr addrspace(1) %q0, i64 2
  store <4 x float> %g, ptr addrspace(1) %q2, align 16
  %q3 = getelementptr inbounds <4 x float>, ptr addrspace(1) %q0, i64 3
  store <4 x float> %hf, ptr addrspace(1) %q3, align 16
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @packer, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"uint4", !"air.arg_name", !"packed"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"words"}
!6 = !{i32 3, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4", !"air.arg_name", !"unpacked"}
!7 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

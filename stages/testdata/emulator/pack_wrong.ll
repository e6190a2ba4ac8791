; pack.ll with unpack_unorm4x8_to_float planted as c * (1/255), which differs from c / 255 for
; 126 of the 256 bytes (the emulator must report a mismatch in buffer 1).
; Otherwise as pack.ll:
; y = unpack_unorm4x8_to_float(x), s = unpack_snorm4x8_to_float(x), h = unpack_unorm4x8_to_half(x),
; p[2i] = pack_float_to_unorm4x8(s) (negative lanes clamp to 0), p[2i+1] = pack_float_to_snorm4x8(h).
source_filename = "pack"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare <4 x float> @air.unpack.snorm4x8.v4f32(i32)
declare <4 x half> @air.unpack.unorm4x8.v4f16(i32)
declare i32 @air.pack.unorm4x8.v4f32(<4 x float>)
declare i32 @air.pack.snorm4x8.v4f16(<4 x half>)

define void @pk(ptr addrspace(1) noalias %x, ptr addrspace(1) noalias %y, ptr addrspace(1) noalias %s, ptr addrspace(1) noalias %h, ptr addrspace(1) noalias %p, i32 %gid) {
entry:
  %i = zext i32 %gid to i64
  %xp = getelementptr inbounds i32, ptr addrspace(1) %x, i64 %i
  %xv = load i32, ptr addrspace(1) %xp, align 4
  ; planted: unorm as c * (1/255) (float), not Metal's correctly rounded c / 255
  %b0 = and i32 %xv, 255
  %sh1 = lshr i32 %xv, 8
  %b1 = and i32 %sh1, 255
  %sh2 = lshr i32 %xv, 16
  %b2 = and i32 %sh2, 255
  %b3 = lshr i32 %xv, 24
  %v0 = insertelement <4 x i32> undef, i32 %b0, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %b1, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %b2, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %b3, i32 3
  %fv = uitofp <4 x i32> %v3 to <4 x float>
  %yv = fmul <4 x float> %fv, <float 0x3F70101020000000, float 0x3F70101020000000, float 0x3F70101020000000, float 0x3F70101020000000>
  %yp = getelementptr inbounds <4 x float>, ptr addrspace(1) %y, i64 %i
  store <4 x float> %yv, ptr addrspace(1) %yp, align 16
  %sv = call <4 x float> @air.unpack.snorm4x8.v4f32(i32 %xv)
  %sp = getelementptr inbounds <4 x float>, ptr addrspace(1) %s, i64 %i
  store <4 x float> %sv, ptr addrspace(1) %sp, align 16
  %hv = call <4 x half> @air.unpack.unorm4x8.v4f16(i32 %xv)
  %hp = getelementptr inbounds <4 x half>, ptr addrspace(1) %h, i64 %i
  store <4 x half> %hv, ptr addrspace(1) %hp, align 8
  %p0 = call i32 @air.pack.unorm4x8.v4f32(<4 x float> %sv)
  %p1 = call i32 @air.pack.snorm4x8.v4f16(<4 x half> %hv)
  %i2 = shl i64 %i, 1
  %pp0 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i2
  store i32 %p0, ptr addrspace(1) %pp0, align 4
  %i21 = or i64 %i2, 1
  %pp1 = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i21
  store i32 %p1, ptr addrspace(1) %pp1, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @pk, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"x"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float4", !"air.arg_name", !"y"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float4", !"air.arg_name", !"s"}
!6 = !{i32 3, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"half4", !"air.arg_name", !"h"}
!7 = !{i32 4, !"air.buffer", !"air.location_index", i32 4, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"p"}
!8 = !{i32 5, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

; cpuref texture fixture: a kernel reading a float 2D texture (index 3) at its thread position
; and writing the texel to out[y*4 + x]; word 4 of each 32-byte record is the residency.
source_filename = "texture_read"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)

define void @readtex(ptr addrspace(1) %tex, ptr addrspace(1) %out, <2 x i32> %gid) {
entry:
  %x = extractelement <2 x i32> %gid, i32 0
  %y = extractelement <2 x i32> %gid, i32 1
  %coord = insertelement <2 x i32> %gid, i32 %x, i32 0
  %r = call { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) %tex, <2 x i32> %coord, i32 0, i32 1)
  %v = extractvalue { <4 x float>, i8 } %r, 0
  %res = extractvalue { <4 x float>, i8 } %r, 1
  %row = mul i32 %y, 4
  %i = add i32 %row, %x
  %i64 = zext i32 %i to i64
  %rec = mul i64 %i64, 32
  %p = getelementptr inbounds i8, ptr addrspace(1) %out, i64 %rec
  store <4 x float> %v, ptr addrspace(1) %p, align 16
  %rp = getelementptr inbounds i8, ptr addrspace(1) %p, i64 16
  %res32 = zext i8 %res to i32
  store i32 %res32, ptr addrspace(1) %rp, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @readtex, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 3, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<float, read>", !"air.arg_name", !"tex"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.buffer_size", i32 512, !"air.arg_type_size", i32 32, !"air.arg_type_align_size", i32 16, !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

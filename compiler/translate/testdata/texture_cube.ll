; translate cube-texture fixture: a kernel that reads a texturecube<uint, read> (index 0)
; at its thread position on face 3 (tex.read(coord, face)) and writes the texel, plus its
; width in the last lane, into a texturecube<uint, write> (index 1) on face 5
; (out.write(texel, coord, face)), and into a texture3d<int, write> (index 2) as a
; bitcast int4.
source_filename = "texture_cube"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare <4 x i32> @air.read_texture_cube.u.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32, i32)
declare i32 @air.get_width_texture_cube(ptr addrspace(1) nocapture readonly, i32)
declare void @air.write_texture_cube.u.v4i32(ptr addrspace(1) nocapture, <2 x i32>, i32, <4 x i32>, i32, i32)
declare void @air.write_texture_3d.s.v4i32(ptr addrspace(1) nocapture, <3 x i32>, <4 x i32>, i32, i32)

define void @cubecopy(ptr addrspace(1) %src, ptr addrspace(1) %dst, ptr addrspace(1) %vol, <2 x i32> %gid) {
entry:
  %t = call <4 x i32> @air.read_texture_cube.u.v4i32(ptr addrspace(1) %src, <2 x i32> %gid, i32 3, i32 0, i32 1)
  %w = call i32 @air.get_width_texture_cube(ptr addrspace(1) %src, i32 0)
  %v = insertelement <4 x i32> %t, i32 %w, i32 3
  call void @air.write_texture_cube.u.v4i32(ptr addrspace(1) %dst, <2 x i32> %gid, i32 5, <4 x i32> %v, i32 0, i32 2)
  %c3 = shufflevector <2 x i32> %gid, <2 x i32> zeroinitializer, <3 x i32> <i32 0, i32 1, i32 2>
  call void @air.write_texture_3d.s.v4i32(ptr addrspace(1) %vol, <3 x i32> %c3, <4 x i32> %v, i32 0, i32 2)
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @cubecopy, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_name", !"texturecube<uint, read>", !"air.arg_name", !"src"}
!4 = !{i32 1, !"air.texture", !"air.location_index", i32 1, i32 1, !"air.write", !"air.arg_type_name", !"texturecube<uint, write>", !"air.arg_name", !"dst"}
!5 = !{i32 2, !"air.texture", !"air.location_index", i32 2, i32 1, !"air.write", !"air.arg_type_name", !"texture3d<int, write>", !"air.arg_name", !"vol"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

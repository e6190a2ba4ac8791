; translate writable-texture fixture: a kernel reading a texture2d<uint, read_write> (index 1) at
; its thread position (x, y), adding (x, y, 100, 0) and writing the sum back to the same texel.
source_filename = "storage_read_write"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)
declare void @air.write_texture_2d.u.v4i32(ptr addrspace(1) nocapture, <2 x i32>, <4 x i32>, i32, i32)

define void @rwtex(ptr addrspace(1) %tex, <2 x i32> %gid) {
entry:
  %x = extractelement <2 x i32> %gid, i32 0
  %y = extractelement <2 x i32> %gid, i32 1
  %r = call { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) %tex, <2 x i32> %gid, i32 0, i32 3)
  %t = extractvalue { <4 x i32>, i8 } %r, 0
  %d0 = insertelement <4 x i32> <i32 0, i32 0, i32 100, i32 0>, i32 %x, i32 0
  %d = insertelement <4 x i32> %d0, i32 %y, i32 1
  %s = add <4 x i32> %t, %d
  call void @air.write_texture_2d.u.v4i32(ptr addrspace(1) %tex, <2 x i32> %gid, <4 x i32> %s, i32 0, i32 3)
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @rwtex, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_name", !"texture2d<uint, read_write>", !"air.arg_name", !"tex"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

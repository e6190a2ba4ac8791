; cpuref writable-texture fixture: one kernel writing a texture1d<uint, write> (index 3), a
; texture2d_array<int, read_write> (index 4, one layer) and a texture3d<float, write>
; (index 5). At thread position (x, y):
;   1D:       when y == 0, write (x, y, 2, 3) at x
;   2D array: read (x, y) in layer 0, add (x, y, 0, 0), write it back
;   3D:       write (x, y, 2, 1) as floats at (x, y, 2)
source_filename = "storage_dims"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare void @air.write_texture_1d.u.v4i32(ptr addrspace(1) nocapture, i32, <4 x i32>, i32, i32)
declare { <4 x i32>, i8 } @air.read_texture_2d_array.s.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32, i32)
declare void @air.write_texture_2d_array.s.v4i32(ptr addrspace(1) nocapture, <2 x i32>, i32, <4 x i32>, i32, i32)
declare void @air.write_texture_3d.v4f32(ptr addrspace(1) nocapture, <3 x i32>, <4 x float>, i32, i32)

define void @dims(ptr addrspace(1) %t1, ptr addrspace(1) %ta, ptr addrspace(1) %t3, <2 x i32> %gid) {
entry:
  %x = extractelement <2 x i32> %gid, i32 0
  %y = extractelement <2 x i32> %gid, i32 1
  %first = icmp eq i32 %y, 0
  br i1 %first, label %line, label %rest

line:
  %u0 = insertelement <4 x i32> <i32 0, i32 1, i32 2, i32 3>, i32 %x, i32 0
  %u = insertelement <4 x i32> %u0, i32 %y, i32 1
  call void @air.write_texture_1d.u.v4i32(ptr addrspace(1) %t1, i32 %x, <4 x i32> %u, i32 0, i32 2)
  br label %rest

rest:
  %r = call { <4 x i32>, i8 } @air.read_texture_2d_array.s.v4i32(ptr addrspace(1) %ta, <2 x i32> %gid, i32 0, i32 0, i32 3)
  %t = extractvalue { <4 x i32>, i8 } %r, 0
  %d0 = insertelement <4 x i32> zeroinitializer, i32 %x, i32 0
  %d = insertelement <4 x i32> %d0, i32 %y, i32 1
  %s = add <4 x i32> %t, %d
  call void @air.write_texture_2d_array.s.v4i32(ptr addrspace(1) %ta, <2 x i32> %gid, i32 0, <4 x i32> %s, i32 0, i32 3)
  %c0 = insertelement <3 x i32> <i32 0, i32 0, i32 2>, i32 %x, i32 0
  %c = insertelement <3 x i32> %c0, i32 %y, i32 1
  %xf = uitofp i32 %x to float
  %yf = uitofp i32 %y to float
  %f0 = insertelement <4 x float> <float 0.0, float 0.0, float 2.0, float 1.0>, float %xf, i32 0
  %f = insertelement <4 x float> %f0, float %yf, i32 1
  call void @air.write_texture_3d.v4f32(ptr addrspace(1) %t3, <3 x i32> %c, <4 x float> %f, i32 0, i32 2)
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @dims, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 3, i32 1, !"air.write", !"air.arg_type_name", !"texture1d<uint, write>", !"air.arg_name", !"t1"}
!4 = !{i32 1, !"air.texture", !"air.location_index", i32 4, i32 1, !"air.read_write", !"air.arg_type_name", !"texture2d_array<int, read_write>", !"air.arg_name", !"ta"}
!5 = !{i32 2, !"air.texture", !"air.location_index", i32 5, i32 1, !"air.write", !"air.arg_type_name", !"texture3d<float, write>", !"air.arg_name", !"t3"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

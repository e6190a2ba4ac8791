; emulator fixture: a kernel writing two cube textures (texturecube<float, write> at index 0,
; texturecube<int, write> at index 2; 4×4 texels a face). Thread (x, y) of the 4×4 grid writes
; float texel (x, y, face, 0.5) to face (x + 2y) mod 6 of texture 0, and int texel
; (x, y, face, -7) to face (x + 2y + 3) mod 6 of texture 2; every other texel keeps the
; contract's value, and both textures are read back and compared face by face.
source_filename = "texture_cube_write"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare void @air.write_texture_cube.v4f32(ptr addrspace(1) nocapture, <2 x i32>, i32, <4 x float>, i32, i32)
declare void @air.write_texture_cube.s.v4i32(ptr addrspace(1) nocapture, <2 x i32>, i32, <4 x i32>, i32, i32)

define void @cube(ptr addrspace(1) %f, ptr addrspace(1) %i, <2 x i32> %gid) {
entry:
  %x = extractelement <2 x i32> %gid, i32 0
  %y = extractelement <2 x i32> %gid, i32 1
  %y2 = shl i32 %y, 1
  %s = add i32 %x, %y2
  %face = urem i32 %s, 6
  %s3 = add i32 %s, 3
  %face2 = urem i32 %s3, 6
  %xf = uitofp i32 %x to float
  %yf = uitofp i32 %y to float
  %ff = uitofp i32 %face to float
  %v0 = insertelement <4 x float> <float 0.0, float 0.0, float 0.0, float 0.5>, float %xf, i32 0
  %v1 = insertelement <4 x float> %v0, float %yf, i32 1
  %v2 = insertelement <4 x float> %v1, float %ff, i32 2
  call void @air.write_texture_cube.v4f32(ptr addrspace(1) %f, <2 x i32> %gid, i32 %face, <4 x float> %v2, i32 0, i32 2)
  %w0 = insertelement <4 x i32> <i32 0, i32 0, i32 0, i32 -7>, i32 %x, i32 0
  %w1 = insertelement <4 x i32> %w0, i32 %y, i32 1
  %w2 = insertelement <4 x i32> %w1, i32 %face2, i32 2
  call void @air.write_texture_cube.s.v4i32(ptr addrspace(1) %i, <2 x i32> %gid, i32 %face2, <4 x i32> %w2, i32 0, i32 2)
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @cube, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.write", !"air.arg_type_name", !"texturecube<float, write>", !"air.arg_name", !"f"}
!4 = !{i32 1, !"air.texture", !"air.location_index", i32 2, i32 1, !"air.write", !"air.arg_type_name", !"texturecube<int, write>", !"air.arg_name", !"i"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; emulator fixture (planted fault): read_sampler.ll with the texel's components
; swapped (x and y), as a wrong lowering of the Metal 4 read would hand on.
source_filename = "read_sampler"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare ptr addrspace(2) @air.get_read_sampler()
declare { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2), <2 x i32>, <2 x i32>, i32, i32)
declare { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) nocapture readonly, ptr addrspace(2), <2 x i32>, <2 x i32>, i32, i32)
declare <4 x i32> @air.convert.u.v4i32.f.v4f32(<4 x float>)

define void @read_sampler(ptr addrspace(1) %src, ptr addrspace(1) %isrc, ptr addrspace(1) noalias %out, <2 x i32> %gid) {
entry:
  %rs = call ptr addrspace(2) @air.get_read_sampler()
  %r = call { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) %src, ptr addrspace(2) %rs, <2 x i32> %gid, <2 x i32> zeroinitializer, i32 0, i32 1)
  %tf = extractvalue { <4 x float>, i8 } %r, 0
  %t = shufflevector <4 x float> %tf, <4 x float> poison, <4 x i32> <i32 1, i32 0, i32 2, i32 3>
  %ri = call { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) %isrc, ptr addrspace(2) %rs, <2 x i32> %gid, <2 x i32> zeroinitializer, i32 0, i32 1)
  %ti = extractvalue { <4 x i32>, i8 } %ri, 0
  %tc = bitcast <4 x float> %t to <4 x i32>
  %x = extractelement <2 x i32> %gid, i64 0
  %y = extractelement <2 x i32> %gid, i64 1
  %y4 = shl i32 %y, 2
  %lin = add i32 %y4, %x
  %l2 = shl i32 %lin, 1
  %iz = zext i32 %l2 to i64
  %p = getelementptr inbounds <4 x i32>, ptr addrspace(1) %out, i64 %iz
  store <4 x i32> %tc, ptr addrspace(1) %p, align 16
  %p1 = getelementptr inbounds <4 x i32>, ptr addrspace(1) %p, i64 1
  store <4 x i32> %ti, ptr addrspace(1) %p1, align 16
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 8, i32 0}
!91 = !{!"Metal", i32 4, i32 0, i32 0}
!0 = !{ptr @read_sampler, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<float, read>", !"air.arg_name", !"src"}
!4 = !{i32 1, !"air.texture", !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<uint, read>", !"air.arg_name", !"isrc"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"uint4", !"air.arg_name", !"out"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}

; A vertex shader: a stage_in attribute and vertex_id in, a constant matrix,
; position, point size, a clip distance and one varying out.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%"struct.metal::matrix" = type { [4 x <4 x float>] }

define <{ <4 x float>, float, <2 x float>, float }> @vert(<2 x float> %pos, i32 %vid, ptr addrspace(2) %mvp) {
  %c0 = getelementptr %"struct.metal::matrix", ptr addrspace(2) %mvp, i64 0, i32 0, i64 0
  %c1 = getelementptr %"struct.metal::matrix", ptr addrspace(2) %mvp, i64 0, i32 0, i64 1
  %c3 = getelementptr %"struct.metal::matrix", ptr addrspace(2) %mvp, i64 0, i32 0, i64 3
  %m0 = load <4 x float>, ptr addrspace(2) %c0, align 16
  %m1 = load <4 x float>, ptr addrspace(2) %c1, align 16
  %m3 = load <4 x float>, ptr addrspace(2) %c3, align 16
  %x = shufflevector <2 x float> %pos, <2 x float> undef, <4 x i32> zeroinitializer
  %y = shufflevector <2 x float> %pos, <2 x float> undef, <4 x i32> <i32 1, i32 1, i32 1, i32 1>
  %t0 = fmul fast <4 x float> %m0, %x
  %t1 = fmul fast <4 x float> %m1, %y
  %t2 = fadd fast <4 x float> %t0, %t1
  %p = fadd fast <4 x float> %t2, %m3
  %vf = uitofp i32 %vid to float
  %uv0 = insertelement <2 x float> undef, float %vf, i32 0
  %uv = insertelement <2 x float> %uv0, float 1.0, i32 1
  %r0 = insertvalue <{ <4 x float>, float, <2 x float>, float }> undef, <4 x float> %p, 0
  %r1 = insertvalue <{ <4 x float>, float, <2 x float>, float }> %r0, float 1.0, 1
  %r2 = insertvalue <{ <4 x float>, float, <2 x float>, float }> %r1, <2 x float> %uv, 2
  %r3 = insertvalue <{ <4 x float>, float, <2 x float>, float }> %r2, float %vf, 3
  ret <{ <4 x float>, float, <2 x float>, float }> %r3
}

!air.vertex = !{!0}
!0 = !{ptr @vert, !1, !5}
!1 = !{!2, !3, !4, !9}
!2 = !{!"air.position", !"air.arg_type_name", !"float4", !"air.arg_name", !"position"}
!3 = !{!"air.point_size", !"air.arg_type_name", !"float", !"air.arg_name", !"size"}
!4 = !{!"air.vertex_output", !"generated(2uv)", !"air.arg_type_name", !"float2", !"air.arg_name", !"uv"}
!5 = !{!6, !7, !8}
!6 = !{i32 0, !"air.vertex_input", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"float2", !"air.arg_name", !"pos"}
!7 = !{i32 1, !"air.vertex_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"vid"}
!8 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 64, !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_size", i32 64, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4x4", !"air.arg_name", !"mvp"}
!9 = !{!"air.clip_distance", !"air.arg_type_name", !"float", !"air.arg_name", !"clip"}

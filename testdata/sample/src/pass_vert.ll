; airpipe sample: a vertex shader passing a position through.
source_filename = "pass"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <4 x float> @pass_vertex(ptr addrspace(2) noalias %positions, i32 %vid) {
entry:
  %i = zext i32 %vid to i64
  %p = getelementptr inbounds <4 x float>, ptr addrspace(2) %positions, i64 %i
  %v = load <4 x float>, ptr addrspace(2) %p, align 16
  ret <4 x float> %v
}

!air.vertex = !{!0}
!air.version = !{!6}
!air.language_version = !{!7}
!0 = !{ptr @pass_vertex, !1, !3}
!1 = !{!2}
!2 = !{!"air.position", !"air.arg_type_name", !"float4", !"air.arg_name", !"position"}
!3 = !{!4, !5}
!4 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4", !"air.arg_name", !"positions"}
!5 = !{i32 1, !"air.vertex_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"vid"}
!6 = !{i32 2, i32 6, i32 0}
!7 = !{!"Metal", i32 3, i32 0, i32 0}

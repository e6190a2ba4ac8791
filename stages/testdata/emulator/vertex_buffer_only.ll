; A vertex function that returns nothing and writes a device buffer: out[vid] = a.x * 2 + vid,
; from a vertex attribute and the vertex id. Run without transform feedback (no outputs).
source_filename = "vertex_buffer_only"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @vert(i32 %vid, <4 x float> %a, ptr addrspace(1) noalias %out) {
entry:
  %x = extractelement <4 x float> %a, i32 0
  %x2 = fmul float %x, 2.0
  %vf = uitofp i32 %vid to float
  %r = fadd float %x2, %vf
  %i = zext i32 %vid to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

!air.vertex = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @vert, !1, !4}
!1 = !{}
!4 = !{!5, !6, !7}
!5 = !{i32 0, !"air.vertex_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"vid"}
!6 = !{i32 1, !"air.vertex_input", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"float4", !"air.arg_name", !"a"}
!7 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

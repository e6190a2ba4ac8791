; cpuref vertex fixture: position = a + (vid, iid, 0, 0); out 1 (half2) = h * 2; out 2 (uint) =
; buf[vid], from two vertex attributes, vertex and instance ids and a constant buffer.
source_filename = "vertex"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.V = type { <4 x float>, <2 x half>, i32 }

define %struct.V @vert(i32 %vid, <4 x float> %a, <2 x half> %h, ptr addrspace(2) noalias %buf, i32 %iid) {
entry:
  %vf = uitofp i32 %vid to float
  %if = uitofp i32 %iid to float
  %d0 = insertelement <4 x float> zeroinitializer, float %vf, i32 0
  %d1 = insertelement <4 x float> %d0, float %if, i32 1
  %pos = fadd <4 x float> %a, %d1
  %h2 = fmul <2 x half> %h, <half 0xH4000, half 0xH4000>
  %i = zext i32 %vid to i64
  %p = getelementptr inbounds i32, ptr addrspace(2) %buf, i64 %i
  %w = load i32, ptr addrspace(2) %p, align 4
  %r0 = insertvalue %struct.V undef, <4 x float> %pos, 0
  %r1 = insertvalue %struct.V %r0, <2 x half> %h2, 1
  %r2 = insertvalue %struct.V %r1, i32 %w, 2
  ret %struct.V %r2
}

!air.vertex = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @vert, !1, !5}
!1 = !{!2, !3, !4}
!2 = !{!"air.position", !"air.arg_type_name", !"float4", !"air.arg_name", !"pos"}
!3 = !{!"air.vertex_output", !"generated(1h)", !"air.arg_type_name", !"half2", !"air.arg_name", !"h"}
!4 = !{!"air.vertex_output", !"generated(1w)", !"air.arg_type_name", !"uint", !"air.arg_name", !"w"}
!5 = !{!6, !7, !8, !9, !10}
!6 = !{i32 0, !"air.vertex_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"vid"}
!7 = !{i32 1, !"air.vertex_input", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"float4", !"air.arg_name", !"a"}
!8 = !{i32 2, !"air.vertex_input", !"air.location_index", i32 3, i32 1, !"air.arg_type_name", !"half2", !"air.arg_name", !"h"}
!9 = !{i32 3, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_name", !"buf"}
!10 = !{i32 4, !"air.instance_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"iid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

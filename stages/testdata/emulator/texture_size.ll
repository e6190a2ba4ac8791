; emulator fixture: a kernel querying a 2D array texture's size (index 2, read access) and a
; 2D texture's (index 0, sample access): out[tid] = w0 + 16·h0 + 256·w2 + 4096·layers2 +
; 65536·mips0.
source_filename = "texture_size"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i32 @air.get_width_texture_2d(ptr addrspace(1) nocapture readonly, i32)
declare i32 @air.get_height_texture_2d(ptr addrspace(1) nocapture readonly, i32)
declare i32 @air.get_num_mip_levels_texture_2d(ptr addrspace(1) nocapture readonly)
declare i32 @air.get_width_texture_2d_array(ptr addrspace(1) nocapture readonly, i32)
declare i32 @air.get_array_size_texture_2d_array(ptr addrspace(1) nocapture readonly)

define void @sizes(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %out, i32 %tid) {
entry:
  %w0 = call i32 @air.get_width_texture_2d(ptr addrspace(1) %a, i32 0)
  %h0 = call i32 @air.get_height_texture_2d(ptr addrspace(1) %a, i32 0)
  %m0 = call i32 @air.get_num_mip_levels_texture_2d(ptr addrspace(1) %a)
  %w2 = call i32 @air.get_width_texture_2d_array(ptr addrspace(1) %b, i32 0)
  %l2 = call i32 @air.get_array_size_texture_2d_array(ptr addrspace(1) %b)
  %h16 = mul i32 %h0, 16
  %w256 = mul i32 %w2, 256
  %l4096 = mul i32 %l2, 4096
  %m65536 = mul i32 %m0, 65536
  %s1 = add i32 %w0, %h16
  %s2 = add i32 %s1, %w256
  %s3 = add i32 %s2, %l4096
  %s4 = add i32 %s3, %m65536
  %i = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %s4, ptr addrspace(1) %p, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @sizes, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"a"}
!4 = !{i32 1, !"air.texture", !"air.location_index", i32 2, i32 1, !"air.read", !"air.arg_type_name", !"texture2d_array<float, read>", !"air.arg_name", !"b"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

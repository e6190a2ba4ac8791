; emulator fixture: a kernel reading Metal function constants (a bool held as i8, a float, a
; ushort held as i16, a half, an int; indices 0, 1, 3, 4, 5) and a constant global
; that is not listed in !air.function_constants (an ordinary constant), and
; writing them into a buffer.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@_Z4flag.MTL_FC_INIT_0_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, section "air.fc_initializer", align 1
@_Z5scale.MTL_FC_INIT_1_f = internal unnamed_addr addrspace(2) externally_initialized constant float undef, section "air.fc_initializer", align 4
@_Z5pitch.MTL_FC_INIT_3_t = internal unnamed_addr addrspace(2) externally_initialized constant i16 undef, align 2
@_Z1h.MTL_FC_INIT_4_Dh = internal unnamed_addr addrspace(2) externally_initialized constant half undef, align 2
@_Z5delta.MTL_FC_INIT_5_i = internal unnamed_addr addrspace(2) externally_initialized constant i32 undef, align 4
@plain = internal unnamed_addr addrspace(2) constant i32 7, align 4

define void @fc(ptr addrspace(1) %out, i32 %gid) {
  %b = load i8, ptr addrspace(2) @_Z4flag.MTL_FC_INIT_0_b, align 1, !range !10
  %flag = icmp ne i8 %b, 0
  %s = load float, ptr addrspace(2) @_Z5scale.MTL_FC_INIT_1_f, align 4
  %p = load i16, ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_3_t, align 2
  %pp = getelementptr i16, ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_3_t, i64 0
  %p2 = load i16, ptr addrspace(2) %pp, align 2
  %n = load i32, ptr addrspace(2) @plain, align 4
  %bz = zext i8 %b to i32
  %pz = zext i16 %p to i32
  %p2z = zext i16 %p2 to i32
  %sel = select i1 %flag, float %s, float -1.0
  %o1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  %o2 = getelementptr i32, ptr addrspace(1) %out, i64 2
  %o3 = getelementptr i32, ptr addrspace(1) %out, i64 3
  %o4 = getelementptr i32, ptr addrspace(1) %out, i64 4
  %o5 = getelementptr i32, ptr addrspace(1) %out, i64 5
  store i32 %bz, ptr addrspace(1) %out, align 4
  store float %s, ptr addrspace(1) %o1, align 4
  store i32 %pz, ptr addrspace(1) %o2, align 4
  store i32 %n, ptr addrspace(1) %o3, align 4
  store float %sel, ptr addrspace(1) %o4, align 4
  store i32 %p2z, ptr addrspace(1) %o5, align 4
  %h = load half, ptr addrspace(2) @_Z1h.MTL_FC_INIT_4_Dh, align 2
  %hf = fpext half %h to float
  %d = load i32, ptr addrspace(2) @_Z5delta.MTL_FC_INIT_5_i, align 4
  %o6 = getelementptr i32, ptr addrspace(1) %out, i64 6
  %o7 = getelementptr i32, ptr addrspace(1) %out, i64 7
  store float %hf, ptr addrspace(1) %o6, align 4
  store i32 %d, ptr addrspace(1) %o7, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @fc, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!air.function_constants = !{!5, !6, !7, !8, !9}
!5 = !{ptr addrspace(2) @_Z4flag.MTL_FC_INIT_0_b, !"bool", !"flag", i32 0, i1 true}
!6 = !{ptr addrspace(2) @_Z5scale.MTL_FC_INIT_1_f, !"float", !"scale", i32 1, i1 true}
!7 = !{ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_3_t, !"ushort", !"pitch", i32 3, i1 true}
!8 = !{ptr addrspace(2) @_Z1h.MTL_FC_INIT_4_Dh, !"half", !"h", i32 4, i1 true}
!9 = !{ptr addrspace(2) @_Z5delta.MTL_FC_INIT_5_i, !"int", !"delta", i32 5, i1 true}
!10 = !{i8 0, i8 2}

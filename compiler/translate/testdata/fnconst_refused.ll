; Function constants the translator refuses by name: a store to one, a
; vector one (float4), a load of another width, and its address escaping.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@_Z4flag.MTL_FC_INIT_0_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, align 1
@_Z3vec.MTL_FC_INIT_1_Dv4_f = internal unnamed_addr addrspace(2) externally_initialized constant <4 x float> undef, align 16
@_Z5pitch.MTL_FC_INIT_2_t = internal unnamed_addr addrspace(2) externally_initialized constant i16 undef, align 2

define void @store_fc(ptr addrspace(1) %out) {
  store i8 1, ptr addrspace(2) @_Z4flag.MTL_FC_INIT_0_b, align 1
  ret void
}

define void @vector_fc(ptr addrspace(1) %out) {
  %v = load <4 x float>, ptr addrspace(2) @_Z3vec.MTL_FC_INIT_1_Dv4_f, align 16
  store <4 x float> %v, ptr addrspace(1) %out, align 16
  ret void
}

define void @wide_fc(ptr addrspace(1) %out) {
  %v = load i32, ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_2_t, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

define void @escape_fc(ptr addrspace(1) %out, i32 %gid) {
  %c = icmp eq i32 %gid, 0
  %p = select i1 %c, ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_2_t, ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_2_t
  %v = load i16, ptr addrspace(2) %p, align 2
  store i16 %v, ptr addrspace(1) %out, align 2
  ret void
}

!air.kernel = !{!0, !20, !21, !22}
!0 = !{ptr @store_fc, !1, !2}
!20 = !{ptr @vector_fc, !1, !2}
!21 = !{ptr @wide_fc, !1, !2}
!22 = !{ptr @escape_fc, !1, !23}
!1 = !{}
!2 = !{!3}
!23 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!air.function_constants = !{!5, !6, !7}
!5 = !{ptr addrspace(2) @_Z4flag.MTL_FC_INIT_0_b, !"bool", !"flag", i32 0, i1 true}
!6 = !{ptr addrspace(2) @_Z3vec.MTL_FC_INIT_1_Dv4_f, !"float4", !"vec", i32 1, i1 true}
!7 = !{ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_2_t, !"ushort", !"pitch", i32 2, i1 true}

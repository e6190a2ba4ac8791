; A vector function constant whose storage is a static initialiser's global,
; as Apple's libraries spell it: constant uint4 shader_state
; [[function_constant(0)]] used to initialise a namespace-scope constant;
; the global constructor copies @..._shader_stateE.MTL_FC_INIT_0_Dv4_j into
; @_ZN4mtlk12shader_stateE, which the kernel reads lane by lane.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @_GLOBAL__sub_I_k.metal, ptr null }]
@_ZN4mtlk12shader_stateE = internal unnamed_addr addrspace(2) global <4 x i32> undef, align 16
@_ZN4mtlk12shader_stateE.MTL_FC_INIT_0_Dv4_j = internal unnamed_addr addrspace(2) externally_initialized constant <4 x i32> undef, align 16

define internal void @_GLOBAL__sub_I_k.metal() section "air.static_init" {
  %1 = load <4 x i32>, ptr addrspace(2) @_ZN4mtlk12shader_stateE.MTL_FC_INIT_0_Dv4_j, align 16
  store <4 x i32> %1, ptr addrspace(2) @_ZN4mtlk12shader_stateE, align 16
  ret void
}

define void @k(ptr addrspace(1) %out, i32 %tid) {
  %v = load <4 x i32>, ptr addrspace(2) @_ZN4mtlk12shader_stateE, align 16
  %lane = and i32 %tid, 3
  %x = extractelement <4 x i32> %v, i32 %lane
  %y = add i32 %x, %tid
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %y, ptr addrspace(1) %p, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!air.function_constants = !{!5}
!5 = !{ptr addrspace(2) @_ZN4mtlk12shader_stateE.MTL_FC_INIT_0_Dv4_j, !"uint4", !"shader_state", i32 0, i1 true}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}

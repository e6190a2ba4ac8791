; Metal's is_function_constant_defined on two function constants (a
; ushort, index 7, and a bool, index 40000): the kernel writes each flag and
; defined(pitch) ? pitch : 99. The reference gives every constant a value, so both
; flags are true; the device is specialised with the values and their defined flags.
; (The same as stages/testdata/emulator/fnconst_defined.ll, which executes it.)
source_filename = "fnconst_defined"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@_Z5pitch.MTL_FC_INIT_7_t = internal addrspace(2) externally_initialized constant i16 undef, section "air.fc_initializer", align 2
@_Z4fast.MTL_FC_INIT_40000_b = internal addrspace(2) externally_initialized constant i8 undef, section "air.fc_initializer", align 1

declare i1 @air.is_function_constant_defined(ptr addrspace(2) nocapture)

define void @fcd(ptr addrspace(1) %out, i32 %gid) {
  %dp = call i1 @air.is_function_constant_defined(ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_7_t)
  %df = call i1 @air.is_function_constant_defined(ptr addrspace(2) @_Z4fast.MTL_FC_INIT_40000_b)
  %p = load i16, ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_7_t, align 2
  %pz = zext i16 %p to i32
  %v = select i1 %dp, i32 %pz, i32 99
  %dpz = zext i1 %dp to i32
  %dfz = zext i1 %df to i32
  %o1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  %o2 = getelementptr i32, ptr addrspace(1) %out, i64 2
  store i32 %v, ptr addrspace(1) %out, align 4
  store i32 %dpz, ptr addrspace(1) %o1, align 4
  store i32 %dfz, ptr addrspace(1) %o2, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @fcd, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!air.function_constants = !{!5, !6}
!5 = !{ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_7_t, !"ushort", !"pitch", i32 7, i1 true}
!6 = !{ptr addrspace(2) @_Z4fast.MTL_FC_INIT_40000_b, !"bool", !"fast", i32 40000, i1 true}

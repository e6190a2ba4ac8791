; Metal's `constant ushort pitch = pitch_fc;` and a function-constant
; predicate: a global constructor (@llvm.global_ctors, section
; air.static_init) copies the function constants into mutable addrspace(2)
; globals, which the kernel reads.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @_GLOBAL__sub_I_k.metal, ptr null }]
@_ZL5pitch = internal unnamed_addr addrspace(2) global i16 undef, align 2
@pred = internal unnamed_addr addrspace(2) global i8 undef, align 1
@_Z5pitch.MTL_FC_INIT_0_t = internal unnamed_addr addrspace(2) externally_initialized constant i16 undef, align 2
@_Z2on.MTL_FC_INIT_2_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, align 1

define internal void @_GLOBAL__sub_I_k.metal() section "air.static_init" {
  %1 = load i16, ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_0_t, align 2
  store i16 %1, ptr addrspace(2) @_ZL5pitch, align 2
  %2 = load i8, ptr addrspace(2) @_Z2on.MTL_FC_INIT_2_b, align 1
  %3 = xor i8 %2, 1
  %4 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %3)
  store i8 %4, ptr addrspace(2) @pred, align 1
  ret void
}

declare i8 @air.normalize_function_constant_predicate.i8(i8)

define void @k(ptr addrspace(1) %out) {
  %p = load i16, ptr addrspace(2) @_ZL5pitch, align 2
  %q = load i8, ptr addrspace(2) @pred, align 1
  %pz = zext i16 %p to i32
  %qz = zext i8 %q to i32
  %o1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %pz, ptr addrspace(1) %out, align 4
  store i32 %qz, ptr addrspace(1) %o1, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!air.function_constants = !{!5, !6}
!5 = !{ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_0_t, !"ushort", !"pitch", i32 0, i1 true}
!6 = !{ptr addrspace(2) @_Z2on.MTL_FC_INIT_2_b, !"bool", !"on", i32 2, i1 true}

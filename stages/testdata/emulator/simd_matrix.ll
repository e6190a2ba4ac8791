; emulator fixture: SIMD-group matrices (MSL §6.7). Each threadgroup fills
; A (8×8 floats, (5i mod 7) − 3) and B (8×8 halves, (i mod 5) − 2) in
; threadgroup memory; then d = A·Bᵀ + 0.5 (B loaded transposed, a half
; operand of a float product) is stored at 10 elements per row, e = B·B
; (half) stored transposed, and the device matrix X (half, the input's
; bits) is copied transposed to G. Every simdgroup computes and stores the
; same matrices.
source_filename = "simd_matrix"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@ta = internal addrspace(3) global [64 x float] undef, align 4
@tb = internal addrspace(3) global [64 x half] undef, align 2

declare void @air.wg.barrier(i32, i32)
declare <64 x float> @air.simdgroup_matrix_8x8_load.v64f32.p3f32(ptr addrspace(3) nocapture readonly, i64, <2 x i64>, i1)
declare <64 x half> @air.simdgroup_matrix_8x8_load.v64f16.p3f16(ptr addrspace(3) nocapture readonly, i64, <2 x i64>, i1)
declare <64 x half> @air.simdgroup_matrix_8x8_load.v64f16.p1f16(ptr addrspace(1) nocapture readonly, i64, <2 x i64>, i1)
declare <64 x float> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f32.v64f16.v64f32(<64 x float>, <64 x half>, <64 x float>)
declare <64 x half> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f16.v64f16.v64f16.v64f16(<64 x half>, <64 x half>, <64 x half>)
declare void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float>, ptr addrspace(1) nocapture writeonly, i64, <2 x i64>, i1)
declare void @air.simdgroup_matrix_8x8_store.v64f16.p1f16(<64 x half>, ptr addrspace(1) nocapture writeonly, i64, <2 x i64>, i1)

define void @matrices(ptr addrspace(1) %X, ptr addrspace(1) %D, ptr addrspace(1) %E, ptr addrspace(1) %G, i32 %lid) {
  call void @fill(i32 %lid)
  %hi = add i32 %lid, 32
  call void @fill(i32 %hi)
  call void @air.wg.barrier(i32 2, i32 1)
  %a = tail call <64 x float> @air.simdgroup_matrix_8x8_load.v64f32.p3f32(ptr addrspace(3) @ta, i64 8, <2 x i64> zeroinitializer, i1 false)
  %b = tail call <64 x half> @air.simdgroup_matrix_8x8_load.v64f16.p3f16(ptr addrspace(3) @tb, i64 8, <2 x i64> zeroinitializer, i1 true)
  %d = tail call <64 x float> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f32.v64f16.v64f32(<64 x float> %a, <64 x half> %b, <64 x float> <float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5>)
  tail call void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float> %d, ptr addrspace(1) %D, i64 10, <2 x i64> zeroinitializer, i1 false)
  %h = tail call <64 x half> @air.simdgroup_matrix_8x8_load.v64f16.p3f16(ptr addrspace(3) @tb, i64 8, <2 x i64> zeroinitializer, i1 false)
  %e = tail call <64 x half> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f16.v64f16.v64f16.v64f16(<64 x half> %h, <64 x half> %h, <64 x half> zeroinitializer)
  tail call void @air.simdgroup_matrix_8x8_store.v64f16.p1f16(<64 x half> %e, ptr addrspace(1) %E, i64 8, <2 x i64> zeroinitializer, i1 true)
  %x = tail call <64 x half> @air.simdgroup_matrix_8x8_load.v64f16.p1f16(ptr addrspace(1) %X, i64 8, <2 x i64> zeroinitializer, i1 false)
  tail call void @air.simdgroup_matrix_8x8_store.v64f16.p1f16(<64 x half> %x, ptr addrspace(1) %G, i64 8, <2 x i64> zeroinitializer, i1 true)
  ret void
}

; fill writes A[i] = (5i mod 7) - 3 and B[i] = (i mod 5) - 2.
define internal void @fill(i32 %i) {
  %i64 = zext i32 %i to i64
  %m5 = mul i32 %i, 5
  %r7 = urem i32 %m5, 7
  %s7 = sub i32 %r7, 3
  %fa = sitofp i32 %s7 to float
  %pa = getelementptr [64 x float], ptr addrspace(3) @ta, i64 0, i64 %i64
  store float %fa, ptr addrspace(3) %pa, align 4
  %r5 = urem i32 %i, 5
  %s5 = sub i32 %r5, 2
  %fb = sitofp i32 %s5 to half
  %pb = getelementptr [64 x half], ptr addrspace(3) @tb, i64 0, i64 %i64
  store half %fb, ptr addrspace(3) %pb, align 2
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @matrices, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"half", !"air.arg_name", !"X"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"D"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"half", !"air.arg_name", !"E"}
!6 = !{i32 3, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"half", !"air.arg_name", !"G"}
!7 = !{i32 4, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

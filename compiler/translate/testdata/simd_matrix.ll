; SIMD-group matrices (MSL §6.7): a = load(A, 8), b = transposed load of
; half B (elements per row 12), d = a·b + 0.5 (float product of a half
; operand), stored at stride 10; e = h·h for the half matrix h = load(B, 12),
; stored transposed; f = a·a + a, passed through a phi and a select, stored to
; threadgroup memory and copied out, one word by each of threads 0 to 63.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare <64 x float> @air.simdgroup_matrix_8x8_load.v64f32.p1f32(ptr addrspace(1), i64, <2 x i64>, i1)
declare <64 x half> @air.simdgroup_matrix_8x8_load.v64f16.p1f16(ptr addrspace(1), i64, <2 x i64>, i1)
declare <64 x float> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f32.v64f16.v64f32(<64 x float>, <64 x half>, <64 x float>)
declare <64 x float> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f32.v64f32.v64f32(<64 x float>, <64 x float>, <64 x float>)
declare <64 x half> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f16.v64f16.v64f16.v64f16(<64 x half>, <64 x half>, <64 x half>)
declare void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float>, ptr addrspace(1), i64, <2 x i64>, i1)
declare void @air.simdgroup_matrix_8x8_store.v64f16.p1f16(<64 x half>, ptr addrspace(1), i64, <2 x i64>, i1)
declare void @air.simdgroup_matrix_8x8_store.v64f32.p3f32(<64 x float>, ptr addrspace(3), i64, <2 x i64>, i1)
declare void @air.wg.barrier(i32, i32)

@tile = internal addrspace(3) global [64 x float] undef, align 4

define void @matrices(ptr addrspace(1) %A, ptr addrspace(1) %B, ptr addrspace(1) %D, ptr addrspace(1) %E, ptr addrspace(1) %F, i32 %tid, ptr addrspace(1) %N) {
entry:
  %n = load i32, ptr addrspace(1) %N, align 4
  %a = call <64 x float> @air.simdgroup_matrix_8x8_load.v64f32.p1f32(ptr addrspace(1) %A, i64 8, <2 x i64> zeroinitializer, i1 false)
  %wide = zext i32 %n to i64
  %stride = add i64 %wide, 4
  %b = call <64 x half> @air.simdgroup_matrix_8x8_load.v64f16.p1f16(ptr addrspace(1) %B, i64 %stride, <2 x i64> zeroinitializer, i1 true)
  %d = call <64 x float> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f32.v64f16.v64f32(<64 x float> %a, <64 x half> %b, <64 x float> <float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5, float 0.5>)
  call void @air.simdgroup_matrix_8x8_store.v64f32.p1f32(<64 x float> %d, ptr addrspace(1) %D, i64 10, <2 x i64> zeroinitializer, i1 false)
  %h = call <64 x half> @air.simdgroup_matrix_8x8_load.v64f16.p1f16(ptr addrspace(1) %B, i64 %stride, <2 x i64> zeroinitializer, i1 false)
  %e = call <64 x half> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f16.v64f16.v64f16.v64f16(<64 x half> %h, <64 x half> %h, <64 x half> zeroinitializer)
  call void @air.simdgroup_matrix_8x8_store.v64f16.p1f16(<64 x half> %e, ptr addrspace(1) %E, i64 8, <2 x i64> zeroinitializer, i1 true)
  %big = icmp ugt i32 %n, 100
  br i1 %big, label %other, label %join
other:
  br label %join
join:
  %c0 = phi <64 x float> [ %a, %entry ], [ zeroinitializer, %other ]
  %c = select i1 %big, <64 x float> zeroinitializer, <64 x float> %c0
  %f = call <64 x float> @air.simdgroup_matrix_8x8_multiply_accumulate.v64f32.v64f32.v64f32.v64f32(<64 x float> %a, <64 x float> %a, <64 x float> %c)
  call void @air.simdgroup_matrix_8x8_store.v64f32.p3f32(<64 x float> %f, ptr addrspace(3) @tile, i64 8, <2 x i64> zeroinitializer, i1 false)
  call void @air.wg.barrier(i32 2, i32 1)
  %first = icmp ult i32 %tid, 64
  br i1 %first, label %copy, label %done
copy:
  %i = zext i32 %tid to i64
  %src = getelementptr [64 x float], ptr addrspace(3) @tile, i64 0, i64 %i
  %v = load float, ptr addrspace(3) %src, align 4
  %dst = getelementptr float, ptr addrspace(1) %F, i64 %i
  store float %v, ptr addrspace(1) %dst, align 4
  br label %done
done:
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @matrices, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8, !9}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"A"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"half", !"air.arg_name", !"B"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"D"}
!6 = !{i32 3, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read_write", !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"half", !"air.arg_name", !"E"}
!7 = !{i32 4, !"air.buffer", !"air.location_index", i32 4, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"F"}
!8 = !{i32 5, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!9 = !{i32 6, !"air.buffer", !"air.location_index", i32 5, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"N"}

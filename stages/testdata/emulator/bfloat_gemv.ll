; emulator fixture, the shape of MLX's gemv axpby kernels on bfloat: row i of
; a 4-column bfloat matrix times a bfloat vector, summed in float with
; llvm.fmuladd.f32, then y[i] = alpha·sum + beta·y[i] as bfloat, the last
; step an llvm.fmuladd.bf16 (fused or not, at the code generator's choice;
; the translation computes it unfused, as the reference does). Every input
; is first made a finite bfloat or float in ±[0.5, 1) (sign and fraction of
; the pattern word, exponent -1), so the outputs are finite.
source_filename = "bfloat_gemv"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @bfloat_gemv(ptr addrspace(1) noalias %mat, ptr addrspace(1) noalias %vec, ptr addrspace(1) noalias %y, ptr addrspace(2) noalias %alpha, ptr addrspace(2) noalias %beta, i32 %gid) {
entry:
  %row = mul i32 %gid, 4
  br label %loop

loop:
  %j = phi i32 [ 0, %entry ], [ %j1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %k = add i32 %row, %j
  %ki = zext i32 %k to i64
  %mp = getelementptr inbounds bfloat, ptr addrspace(1) %mat, i64 %ki
  %mraw = load i16, ptr addrspace(1) %mp, align 2
  %m = call bfloat @unit(i16 %mraw)
  %ji = zext i32 %j to i64
  %vp = getelementptr inbounds bfloat, ptr addrspace(1) %vec, i64 %ji
  %vraw = load i16, ptr addrspace(1) %vp, align 2
  %v = call bfloat @unit(i16 %vraw)
  %mf = fpext bfloat %m to float
  %vf = fpext bfloat %v to float
  %acc1 = call float @llvm.fmuladd.f32(float %mf, float %vf, float %acc)
  %j1 = add i32 %j, 1
  %done = icmp eq i32 %j1, 4
  br i1 %done, label %out, label %loop

out:
  %araw = load i32, ptr addrspace(2) %alpha, align 4
  %a = call float @unitf(i32 %araw)
  %braw = load i32, ptr addrspace(2) %beta, align 4
  %b = call float @unitf(i32 %braw)
  %abf = fptrunc float %a to bfloat
  %bbf = fptrunc float %b to bfloat
  %sbf = fptrunc float %acc1 to bfloat
  %i = zext i32 %gid to i64
  %yp = getelementptr inbounds bfloat, ptr addrspace(1) %y, i64 %i
  %yraw = load i16, ptr addrspace(1) %yp, align 2
  %yv = call bfloat @unit(i16 %yraw)
  %by = fmul bfloat %yv, %bbf
  %r = call bfloat @llvm.fmuladd.bf16(bfloat %abf, bfloat %sbf, bfloat %by)
  %rbits = bitcast bfloat %r to i16
  %res = bitcast i16 %rbits to bfloat
  store bfloat %res, ptr addrspace(1) %yp, align 2
  ret void
}

define internal bfloat @unit(i16 %x) {
  %s = and i16 %x, -32641
  %e = or i16 %s, 16128
  %f = bitcast i16 %e to bfloat
  ret bfloat %f
}

define internal float @unitf(i32 %x) {
  %s = and i32 %x, -2139095041
  %e = or i32 %s, 1056964608
  %f = bitcast i32 %e to float
  ret float %f
}

declare float @llvm.fmuladd.f32(float, float, float)
declare bfloat @llvm.fmuladd.bf16(bfloat, bfloat, bfloat)

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}
!92 = !{!"air.compile.fast_math_disable"}
!0 = !{ptr @bfloat_gemv, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"bfloat", !"air.arg_name", !"mat"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"bfloat", !"air.arg_name", !"vec"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"bfloat", !"air.arg_name", !"y"}
!6 = !{i32 3, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"alpha"}
!7 = !{i32 4, !"air.buffer", !"air.location_index", i32 4, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"beta"}
!8 = !{i32 5, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

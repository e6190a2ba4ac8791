; bfloat: float to bfloat rounding on its boundaries (ties to even both
; ways, just above and below a tie, overflow to infinity, subnormal ties,
; signed zero, NaNs quiet with their sign and high payload), widening back,
; arithmetic rounded once, negation, comparison and bfloat memory.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@bits = internal addrspace(2) constant [16 x i32] [i32 1065385984, i32 1065451520, i32 1065385985, i32 1065385983, i32 2139095039, i32 2139062271, i32 -8388608, i32 2143289345, i32 2139095041, i32 -6291456, i32 32768, i32 98304, i32 -2147483648, i32 8388607, i32 1065353216, i32 -1068953637]

define void @bfloat_round(ptr addrspace(1) %out, ptr addrspace(1) %mem, i32 %gid) {
  %k = and i32 %gid, 15
  %ki = zext i32 %k to i64
  %pb = getelementptr [16 x i32], ptr addrspace(2) @bits, i64 0, i64 %ki
  %b = load i32, ptr addrspace(2) %pb, align 4
  %x = bitcast i32 %b to float
  %h = fptrunc float %x to bfloat
  %hb = bitcast bfloat %h to i16
  %w = fpext bfloat %h to float
  %sq = fmul bfloat %h, %h
  %s3 = call bfloat @llvm.fmuladd.bf16(bfloat %h, bfloat 0xR3FC0, bfloat %sq)
  %ng = fneg bfloat %s3
  %lt = fcmp olt bfloat %ng, 0xR0000
  %i = zext i32 %gid to i64
  %o = getelementptr [4 x i32], ptr addrspace(1) %out, i64 %i
  %r0 = zext i16 %hb to i32
  store i32 %r0, ptr addrspace(1) %o, align 4
  %o1 = getelementptr i32, ptr addrspace(1) %o, i64 1
  %wb = bitcast float %w to i32
  store i32 %wb, ptr addrspace(1) %o1, align 4
  %o2 = getelementptr i32, ptr addrspace(1) %o, i64 2
  %lz = zext i1 %lt to i32
  store i32 %lz, ptr addrspace(1) %o2, align 4
  %m = getelementptr bfloat, ptr addrspace(1) %mem, i64 %i
  store bfloat %ng, ptr addrspace(1) %m, align 2
  %back = load bfloat, ptr addrspace(1) %m, align 2
  %bw = fpext bfloat %back to float
  %o3 = getelementptr i32, ptr addrspace(1) %o, i64 3
  store float %bw, ptr addrspace(1) %o3, align 4
  ret void
}

declare bfloat @llvm.fmuladd.bf16(bfloat, bfloat, bfloat)

!air.kernel = !{!0}
!0 = !{ptr @bfloat_round, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"bfloat", !"air.arg_name", !"mem"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

; llvm.fmuladd.bf16 on operands where fusing the multiply-add or not gives
; different bfloats (bfloat_test.go's bfloatMulAdd): thread i writes the
; result for row i of @ops, zero-extended to 32 bits.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@ops = internal addrspace(2) constant [8 x [3 x i16]] [[3 x i16] [i16 16257, i16 16320, i16 -16448], [3 x i16] [i16 16257, i16 16320, i16 -20352], [3 x i16] [i16 16257, i16 16320, i16 12416], [3 x i16] [i16 16257, i16 16320, i16 0], [3 x i16] [i16 16457, i16 -16311, i16 16672], [3 x i16] [i16 16256, i16 16256, i16 -16512], [3 x i16] [i16 32639, i16 16384, i16 0], [3 x i16] [i16 15872, i16 15872, i16 15360]]

define void @bfloat_muladd(ptr addrspace(1) %out, i32 %gid) {
  %i = zext i32 %gid to i64
  %pa = getelementptr [8 x [3 x i16]], ptr addrspace(2) @ops, i64 0, i64 %i, i64 0
  %pb = getelementptr [8 x [3 x i16]], ptr addrspace(2) @ops, i64 0, i64 %i, i64 1
  %pc = getelementptr [8 x [3 x i16]], ptr addrspace(2) @ops, i64 0, i64 %i, i64 2
  %a = load bfloat, ptr addrspace(2) %pa, align 2
  %b = load bfloat, ptr addrspace(2) %pb, align 2
  %c = load bfloat, ptr addrspace(2) %pc, align 2
  %r = call bfloat @llvm.fmuladd.bf16(bfloat %a, bfloat %b, bfloat %c)
  %rb = bitcast bfloat %r to i16
  %rw = zext i16 %rb to i32
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %rw, ptr addrspace(1) %o, align 4
  ret void
}

declare bfloat @llvm.fmuladd.bf16(bfloat, bfloat, bfloat)

!air.kernel = !{!0}
!0 = !{ptr @bfloat_muladd, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

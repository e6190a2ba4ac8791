; Float atomics and bit intrinsics the translator refuses by name: an order
; other than relaxed, a float minimum (no such Metal operation is lowered), a
; double add, an atomic on thread memory, a memset of a variable length and a
; funnel shift of a width SPIR-V has no integer for.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.atomic.global.add.f32(ptr addrspace(1), float, i32, i32, i1)
declare float @air.atomic.global.min.f32(ptr addrspace(1), float, i32, i32, i1)
declare double @air.atomic.global.add.f64(ptr addrspace(1), double, i32, i32, i1)
declare float @air.atomic.local.add.f32(ptr, float, i32, i32, i1)
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)
declare i128 @llvm.fshl.i128(i128, i128, i128)

define void @refused(ptr addrspace(1) %buf, i32 %tid) {
  %priv = alloca float, align 4
  %f = uitofp i32 %tid to float
  %a = call float @air.atomic.global.add.f32(ptr addrspace(1) %buf, float %f, i32 5, i32 2, i1 true)
  %m = call float @air.atomic.global.min.f32(ptr addrspace(1) %buf, float %a, i32 0, i32 2, i1 true)
  %d = call double @air.atomic.global.add.f64(ptr addrspace(1) %buf, double 1.0, i32 0, i32 2, i1 true)
  %p = call float @air.atomic.local.add.f32(ptr %priv, float %m, i32 0, i32 1, i1 true)
  %n = zext i32 %tid to i64
  call void @llvm.memset.p1.i64(ptr addrspace(1) %buf, i8 0, i64 %n, i1 false)
  %w = zext i32 %tid to i128
  %fs = call i128 @llvm.fshl.i128(i128 %w, i128 %w, i128 %w)
  %t = trunc i128 %fs to i32
  %u = fptoui float %p to i32
  %r = add i32 %t, %u
  store i32 %r, ptr addrspace(1) %buf, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @refused, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"buf"}
!4 = !{i32 1, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}

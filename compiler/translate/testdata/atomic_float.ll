; Every float atomic Metal has on device and threadgroup memory: fetch_add and
; fetch_sub (a compare-and-swap loop per operation and memory), exchange, load
; and store, and integer funnel shifts and saturating arithmetic (llvmbits.go).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@tg = internal addrspace(3) global [4 x float] undef, align 4

declare float @air.atomic.global.add.f32(ptr addrspace(1), float, i32, i32, i1)
declare float @air.atomic.global.sub.f32(ptr addrspace(1), float, i32, i32, i1)
declare float @air.atomic.global.xchg.f32(ptr addrspace(1), float, i32, i32, i1)
declare float @air.atomic.global.load.f32(ptr addrspace(1), i32, i32, i1)
declare void @air.atomic.global.store.f32(ptr addrspace(1), float, i32, i32, i1)
declare float @air.atomic.local.add.f32(ptr addrspace(3), float, i32, i32, i1)
declare float @air.atomic.local.sub.f32(ptr addrspace(3), float, i32, i32, i1)
declare float @air.atomic.local.load.f32(ptr addrspace(3), i32, i32, i1)
declare void @air.atomic.local.store.f32(ptr addrspace(3), float, i32, i32, i1)
declare void @air.wg.barrier(i32, i32)
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare <2 x i16> @llvm.fshr.v2i16(<2 x i16>, <2 x i16>, <2 x i16>)
declare i32 @llvm.usub.sat.i32(i32, i32)
declare i8 @llvm.sadd.sat.i8(i8, i8)

define void @atomics(ptr addrspace(1) %buf, ptr addrspace(1) %out, i32 %tid) {
  %f = uitofp i32 %tid to float
  %p1 = getelementptr inbounds float, ptr addrspace(1) %buf, i64 1
  %p2 = getelementptr inbounds float, ptr addrspace(1) %buf, i64 2
  %p3 = getelementptr inbounds float, ptr addrspace(1) %buf, i64 3
  %a = call float @air.atomic.global.add.f32(ptr addrspace(1) %buf, float %f, i32 0, i32 2, i1 true)
  %a2 = call float @air.atomic.global.add.f32(ptr addrspace(1) %p1, float %a, i32 0, i32 2, i1 true)
  %s = call float @air.atomic.global.sub.f32(ptr addrspace(1) %p1, float %f, i32 0, i32 2, i1 true)
  %x = call float @air.atomic.global.xchg.f32(ptr addrspace(1) %p2, float %s, i32 0, i32 2, i1 true)
  call void @air.atomic.global.store.f32(ptr addrspace(1) %p3, float %x, i32 0, i32 2, i1 true)
  %l = call float @air.atomic.global.load.f32(ptr addrspace(1) %p3, i32 0, i32 2, i1 true)
  %t1 = getelementptr inbounds [4 x float], ptr addrspace(3) @tg, i64 0, i64 1
  call void @air.atomic.local.store.f32(ptr addrspace(3) %t1, float 0.0, i32 0, i32 1, i1 true)
  call void @air.wg.barrier(i32 2, i32 1)
  %la = call float @air.atomic.local.add.f32(ptr addrspace(3) %t1, float %l, i32 0, i32 1, i1 true)
  %ls = call float @air.atomic.local.sub.f32(ptr addrspace(3) %t1, float %la, i32 0, i32 1, i1 true)
  call void @air.wg.barrier(i32 2, i32 1)
  %ll = call float @air.atomic.local.load.f32(ptr addrspace(3) %t1, i32 0, i32 1, i1 true)
  %sum = fadd float %ll, %ls
  store float %sum, ptr addrspace(1) %out, align 4
  %w = zext i32 %tid to i64
  %fs = call i64 @llvm.fshl.i64(i64 %w, i64 -1, i64 %w)
  %o1 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 1
  store i64 %fs, ptr addrspace(1) %o1, align 8
  %h = trunc i32 %tid to i16
  %hv0 = insertelement <2 x i16> undef, i16 %h, i64 0
  %hv = insertelement <2 x i16> %hv0, i16 7, i64 1
  %fr = call <2 x i16> @llvm.fshr.v2i16(<2 x i16> %hv, <2 x i16> <i16 1, i16 2>, <2 x i16> %hv)
  %o2 = getelementptr inbounds <2 x i16>, ptr addrspace(1) %out, i64 4
  store <2 x i16> %fr, ptr addrspace(1) %o2, align 4
  %us = call i32 @llvm.usub.sat.i32(i32 %tid, i32 5)
  %o3 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 5
  store i32 %us, ptr addrspace(1) %o3, align 4
  %b = trunc i32 %tid to i8
  %ss = call i8 @llvm.sadd.sat.i8(i8 %b, i8 100)
  %o4 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 24
  store i8 %ss, ptr addrspace(1) %o4, align 1
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @atomics, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"buf"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}

; emulator fixture: Metal's atomic<float> fetch_add and fetch_sub on device memory
; (air.atomic.global.{add,sub}.f32), 16 threads. Thread k adds 2^k to sum[0] and
; subtracts 2^k from diff[0]: every partial sum is an integer below 2^24, exact in
; any order, so the final words are 65535.0 and -65535.0 exactly when every add
; landed, and a lost one clears the bit of its thread (the pattern's first word,
; about 2e-18, is absorbed by the first add). Each thread also adds 1.0 to count[0]
; and stores 1.0 at seen[old & 15], old the value its fetch_add returned: the returns
; are 0..15 in some order when the adds are atomic, so every slot is written once
; whatever the order; a lost update leaves a duplicate (a write conflict in no
; correct run) and a slot keeping the pattern.
source_filename = "atomic_float"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.atomic.global.add.f32(ptr addrspace(1) nocapture, float, i32, i32, i1)
declare float @air.atomic.global.sub.f32(ptr addrspace(1) nocapture, float, i32, i32, i1)
declare float @air.convert.f.f32.u.i32(i32)
declare i32 @air.convert.u.i32.f.f32(float)

define void @atomic_float(ptr addrspace(1) noalias %sum, ptr addrspace(1) noalias %diff, ptr addrspace(1) noalias %count, ptr addrspace(1) noalias %seen, i32 %gid) {
entry:
  %bit = shl i32 1, %gid
  %p = call float @air.convert.f.f32.u.i32(i32 %bit)
  %a = call float @air.atomic.global.add.f32(ptr addrspace(1) %sum, float %p, i32 0, i32 2, i1 true)
  %s = call float @air.atomic.global.sub.f32(ptr addrspace(1) %diff, float %p, i32 0, i32 2, i1 true)
  %old = call float @air.atomic.global.add.f32(ptr addrspace(1) %count, float 1.0, i32 0, i32 2, i1 true)
  %n = call i32 @air.convert.u.i32.f.f32(float %old)
  %slot = and i32 %n, 15
  %i = zext i32 %slot to i64
  %q = getelementptr inbounds float, ptr addrspace(1) %seen, i64 %i
  store float 1.0, ptr addrspace(1) %q, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @atomic_float, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"sum"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"diff"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"count"}
!6 = !{i32 3, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"seen"}
!7 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

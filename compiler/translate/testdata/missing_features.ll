; A kernel with several things the translator lacks, to check that every
; one is reported, not just the first: two unknown air functions, a
; ptrtoint and an irreducible loop.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @lacking(ptr addrspace(1) %buf, i32 %gid) {
entry:
  %a = call float @air.fast_frobnicate.f32(float 1.0)
  %b = call i32 @air.mad_sat.u.i32(i32 %gid, i32 3, i32 4)
  %addr = ptrtoint ptr addrspace(1) %buf to i64
  %c = icmp eq i32 %b, 0
  br i1 %c, label %left, label %right

left:
  %l = phi i32 [ 0, %entry ], [ %r1, %right ]
  %l1 = add i32 %l, 1
  %lc = icmp ult i32 %l1, 8
  br i1 %lc, label %right, label %exit

right:
  %r = phi i32 [ 0, %entry ], [ %l1, %left ]
  %r1 = add i32 %r, 2
  %rc = icmp ult i32 %r1, 8
  br i1 %rc, label %left, label %exit

exit:
  ret void
}

declare float @air.fast_frobnicate.f32(float)
declare i32 @air.mad_sat.u.i32(i32, i32, i32)

!air.kernel = !{!0}
!0 = !{ptr @lacking, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"buf"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

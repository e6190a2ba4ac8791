; Control-flow shapes: nested ifs that join at one block (the structuriser
; splits the join), an early return, a loop with a break in its body and two
; back edges (folded into one latch), a select of pointers into one buffer,
; and an alignment test on a pointer (ptrtoint masked to its low bits).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @nested(ptr addrspace(1) %buf, i32 %gid) {
entry:
  %a = icmp ugt i32 %gid, 10
  br i1 %a, label %outer, label %join

outer:
  %b = icmp ugt i32 %gid, 20
  br i1 %b, label %inner, label %join

inner:
  %c = icmp eq i32 %gid, 25
  br i1 %c, label %early, label %join

early:
  ret void

join:
  %v = phi i32 [ 1, %entry ], [ 2, %outer ], [ 3, %inner ]
  br label %loop

loop:
  %i = phi i32 [ 0, %join ], [ %i1, %skip ], [ %i1, %cont ]
  %acc = phi i32 [ %v, %join ], [ %acc, %skip ], [ %acc2, %cont ]
  %i1 = add i32 %i, 1
  %big = icmp ugt i32 %acc, 1000
  br i1 %big, label %out, label %body

body:
  %odd = and i32 %i1, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %skip, label %cont

skip:
  br label %loop

cont:
  %acc2 = mul i32 %acc, 3
  %more = icmp ult i32 %i1, 16
  br i1 %more, label %loop, label %out

out:
  %r = phi i32 [ %acc, %loop ], [ %acc2, %cont ]
  %lo = getelementptr i32, ptr addrspace(1) %buf, i64 0
  %hi = getelementptr i32, ptr addrspace(1) %buf, i64 1
  %bit = and i32 %r, 1
  %even0 = icmp eq i32 %bit, 0
  %addr = ptrtoint ptr addrspace(1) %hi to i64
  %low = and i64 %addr, 15
  %aligned = icmp eq i64 %low, 0
  %even = or i1 %even0, %aligned
  %p = select i1 %even, ptr addrspace(1) %lo, ptr addrspace(1) %hi
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @nested, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"buf"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

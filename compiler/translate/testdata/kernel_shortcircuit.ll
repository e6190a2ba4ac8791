; `if (a || b) x = f(v); out = x` as LLVM lays it out: the then-block is
; entered from both tests, so the structuriser duplicates it, and the join's
; phi takes each copy's own value. A loop with a break and an early return
; gets one dispatch block for its two exits.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @shortcircuit(ptr addrspace(1) %buf, i32 %gid) {
entry:
  %p = getelementptr float, ptr addrspace(1) %buf, i32 %gid
  %v = load float, ptr addrspace(1) %p, align 4
  %a = fcmp ogt float %v, 1.0
  br i1 %a, label %then, label %test2

test2:
  %b = fcmp olt float %v, -1.0
  br i1 %b, label %then, label %join

then:
  %sq = fmul float %v, %v
  br label %join

join:
  %x = phi float [ %sq, %then ], [ %v, %test2 ]
  br label %loop

loop:
  %i = phi i32 [ 0, %join ], [ %i1, %next ]
  %acc = phi float [ %x, %join ], [ %acc1, %next ]
  %neg = fcmp olt float %acc, 0.0
  br i1 %neg, label %bail, label %body

body:
  %acc1 = fadd float %acc, 1.0
  %i1 = add i32 %i, 1
  %big = fcmp ogt float %acc1, 100.0
  br i1 %big, label %done, label %next

next:
  %more = icmp ult i32 %i1, 10
  br i1 %more, label %loop, label %done

done:
  %r = phi float [ %acc1, %body ], [ %acc1, %next ]
  store float %r, ptr addrspace(1) %p, align 4
  ret void

bail:
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @shortcircuit, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"buf"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

; Switches on every integer width: i64 (64-bit literals, a case above
; 2^32), i16 with a negative case (the selector widened unsigned) and i1.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @switch_widths(ptr addrspace(1) %out, i32 %gid) {
entry:
  %w = zext i32 %gid to i64
  %big = shl i64 %w, 32
  switch i64 %big, label %d64 [
    i64 0, label %zero
    i64 4294967296, label %one
  ]
zero:
  br label %j64
one:
  br label %j64
d64:
  br label %j64
j64:
  %a = phi i32 [ 10, %zero ], [ 20, %one ], [ 30, %d64 ]
  %h = trunc i32 %gid to i16
  %hn = sub i16 0, %h
  switch i16 %hn, label %d16 [
    i16 -1, label %m1
    i16 0, label %z16
  ]
m1:
  br label %j16
z16:
  br label %j16
d16:
  br label %j16
j16:
  %b = phi i32 [ 1, %m1 ], [ 2, %z16 ], [ 3, %d16 ]
  %odd = trunc i32 %gid to i1
  switch i1 %odd, label %even [
    i1 true, label %isodd
  ]
isodd:
  br label %done
even:
  br label %done
done:
  %c = phi i32 [ 100, %isodd ], [ 200, %even ]
  %ab = add i32 %a, %b
  %r = add i32 %ab, %c
  %i = zext i32 %gid to i64
  %po = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %r, ptr addrspace(1) %po, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @switch_widths, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

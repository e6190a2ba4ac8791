; A kernel with a counted loop, a phi-carried sum, an if/else inside the
; loop body, integer and 8/16-bit memory, and a switch after the loop.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @loop(ptr addrspace(1) %data, ptr addrspace(1) %bytes, ptr addrspace(1) %out, <2 x i32> %gid, ptr addrspace(1) %halves) {
entry:
  %g = extractelement <2 x i32> %gid, i32 0
  %n = and i32 %g, 15
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %latch ]
  %done = icmp uge i32 %i, %n
  br i1 %done, label %exit, label %body

body:
  %idx = zext i32 %i to i64
  %p = getelementptr i32, ptr addrspace(1) %data, i64 %idx
  %v = load i32, ptr addrspace(1) %p, align 4
  %odd = and i32 %v, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %then, label %else

then:
  %t = mul i32 %v, 3
  br label %latch

else:
  %e = lshr i32 %v, 1
  %pb = getelementptr i8, ptr addrspace(1) %bytes, i64 %idx
  %b8 = load i8, ptr addrspace(1) %pb, align 1
  %b32 = zext i8 %b8 to i32
  %e2 = add i32 %e, %b32
  br label %latch

latch:
  %x = phi i32 [ %t, %then ], [ %e2, %else ]
  %sum.next = add i32 %sum, %x
  %i.next = add i32 %i, 1
  br label %head

exit:
  switch i32 %n, label %def [
    i32 0, label %zero
    i32 1, label %one
  ]

zero:
  br label %store

one:
  br label %store

def:
  %h = trunc i32 %sum to i16
  %gh = zext i32 %g to i64
  %ph = getelementptr i16, ptr addrspace(1) %halves, i64 %gh
  store i16 %h, ptr addrspace(1) %ph, align 2
  br label %store

store:
  %r = phi i32 [ -1, %zero ], [ 1, %one ], [ %sum, %def ]
  %gi = zext i32 %g to i64
  %po = getelementptr i32, ptr addrspace(1) %out, i64 %gi
  store i32 %r, ptr addrspace(1) %po, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @loop, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"data"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"bytes"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"out"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!7 = !{i32 4, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read_write", !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"ushort", !"air.arg_name", !"halves"}

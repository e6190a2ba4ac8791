; Use-list order (airpipe fixture): values, a basic block and globals with
; several uses in an order of their own (uselistorder directives), which
; llvm-as-19 --preserve-bc-uselistorder records in USELIST_BLOCKs: one in
; the module block (@m, used by global initialisers only) and one in each
; function block (DEFAULT records for values, a BB record for %left).
target datalayout = "e-p:64:64:64-i64:64:64-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@g = internal addrspace(3) global i32 0, align 4
@m = internal addrspace(3) global i32 1, align 4
@m1 = internal addrspace(2) constant ptr addrspace(3) @m, align 8
@m2 = internal addrspace(2) constant ptr addrspace(3) @m, align 8
@m3 = internal addrspace(2) constant ptr addrspace(3) @m, align 8
@h = internal addrspace(3) global [2 x ptr addrspace(3)] [ptr addrspace(3) @g, ptr addrspace(3) @g], align 8

define i32 @f(i32 %a, i32 %b, i1 %c) {
entry:
  %x = add i32 %a, %b
  %y = mul i32 %x, %a
  %z = sub i32 %y, %x
  store i32 %x, ptr addrspace(3) @g, align 4
  br i1 %c, label %left, label %right

left:
  %l = add i32 %z, %x
  br label %join

right:
  %r = load i32, ptr addrspace(3) @g, align 4
  br i1 %c, label %join, label %left

join:
  %p = phi i32 [ %l, %left ], [ %r, %right ]
  %q = add i32 %p, %a
  ret i32 %q

  uselistorder i32 %x, { 2, 0, 3, 1 }
  uselistorder i32 %a, { 2, 0, 1 }
}

define i32 @k(i32 %a) {
  %v = load i32, ptr addrspace(3) @g, align 4
  %w = add i32 %v, %a
  store i32 %w, ptr addrspace(3) @g, align 4
  ret i32 %w
}

uselistorder ptr addrspace(3) @g, { 4, 0, 5, 3, 1, 2 }
uselistorder_bb @f, %left, { 1, 0 }
uselistorder ptr addrspace(3) @m, { 2, 0, 1 }

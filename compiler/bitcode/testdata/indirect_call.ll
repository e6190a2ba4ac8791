; Calls through a pointer (airpipe fixture): the callee is an argument, a
; loaded value, a select, and a value defined after the call in block
; layout (a forward reference); a varargs signature; call-site attributes.
target datalayout = "e-p:64:64:64-i64:64:64-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@table = internal addrspace(2) constant [2 x ptr] [ptr @one, ptr @two], align 8

define internal i32 @one(i32 %x) {
  ret i32 %x
}

define internal i32 @two(i32 %x) {
  %y = add i32 %x, 2
  ret i32 %y
}

declare void @sink(i32)

define i32 @dispatch(ptr %fp, i32 %i, i1 %c, ptr %vfp) {
entry:
  %a = call i32 %fp(i32 zeroext %i)
  %slot = getelementptr inbounds [2 x ptr], ptr addrspace(2) @table, i64 0, i32 %i
  %loaded = load ptr, ptr addrspace(2) %slot, align 8
  %b = tail call i32 %loaded(i32 %a)
  %sel = select i1 %c, ptr @one, ptr %fp
  %d = call fastcc i32 %sel(i32 %b)
  call void (i32, ...) %vfp(i32 %d, float 1.000000e+00, i64 7)
  br label %later

again:
  %e = call i32 %late(i32 %d)
  call void @sink(i32 %e)
  ret i32 %e

later:
  %late = load ptr, ptr addrspace(2) @table, align 8
  br label %again
}

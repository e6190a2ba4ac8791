; Type and constant-range attributes (airpipe fixture): byval(T), sret(T),
; elementtype(T) between other attributes (a type attribute's type operand
; must not be read as the next attribute), range(iN lo, hi) on parameters,
; returns and calls (narrow, negative, full-width and 128-bit bounds), and
; initializes((lo, hi), ...).
target datalayout = "e-p:64:64:64-i64:64:64-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.Big = type { [4 x float], i32 }
%struct.Pair = type { i16, i16 }

declare void @take(ptr noundef byval(%struct.Big) align 16 dereferenceable(20) "air-arg"="big", ptr noalias sret(%struct.Pair) align 4, ptr nocapture readonly byref(%struct.Pair) align 4)

declare noundef range(i8 1, -1) i8 @narrow(i32 noundef range(i32 0, 10) %x, i64 range(i64 -5, 100) %y, i1 range(i1 -1, 0) %b)

declare range(i128 0, 18446744073709551617) i128 @wide(i128 range(i128 -170141183460469231731687303715884105728, 170141183460469231731687303715884105727) %w, i64 range(i64 -9223372036854775808, 9223372036854775807) %m)

declare void @init(ptr nocapture initializes((0, 4), (8, 12)) %p, ptr initializes((-8, 0)) "k" %q)

declare ptr @llvm.preserve.array.access.index.p0.p0(ptr, i32 immarg, i32 immarg)

define i32 @use(ptr byval(%struct.Big) align 16 %b, ptr %out) {
  %p = alloca %struct.Pair, align 4
  call void @take(ptr byval(%struct.Big) align 16 %b, ptr sret(%struct.Pair) align 4 %p, ptr byref(%struct.Pair) align 4 %p)
  %n = call range(i8 1, 3) i8 @narrow(i32 range(i32 2, 4) 3, i64 0, i1 true)
  %e = call ptr @llvm.preserve.array.access.index.p0.p0(ptr elementtype(%struct.Big) %b, i32 0, i32 1)
  call void @init(ptr initializes((0, 8)) %out, ptr %e)
  %z = zext i8 %n to i32
  ret i32 %z
}

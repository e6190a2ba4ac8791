; Metadata, names and constants the printer must render as llvm-dis-19 does (airpipe fixture).
source_filename = "meta\22data"
target triple = "air64-apple-ios17.0.0"

%0 = type { i32, ptr }
%"struct.with space" = type { %0, [2 x <3 x float>] }
%empty = type {}

@0 = private constant i32 7
@"quoted name" = global %"struct.with space" zeroinitializer, !air.note !4
@wide = global i128 -170141183460469231731687303715884105728
@dbl = global [3 x double] [double 1.000000e+100, double 0x7FF8000000000001, double 0xFFF0000000000000]
@str = constant [4 x i8] c"a\\b\00"
@gep = global ptr getelementptr inbounds (i8, ptr @str, i64 2)
@cast = global i64 ptrtoint (ptr @"quoted name" to i64)
@emp = global %empty zeroinitializer
@s = global { i32, float } { i32 1, float undef }
@u = global [2 x i8] undef
@p = global [2 x i8] poison

define void @"fn with space"(ptr %0) !air.note !5 {
entry:
  %x = load i32, ptr @0, align 4, !range !6, !air.note !4
  br label %"next block"

"next block":                                     ; preds = %entry
  %1 = add i32 %x, 1
  store i32 %1, ptr %0, align 4
  ret void
}

define void @blocks(i1 %c) {
  br i1 %c, label %2, label %3

2:                                                ; preds = %1
  br label %3

3:                                                ; preds = %2, %1
  ret void
}

!named.a = !{!0, !1}
!named\5Cb = !{!2}
!llvm.module.flags = !{!7}

!0 = !{!"esc\22aped\0A", null, i32 0}
!1 = distinct !{!1, !0, i64 -1}
!2 = !{!3, !0}
!3 = !{float 1.500000e+00, ptr @"fn with space", ptr null}
!4 = !{!"note"}
!5 = distinct !{}
!6 = !{i32 0, i32 10}
!7 = !{i32 1, !"wchar_size", i32 4}

; libllvm fixture: a host module with a private array indexed by a thread's
; id and debug info, checked by LLVM's bounds-checking pass (and stripped)
; by the library and by opt-19.
source_filename = "arrays"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @airpipe_thread(ptr %buffers, ptr %ids) !dbg !5 {
  %a = alloca [8 x float], align 4
  %out = load ptr, ptr %buffers, !dbg !8
  %id = load i32, ptr %ids, !dbg !8
  %e = sext i32 %id to i64
  %p = getelementptr inbounds [8 x float], ptr %a, i64 0, i64 %e
  store float 1.0, ptr %p, !dbg !8
  %v = load float, ptr %a
  store float %v, ptr %out
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "fixture", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "arrays.c", directory: "/")
!2 = !{}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 4}
!5 = distinct !DISubprogram(name: "airpipe_thread", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !5)

; Debug locations LLVM uniques (airpipe fixture): a loop's !llvm.loop
; names the same DILocation as the branch's !dbg (one node, printed once),
; and locations whose scope is a DILexicalBlockFile.
target triple = "air64-apple-macosx14.0.0"

define void @loop(i32 %n) !dbg !5 {
entry:
  br label %body, !dbg !8

body:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %j = add i32 %i, 1, !dbg !13
  %c = icmp ult i32 %j, %n, !dbg !14
  br i1 %c, label %body, label %exit, !dbg !9, !llvm.loop !10

exit:
  ret void, !dbg !12
}

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 2, !"Dwarf Version", i32 4}
!2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "airpipe", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "k.metal", directory: "/src")
!4 = !{}
!5 = distinct !DISubprogram(name: "loop", scope: !3, file: !3, line: 3, type: !6, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !4)
!6 = !DISubroutineType(types: !4)
!7 = !DIFile(filename: "inc.h", directory: "/src")
!8 = !DILocation(line: 5, column: 3, scope: !5)
!9 = !DILocation(line: 6, column: 5, scope: !5)
!10 = distinct !{!10, !9, !11, !15}
!11 = !DILocation(line: 9, column: 5, scope: !5)
!12 = !DILocation(line: 10, column: 1, scope: !5)
!13 = !DILocation(line: 7, column: 9, scope: !16)
!14 = !DILocation(line: 8, column: 9, scope: !17)
!15 = !{!"llvm.loop.mustprogress"}
!16 = !DILexicalBlockFile(scope: !5, file: !7, discriminator: 0)
!17 = !DILexicalBlockFile(scope: !5, file: !7, discriminator: 2)

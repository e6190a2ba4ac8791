; Debug-info nodes the printer renders in LLVM syntax (airpipe fixture).
target triple = "air64-apple-macosx14.0.0"

define void @kernel(i32 %x) !dbg !5 {
  %y = add i32 %x, 1, !dbg !8
  ret void, !dbg !9
}

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}

!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 2, !"Dwarf Version", i32 4}
!2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "airpipe", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, imports: !10, splitDebugInlining: false, nameTableKind: None, sdk: "MacOSX.sdk")
!3 = !DIFile(filename: "k.metal", directory: "/src", checksumkind: CSK_MD5, checksum: "0123456789abcdef0123456789abcdef")
!4 = !{}
!5 = distinct !DISubprogram(name: "kernel", linkageName: "_Z6kerneli", scope: !3, file: !3, line: 3, type: !6, scopeLine: 4, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !4)
!6 = !DISubroutineType(types: !4)
!7 = !DIModule(scope: null, name: "metal_stdlib", configMacros: "-DX=1", includePath: "/inc")
!8 = !DILocation(line: 5, column: 7, scope: !5)
!9 = !DILocation(line: 6, scope: !5)
!10 = !{!11}
!11 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !2, entity: !7, file: !3, line: 2)

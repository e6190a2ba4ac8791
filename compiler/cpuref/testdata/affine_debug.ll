; cpuref fixture: affine.ll with full debug info (DWARF language 61, as Apple's
; newer compilers write it; version 3 metadata): the reference must compute what
; it computes for affine.ll and build an object without debug sections.
source_filename = "affine_debug"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.convert.f.f32.u.i32(i32)
declare i32 @air.max.u.i32(i32, i32)

define void @affine(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, ptr addrspace(1) noalias %pos, i32 %gid, <2 x i32> %xy, <2 x i16> %tid) !dbg !20 {
entry:
  %idx = zext i32 %gid to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4, !dbg !24
  %m = fmul fast float %v, 2.000000e+00
  %r = fadd fast float %m, 1.000000e+00
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  store float %r, ptr addrspace(1) %q, align 4, !dbg !25
  %x = extractelement <2 x i32> %xy, i64 0
  %y = extractelement <2 x i32> %xy, i64 1
  %row = mul i32 %y, 4
  %lin = add i32 %row, %x
  %lz = zext i32 %lin to i64
  %s = getelementptr inbounds <2 x i32>, ptr addrspace(1) %pos, i64 %lz
  %t = zext <2 x i16> %tid to <2 x i32>
  %ty = extractelement <2 x i32> %t, i64 1
  %tx = extractelement <2 x i32> %t, i64 0
  %tf = mul i32 %ty, 16
  %tm = add i32 %tf, %tx
  %mx = call i32 @air.max.u.i32(i32 %tm, i32 %x)
  %w = insertelement <2 x i32> %xy, i32 %mx, i64 1
  store <2 x i32> %w, ptr addrspace(1) %s, align 8
  ret void, !dbg !26
}

!air.kernel = !{!0}
!air.version = !{!9}
!air.language_version = !{!10}
!air.compile_options = !{!11}
!llvm.dbg.cu = !{!12}
!llvm.module.flags = !{!13, !14}
!0 = !{ptr @affine, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"uint2", !"air.arg_name", !"pos"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!7 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"xy"}
!8 = !{i32 5, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"ushort2", !"air.arg_name", !"tid"}
!9 = !{i32 2, i32 6, i32 0}
!10 = !{!"Metal", i32 3, i32 0, i32 0}
!11 = !{!"air.compile.denorms_disable"}
!12 = distinct !DICompileUnit(language: 61, file: !15, producer: "airpipe fixture", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!13 = !{i32 7, !"Dwarf Version", i32 4}
!14 = !{i32 2, !"Debug Info Version", i32 3}
!15 = !DIFile(filename: "affine.metal", directory: "/fixture")
!20 = distinct !DISubprogram(name: "affine", scope: !15, file: !15, line: 3, type: !21, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !12)
!21 = !DISubroutineType(types: !22)
!22 = !{null}
!24 = !DILocation(line: 4, column: 13, scope: !20)
!25 = !DILocation(line: 4, column: 11, scope: !20)
!26 = !DILocation(line: 5, column: 1, scope: !20)

; emulator fixture: llvm.memset of a constant length that is no multiple of 4 and
; of a value computed at run time. Thread g (16 threads) sets bytes 7g+1 .. 7g+5 of a
; device buffer to g*17+3: a variable offset, stored byte by byte (atomically, since
; the neighbouring threads' bytes share the words); and in a private array of 16 bytes
; set to 0x5a (whole words), bytes 1..10 set to g*17+3 (a constant offset: 3 bytes,
; 1 word, 3 bytes), which it copies to out[4g..4g+3]. Bytes nobody sets keep the
; pattern, so a store that spills over a byte shows.
source_filename = "memset"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare void @llvm.memset.p1.i64(ptr addrspace(1) nocapture writeonly, i8, i64, i1 immarg)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg)

define void @memset(ptr addrspace(1) noalias %bytes, ptr addrspace(1) noalias %out, i32 %gid) {
entry:
  %priv = alloca [16 x i8], align 4
  %g17 = mul i32 %gid, 17
  %g20 = add i32 %g17, 3
  %v = trunc i32 %g20 to i8
  %g7 = mul i32 %gid, 7
  %off = add i32 %g7, 1
  %offz = zext i32 %off to i64
  %dp = getelementptr inbounds i8, ptr addrspace(1) %bytes, i64 %offz
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 1 %dp, i8 %v, i64 5, i1 false)
  call void @llvm.memset.p0.i64(ptr align 4 %priv, i8 90, i64 16, i1 false)
  %p1 = getelementptr inbounds i8, ptr %priv, i64 1
  call void @llvm.memset.p0.i64(ptr align 1 %p1, i8 %v, i64 10, i1 false)
  %base = shl i32 %gid, 2
  %bz = zext i32 %base to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %bz
  %r0 = load i32, ptr %priv, align 4
  store i32 %r0, ptr addrspace(1) %q, align 4
  %s1 = getelementptr inbounds i32, ptr %priv, i64 1
  %r1 = load i32, ptr %s1, align 4
  %q1 = getelementptr inbounds i32, ptr addrspace(1) %q, i64 1
  store i32 %r1, ptr addrspace(1) %q1, align 4
  %s2 = getelementptr inbounds i32, ptr %priv, i64 2
  %r2 = load i32, ptr %s2, align 4
  %q2 = getelementptr inbounds i32, ptr addrspace(1) %q, i64 2
  store i32 %r2, ptr addrspace(1) %q2, align 4
  %s3 = getelementptr inbounds i32, ptr %priv, i64 3
  %r3 = load i32, ptr %s3, align 4
  %q3 = getelementptr inbounds i32, ptr addrspace(1) %q, i64 3
  store i32 %r3, ptr addrspace(1) %q3, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @memset, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"bytes"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

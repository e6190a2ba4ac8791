; emulator fixture: LLVM's funnel shifts, llvm.fshl/fshr on i8, i16, i32, i64 and
; <2 x i32>, as the LLVM Language Reference defines them (shift amount taken modulo
; the width). Thread g (16 threads) takes a = in[2g], b = in[2g+1] (the pattern) and
; shift amounts g + 24 (24..39: 31, 32 and 33 among them), g (0 among them) and
; 8g (0..120 on i64: 0, 56, 64, 72 among them), and writes 10 words at out[10g]. The
; reference is LLVM's own definition of each intrinsic.
source_filename = "funnel_shift"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i64 @llvm.fshl.i64(i64, i64, i64)
declare i64 @llvm.fshr.i64(i64, i64, i64)
declare i16 @llvm.fshr.i16(i16, i16, i16)
declare i8 @llvm.fshl.i8(i8, i8, i8)
declare <2 x i32> @llvm.fshr.v2i32(<2 x i32>, <2 x i32>, <2 x i32>)

define void @funnel_shift(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, i32 %gid) {
entry:
  %g2 = shl i32 %gid, 1
  %ia = zext i32 %g2 to i64
  %pa = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %ia
  %a = load i32, ptr addrspace(1) %pa, align 4
  %pb = getelementptr inbounds i32, ptr addrspace(1) %pa, i64 1
  %b = load i32, ptr addrspace(1) %pb, align 4
  %c1 = add i32 %gid, 24
  %c3 = shl i32 %gid, 3
  %w0 = call i32 @llvm.fshl.i32(i32 %a, i32 %b, i32 %c1)
  %w1 = call i32 @llvm.fshr.i32(i32 %a, i32 %b, i32 %c1)
  %w2 = call i32 @llvm.fshl.i32(i32 %a, i32 %b, i32 %gid)
  %w3 = call i32 @llvm.fshr.i32(i32 %a, i32 %b, i32 %gid)
  %a64 = zext i32 %a to i64
  %b64 = zext i32 %b to i64
  %bh = shl i64 %b64, 32
  %ab = or i64 %bh, %a64
  %ba = call i64 @llvm.fshr.i64(i64 %bh, i64 %a64, i64 32)
  %c64 = zext i32 %c3 to i64
  %l64 = call i64 @llvm.fshl.i64(i64 %ab, i64 %ba, i64 %c64)
  %r64 = call i64 @llvm.fshr.i64(i64 %ab, i64 %ba, i64 %c64)
  %w4 = trunc i64 %l64 to i32
  %h4 = lshr i64 %l64, 32
  %w5 = trunc i64 %h4 to i32
  %w6 = trunc i64 %r64 to i32
  %a16 = trunc i32 %a to i16
  %b16 = trunc i32 %b to i16
  %c16 = trunc i32 %c1 to i16
  %r16 = call i16 @llvm.fshr.i16(i16 %a16, i16 %b16, i16 %c16)
  %w7 = zext i16 %r16 to i32
  %a8 = trunc i32 %a to i8
  %b8 = trunc i32 %b to i8
  %c8 = trunc i32 %gid to i8
  %r8 = call i8 @llvm.fshl.i8(i8 %a8, i8 %b8, i8 %c8)
  %w8 = zext i8 %r8 to i32
  %va0 = insertelement <2 x i32> undef, i32 %a, i64 0
  %va = insertelement <2 x i32> %va0, i32 %b, i64 1
  %vc0 = insertelement <2 x i32> undef, i32 %c1, i64 0
  %vc = insertelement <2 x i32> %vc0, i32 %gid, i64 1
  %vr = call <2 x i32> @llvm.fshr.v2i32(<2 x i32> %va, <2 x i32> %va, <2 x i32> %vc)
  %v0 = extractelement <2 x i32> %vr, i64 0
  %v1 = extractelement <2 x i32> %vr, i64 1
  %w9 = xor i32 %v0, %v1
  %base = mul i32 %gid, 10
  %o0i = add i32 %base, 0
  %o0z = zext i32 %o0i to i64
  %o0 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o0z
  store i32 %w0, ptr addrspace(1) %o0, align 4
  %o1i = add i32 %base, 1
  %o1z = zext i32 %o1i to i64
  %o1 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o1z
  store i32 %w1, ptr addrspace(1) %o1, align 4
  %o2i = add i32 %base, 2
  %o2z = zext i32 %o2i to i64
  %o2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o2z
  store i32 %w2, ptr addrspace(1) %o2, align 4
  %o3i = add i32 %base, 3
  %o3z = zext i32 %o3i to i64
  %o3 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o3z
  store i32 %w3, ptr addrspace(1) %o3, align 4
  %o4i = add i32 %base, 4
  %o4z = zext i32 %o4i to i64
  %o4 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o4z
  store i32 %w4, ptr addrspace(1) %o4, align 4
  %o5i = add i32 %base, 5
  %o5z = zext i32 %o5i to i64
  %o5 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o5z
  store i32 %w5, ptr addrspace(1) %o5, align 4
  %o6i = add i32 %base, 6
  %o6z = zext i32 %o6i to i64
  %o6 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o6z
  store i32 %w6, ptr addrspace(1) %o6, align 4
  %o7i = add i32 %base, 7
  %o7z = zext i32 %o7i to i64
  %o7 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o7z
  store i32 %w7, ptr addrspace(1) %o7, align 4
  %o8i = add i32 %base, 8
  %o8z = zext i32 %o8i to i64
  %o8 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o8z
  store i32 %w8, ptr addrspace(1) %o8, align 4
  %o9i = add i32 %base, 9
  %o9z = zext i32 %o9i to i64
  %o9 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o9z
  store i32 %w9, ptr addrspace(1) %o9, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @funnel_shift, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

; Integers of widths no Metal type has (i2, i3, i6), as LLVM's optimiser
; narrows values known to fit: arithmetic wraps modulo 2^N, sext and ashr
; read bit N-1 as the sign, signed comparisons compare the N-bit values.
; A getelementptr index of type i3 is sign-extended. Thread tid writes
; thirteen words at out[13*tid].
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @k(ptr addrspace(1) %out, i32 %tid) {
entry:
  %a = trunc i32 %tid to i3
  %b = add i3 %a, 5
  %c = mul i3 %b, 3
  %s = sext i3 %c to i32
  %d = trunc i32 %tid to i2
  %e = xor i2 %d, -1
  %f = zext i2 %e to i32
  %t7 = mul i32 %tid, 7
  %g = trunc i32 %t7 to i6
  %h = shl i6 %g, 2
  %hl = lshr i6 %h, 1
  %hlz = zext i6 %hl to i32
  %ha = ashr i6 %h, 3
  %has = sext i6 %ha to i32
  %neg = icmp slt i6 %h, 0
  %sub = sub i6 %g, 40
  %sel = select i1 %neg, i6 %sub, i6 %g
  %selz = zext i6 %sel to i32
  %lt = icmp ult i3 %c, %a
  %ltz = zext i1 %lt to i32
  %q = udiv i6 %h, 5
  %qz = zext i6 %q to i32
  %sd = sdiv i6 %h, -3
  %sdz = sext i6 %sd to i32
  %sr = srem i6 %g, 5
  %srz = sext i6 %sr to i32
  %fl = sitofp i3 %c to float
  %flb = bitcast float %fl to i32
  %wide = sext i3 %c to i64
  %wsh = shl i64 %wide, 33
  %back = trunc i64 %wsh to i6
  %bz = zext i6 %back to i32
  %base = mul i32 %tid, 13
  %p0 = getelementptr i32, ptr addrspace(1) %out, i32 %base
  store i32 %s, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %p0, i32 1
  store i32 %f, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr i32, ptr addrspace(1) %p0, i32 2
  store i32 %hlz, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr i32, ptr addrspace(1) %p0, i32 3
  store i32 %has, ptr addrspace(1) %p3, align 4
  %p4 = getelementptr i32, ptr addrspace(1) %p0, i32 4
  store i32 %selz, ptr addrspace(1) %p4, align 4
  %p5 = getelementptr i32, ptr addrspace(1) %p0, i32 5
  store i32 %ltz, ptr addrspace(1) %p5, align 4
  %p6 = getelementptr i32, ptr addrspace(1) %p0, i32 6
  store i32 %qz, ptr addrspace(1) %p6, align 4
  %p8 = getelementptr i32, ptr addrspace(1) %p0, i32 8
  store i32 %sdz, ptr addrspace(1) %p8, align 4
  %p9 = getelementptr i32, ptr addrspace(1) %p0, i32 9
  store i32 %srz, ptr addrspace(1) %p9, align 4
  %p10 = getelementptr i32, ptr addrspace(1) %p0, i32 10
  store i32 %flb, ptr addrspace(1) %p10, align 4
  %p11 = getelementptr i32, ptr addrspace(1) %p0, i32 11
  store i32 %bz, ptr addrspace(1) %p11, align 4
  %gp = getelementptr i32, ptr addrspace(1) %p5, i3 %c
  %gv = load i32, ptr addrspace(1) %gp, align 4
  %p12 = getelementptr i32, ptr addrspace(1) %p0, i32 12
  store i32 %gv, ptr addrspace(1) %p12, align 4
  %sw = trunc i32 %tid to i3
  switch i3 %sw, label %other [ i3 -1, label %seven
                                i3 2, label %two ]
seven:
  br label %join
two:
  br label %join
other:
  br label %join
join:
  %w = phi i32 [ 70, %seven ], [ 20, %two ], [ 0, %other ]
  %p7 = getelementptr i32, ptr addrspace(1) %p0, i32 7
  store i32 %w, ptr addrspace(1) %p7, align 4
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 1, i32 0}

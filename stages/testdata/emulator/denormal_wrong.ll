; denormal.ll with the odd threads adding 2 (a wrong lowering at words no denormal reaches).
; emulator fixture: a module compiled with denormals disabled, whose even threads pass through
; a float denormal — y[i] = ((i+1)·2^-140)·2^100: (i+1)·2^-40 where the denormal is kept,
; 0 where it is flushed; MSL §8.5 lets a GPU do either — and whose odd threads compute
; y[i] = x[i] + 1 (no denormal: fixed whatever the GPU does).
source_filename = "denormal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @dn(ptr addrspace(1) noalias %x, ptr addrspace(1) noalias %y, i32 %gid) {
entry:
  %i = zext i32 %gid to i64
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %xv = load float, ptr addrspace(1) %xp, align 4
  %n = add i32 %gid, 1
  %nf = uitofp i32 %n to float
  %d = fmul float %nf, 0x3730000000000000
  %up = fmul float %d, 0x4630000000000000
  %one = fadd float %xv, 2.000000e+00
  %odd = and i32 %gid, 1
  %isodd = icmp eq i32 %odd, 1
  %r = select i1 %isodd, float %one, float %up
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  store float %r, ptr addrspace(1) %yp, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!air.compile_options = !{!92}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!92 = !{!"air.compile.denorms_disable"}
!0 = !{ptr @dn, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"x"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"y"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

; fract.ll with fract planted as GLSL's x − floor(x), without Metal's clamp below 1 (the
; emulator must report a mismatch at an odd word).
source_filename = "fract"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.floor.f32(float)

define void @fr(ptr addrspace(1) noalias %x, ptr addrspace(1) noalias %y, i32 %gid) {
entry:
  %i = zext i32 %gid to i64
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %xv = load float, ptr addrspace(1) %xp, align 4
  %odd = and i32 %gid, 1
  %isodd = icmp eq i32 %odd, 1
  ; odd threads take a tiny negative value, whose x - floor(x) rounds to 1.0
  %tiny = fmul float %xv, 0.0
  %neg = fsub float %tiny, 0x3BF0000000000000
  %in = select i1 %isodd, float %neg, float %xv
  %fl = call float @air.floor.f32(float %in)
  %f = fsub float %in, %fl
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  store float %f, ptr addrspace(1) %yp, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @fr, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"x"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"y"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}

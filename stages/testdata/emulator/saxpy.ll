; emulator fixture: y[i] = a * x[i] + y[i] with i the row-major index of the 2-D
; position (each word written by one thread), a from a constant buffer, and
; float(i) + float(gid) in a third buffer.
source_filename = "saxpy"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare float @air.convert.f.f32.u.i32(i32)

define void @saxpy(ptr addrspace(2) noalias %a, ptr addrspace(1) noalias %x, ptr addrspace(1) noalias %y, ptr addrspace(1) noalias %ids, i32 %gid, <2 x i32> %pos, <2 x i32> %size) {
entry:
  %av = load float, ptr addrspace(2) %a, align 4
  %px = extractelement <2 x i32> %pos, i64 0
  %py = extractelement <2 x i32> %pos, i64 1
  %w = extractelement <2 x i32> %size, i64 0
  %row = mul i32 %py, %w
  %lin = add i32 %row, %px
  %i = zext i32 %lin to i64
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %xv = load float, ptr addrspace(1) %xp, align 4
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  %yv = load float, ptr addrspace(1) %yp, align 4
  %m = fmul fast float %av, %xv
  %s = fadd fast float %m, %yv
  store float %s, ptr addrspace(1) %yp, align 4
  %ip = getelementptr inbounds float, ptr addrspace(1) %ids, i64 %i
  %f = call float @air.convert.f.f32.u.i32(i32 %lin)
  %g = call float @air.convert.f.f32.u.i32(i32 %gid)
  %fg = fadd float %f, %g
  store float %fg, ptr addrspace(1) %ip, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @saxpy, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8, !9}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_name", !"float", !"air.arg_name", !"a"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"x"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"y"}
!6 = !{i32 3, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float", !"air.arg_name", !"ids"}
!7 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!8 = !{i32 5, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"pos"}
!9 = !{i32 6, !"air.threads_per_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"size"}

; libllvm fixture: an AIR-shaped module with a named struct type and
; metadata, disassembled by the library and by llvm-dis-19.
source_filename = "air"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.Params = type { i32, <4 x i8>, float }

define void @k(ptr addrspace(2) %params, ptr addrspace(1) %out, i32 %gid) {
entry:
  %p = getelementptr inbounds %struct.Params, ptr addrspace(2) %params, i64 0, i32 2
  %f = load float, ptr addrspace(2) %p, align 4
  %m = fmul fast float %f, 3.000000e+00
  %idx = zext i32 %gid to i64
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  store float %m, ptr addrspace(1) %q, align 4, !tbaa !5
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2}
!4 = !{i32 2, !"air.thread_position_in_grid"}
!5 = !{!6, !6, i64 0}
!6 = !{!"float", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}

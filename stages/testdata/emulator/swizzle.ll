; emulator fixture: out[tid] = in[tid].xy * 2 written as a float2 (x, y): each component where it belongs.
source_filename = "swizzle"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @swizzle(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, i32 %tid) {
entry:
  %i = zext i32 %tid to i64
  %p = getelementptr inbounds <2 x float>, ptr addrspace(1) %in, i64 %i
  %v = load <2 x float>, ptr addrspace(1) %p, align 8
  %d = fmul <2 x float> %v, <float 2.0, float 2.0>
  %s = shufflevector <2 x float> %d, <2 x float> poison, <2 x i32> <i32 0, i32 1>
  %q = getelementptr inbounds <2 x float>, ptr addrspace(1) %out, i64 %i
  store <2 x float> %s, ptr addrspace(1) %q, align 8
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}
!0 = !{ptr @swizzle, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_name", !"float2", !"air.arg_name", !"in"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float2", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}

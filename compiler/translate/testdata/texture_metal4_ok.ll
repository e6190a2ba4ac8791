; AIR 2.7/2.8 texture forms: a constexpr sampler held as [2 x i64] (listed in
; !air.sampler_states) and Metal 4's read with air.get_read_sampler() and a zero offset.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@__air_sampler_state = internal addrspace(2) constant [2 x i64] [i64 34901797601020489, i64 0], align 8
@other_state = internal addrspace(2) constant [2 x i64] [i64 34901797601020489, i64 7], align 8

declare ptr addrspace(2) @air.get_read_sampler()
declare { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1), ptr addrspace(2), <2 x i32>, <2 x i32>, i32, i32)
declare { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float, float, i32)

define void @metal4(ptr addrspace(1) %tex, ptr addrspace(1) %out, <2 x i32> %gid) {
  %rs = call ptr addrspace(2) @air.get_read_sampler()
  %r = call { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) %tex, ptr addrspace(2) %rs, <2 x i32> %gid, <2 x i32> zeroinitializer, i32 0, i32 1)
  %t = extractvalue { <4 x float>, i8 } %r, 0
  %uv = uitofp <2 x i32> %gid to <2 x float>
  %s = call { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1) %tex, ptr addrspace(2) @__air_sampler_state, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.0, float 0.0, i32 0)
  %u = extractvalue { <4 x float>, i8 } %s, 0
  %s2 = call { <4 x float>, i8 } @air.sample_texture_2d.v4f32(ptr addrspace(1) %tex, ptr addrspace(2) @other_state, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.0, float 0.0, i32 0)
  %u2 = extractvalue { <4 x float>, i8 } %s2, 0
  %a = fadd <4 x float> %t, %u
  %b = fadd <4 x float> %a, %u2
  store <4 x float> %b, ptr addrspace(1) %out, align 16
  ret void
}

!air.kernel = !{!0}
!air.sampler_states = !{!10, !11}
!0 = !{ptr @metal4, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"tex"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_name", !"float4", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!10 = !{!"air.sampler_state", ptr addrspace(2) @__air_sampler_state}
!11 = !{!"air.sampler_state", ptr addrspace(2) @other_state}

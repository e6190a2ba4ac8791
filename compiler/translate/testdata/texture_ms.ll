; translate multisampled-texture fixture: a kernel that averages the samples of a
; texture2d_ms<float, read> (index 0) at its thread position (tex.get_num_samples(),
; tex.read(coord, sample)) and stores the mean into buffer 0 at y * tex.get_width() + x,
; its last lane replaced by the red channel of a texture2d_ms_array<uint, read> (index 1)
; read at slice 1, sample 2 (read(coord, slice, sample)).
source_filename = "texture_ms"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i32 @air.get_num_samples_texture_2d_ms(ptr addrspace(1) nocapture readonly)
declare i32 @air.get_width_texture_2d_ms(ptr addrspace(1) nocapture readonly)
declare <4 x float> @air.read_texture_2d_ms.v4f32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)
declare <4 x i32> @air.read_texture_2d_ms_array.u.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32, i32)

define void @resolve(ptr addrspace(1) %tex, ptr addrspace(1) %dtex, ptr addrspace(1) %out, <2 x i32> %gid) {
entry:
  %n = call i32 @air.get_num_samples_texture_2d_ms(ptr addrspace(1) %tex)
  %none = icmp eq i32 %n, 0
  br i1 %none, label %done, label %loop

loop:
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %t = call <4 x float> @air.read_texture_2d_ms.v4f32(ptr addrspace(1) %tex, <2 x i32> %gid, i32 %s, i32 1)
  %acc1 = fadd <4 x float> %acc, %t
  %s1 = add nuw i32 %s, 1
  %end = icmp eq i32 %s1, %n
  br i1 %end, label %done, label %loop

done:
  %sum = phi <4 x float> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %nf = uitofp i32 %n to float
  %r = fdiv float 1.0, %nf
  %rs = insertelement <4 x float> undef, float %r, i32 0
  %rv = shufflevector <4 x float> %rs, <4 x float> undef, <4 x i32> zeroinitializer
  %mean = fmul <4 x float> %sum, %rv
  %w = call i32 @air.get_width_texture_2d_ms(ptr addrspace(1) %tex)
  %dv = call <4 x i32> @air.read_texture_2d_ms_array.u.v4i32(ptr addrspace(1) %dtex, <2 x i32> %gid, i32 1, i32 2, i32 1)
  %di = extractelement <4 x i32> %dv, i32 0
  %d = uitofp i32 %di to float
  %x = extractelement <2 x i32> %gid, i32 0
  %y = extractelement <2 x i32> %gid, i32 1
  %yw = mul i32 %y, %w
  %i = add i32 %x, %yw
  %i64 = zext i32 %i to i64
  %p = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %i64
  %m0 = insertelement <4 x float> %mean, float %d, i32 3
  store <4 x float> %m0, ptr addrspace(1) %p, align 16
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @resolve, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_name", !"texture2d_ms<float, read>", !"air.arg_name", !"tex"}
!4 = !{i32 1, !"air.texture", !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_name", !"texture2d_ms_array<uint, read>", !"air.arg_name", !"dtex"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4", !"air.arg_name", !"out"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; texture_ms.ll with the unsigned read in its residency form ({ <4 x i32>, i8 }: the texel and
; whether it is resident, which every texture the reference gives is); the residency is added in.
; emulator fixture: a kernel reading two multisample textures (texture2d_ms<float, read> at
; index 1, texture2d_ms<uint, read> at index 3) and querying their size and sample count. Each
; thread tid reads texel (tid & 3, tid >> 2 & 3): out[2·tid] = w1 + 16·h1 + 256·samples1 +
; 4096·samples3; out[2·tid+1] = the float bits of the sum over every sample of the float
; texel's .y, plus the uint texel's .z at sample tid mod samples3.
source_filename = "texture_ms"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare i32 @air.get_width_texture_2d_ms(ptr addrspace(1) nocapture readonly)
declare i32 @air.get_height_texture_2d_ms(ptr addrspace(1) nocapture readonly)
declare i32 @air.get_num_samples_texture_2d_ms(ptr addrspace(1) nocapture readonly)
declare <4 x float> @air.read_texture_2d_ms.v4f32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)
declare { <4 x i32>, i8 } @air.read_texture_2d_ms.u.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)

define void @ms(ptr addrspace(1) %f, ptr addrspace(1) %u, ptr addrspace(1) %out, i32 %tid) {
entry:
  %w = call i32 @air.get_width_texture_2d_ms(ptr addrspace(1) %f)
  %h = call i32 @air.get_height_texture_2d_ms(ptr addrspace(1) %f)
  %nf = call i32 @air.get_num_samples_texture_2d_ms(ptr addrspace(1) %f)
  %nu = call i32 @air.get_num_samples_texture_2d_ms(ptr addrspace(1) %u)
  %h16 = mul i32 %h, 16
  %n256 = mul i32 %nf, 256
  %n4096 = mul i32 %nu, 4096
  %s1 = add i32 %w, %h16
  %s2 = add i32 %s1, %n256
  %s3 = add i32 %s2, %n4096
  %x = and i32 %tid, 3
  %y0 = lshr i32 %tid, 2
  %y = and i32 %y0, 3
  %c0 = insertelement <2 x i32> undef, i32 %x, i32 0
  %c = insertelement <2 x i32> %c0, i32 %y, i32 1
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %t = call <4 x float> @air.read_texture_2d_ms.v4f32(ptr addrspace(1) %f, <2 x i32> %c, i32 %i, i32 1)
  %ty = extractelement <4 x float> %t, i32 1
  %acc1 = fadd float %acc, %ty
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, %nf
  br i1 %more, label %loop, label %done

done:
  %smp = urem i32 %tid, %nu
  %tur = call { <4 x i32>, i8 } @air.read_texture_2d_ms.u.v4i32(ptr addrspace(1) %u, <2 x i32> %c, i32 %smp, i32 1)
  %tu = extractvalue { <4 x i32>, i8 } %tur, 0
  %res = extractvalue { <4 x i32>, i8 } %tur, 1
  %res32 = zext i8 %res to i32
  %uz0 = extractelement <4 x i32> %tu, i32 2
  %uz = add i32 %uz0, %res32
  %uzf = uitofp i32 %uz to float
  %r = fadd float %acc1, %uzf
  %rb = bitcast float %r to i32
  %i0 = shl i32 %tid, 1
  %j0 = zext i32 %i0 to i64
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %j0
  store i32 %s3, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %p0, i64 1
  store i32 %rb, ptr addrspace(1) %p1, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @ms, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_name", !"texture2d_ms<float, read>", !"air.arg_name", !"f"}
!4 = !{i32 1, !"air.texture", !"air.location_index", i32 3, i32 1, !"air.read", !"air.arg_type_name", !"texture2d_ms<uint, read>", !"air.arg_name", !"u"}
!5 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!6 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

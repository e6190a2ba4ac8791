; translate writable-texture fixture: a kernel writing float4(x, y, x + 4y, 2) into a
; texture2d<float, write> (index 2) at its thread position (x, y), except in column 3, which
; keeps its initial texels.
source_filename = "storage_write"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare void @air.write_texture_2d.v4f32(ptr addrspace(1) nocapture, <2 x i32>, <4 x float>, i32, i32)

define void @writetex(ptr addrspace(1) %tex, <2 x i32> %gid) {
entry:
  %x = extractelement <2 x i32> %gid, i32 0
  %y = extractelement <2 x i32> %gid, i32 1
  %skip = icmp eq i32 %x, 3
  br i1 %skip, label %done, label %write

write:
  %xf = uitofp i32 %x to float
  %yf = uitofp i32 %y to float
  %y4 = mul i32 %y, 4
  %i = add i32 %x, %y4
  %if = uitofp i32 %i to float
  %v0 = insertelement <4 x float> <float 0.0, float 0.0, float 0.0, float 2.0>, float %xf, i32 0
  %v1 = insertelement <4 x float> %v0, float %yf, i32 1
  %v = insertelement <4 x float> %v1, float %if, i32 2
  %coord = insertelement <2 x i32> %gid, i32 %x, i32 0
  call void @air.write_texture_2d.v4f32(ptr addrspace(1) %tex, <2 x i32> %coord, <4 x float> %v, i32 0, i32 2)
  br label %done

done:
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @writetex, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 2, i32 1, !"air.write", !"air.arg_type_name", !"texture2d<float, write>", !"air.arg_name", !"tex"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint2", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

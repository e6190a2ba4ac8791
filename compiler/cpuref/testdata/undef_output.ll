; A kernel whose output is undef where its switch has no case for the value it reads (every
; value of the pattern-filled buffer 0's word 0 but 1): out[tid] is the phi's undef. With the
; case taken (kind 1) it stores tid·3 through a vector whose undef lanes are overwritten.
source_filename = "undef_output"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @undef_out(ptr addrspace(1) %kindp, ptr addrspace(1) %out, i32 %tid) {
entry:
  %kind0 = load i32, ptr addrspace(1) %kindp, align 4
  %kind = and i32 %kind0, 255
  %v0 = insertelement <2 x i32> undef, i32 %tid, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 3, i32 1
  switch i32 %kind, label %done [
    i32 KIND, label %one
  ]

one:
  %a = extractelement <2 x i32> %v1, i32 0
  %b = extractelement <2 x i32> %v1, i32 1
  %m = mul i32 %a, %b
  br label %done

done:
  %r = phi i32 [ undef, %entry ], [ %m, %one ]
  %i = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @undef_out, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"kind"}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!5 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

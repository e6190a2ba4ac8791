; emulator fixture: an int function constant mode (index 2; the contract's 4)
; that the static initializer copies into @mode, and a switch over the cases
; -1, 0 and 3 without a default, as ANGLE's blit shaders switch on
; kSourceTextureType: under the contract out[gid] is undef, as it is for -1;
; 0 gives 10 + gid, 3 gives 30 + gid. An unsigned count (index 0, the
; contract's 4) makes buffer 1 present when above 1.
source_filename = "fc_int_switch"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"
@_Z5count.MTL_FC_INIT_0_j = internal addrspace(2) externally_initialized constant i32 undef, align 4
@_Z4mode.MTL_FC_INIT_2_i = internal addrspace(2) externally_initialized constant i32 undef, align 4
@mode = internal addrspace(2) global i32 0, align 4
@pExtra = internal addrspace(2) global i8 0, align 1
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
define internal void @init() section "air.static_init" {
  %c = load i32, ptr addrspace(2) @_Z5count.MTL_FC_INIT_0_j, align 4
  %many = icmp ugt i32 %c, 1
  %q = zext i1 %many to i8
  store i8 %q, ptr addrspace(2) @pExtra, align 1
  %m = load i32, ptr addrspace(2) @_Z4mode.MTL_FC_INIT_2_i, align 4
  store i32 %m, ptr addrspace(2) @mode, align 4
  ret void
}
define void @pick_mode(ptr addrspace(1) %out, ptr addrspace(1) %extra, i32 %gid) {
entry:
  %i = zext i32 %gid to i64
  %m = load i32, ptr addrspace(2) @mode, align 4
  switch i32 %m, label %done [
    i32 3, label %three
    i32 -1, label %minus
    i32 0, label %zero
  ]
zero:
  br label %done
three:
  br label %done
minus:
  br label %done
done:
  %v = phi i32 [ undef, %entry ], [ 10, %zero ], [ 30, %three ], [ undef, %minus ]
  %g = add i32 %v, %gid
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %g, ptr addrspace(1) %p, align 4
  %e = getelementptr inbounds i32, ptr addrspace(1) %extra, i64 %i
  store i32 %gid, ptr addrspace(1) %e, align 4
  ret void
}
!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!air.function_constants = !{!20, !21}
!0 = !{ptr @pick_mode, !1, !2}
!1 = !{}
!2 = !{!3, !4, !6}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.function_constant", !5, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"extra"}
!5 = !{ptr addrspace(2) @pExtra, !"bool", !"hasExtra"}
!6 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !{ptr addrspace(2) @_Z5count.MTL_FC_INIT_0_j, !"uint", !"count", i32 0, i1 true}
!21 = !{ptr addrspace(2) @_Z4mode.MTL_FC_INIT_2_i, !"int", !"mode", i32 2, i1 true}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; cpuref fixture: a kernel reading Metal function constants the way AIR stores
; them — a bool in i8 (index 3), a float (index 1), a ushort in i16 (index 5),
; a half (index 2) — some directly, some through the module's static
; initializer (llvm.global_ctors copying a constant into a plain global), and
; writing, per thread gid, out[4*gid..] = { bool, float bits, ushort,
; float bits of f*u + b + h }. The test computes the answer from the contract.
source_filename = "fc"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @fc_static_init, ptr null }]
@_ZL5pitch = internal unnamed_addr addrspace(2) global i16 undef, align 2
@_Z5pitch.MTL_FC_INIT_5_t = internal unnamed_addr addrspace(2) externally_initialized constant i16 undef, section "air.fc_initializer", align 2
@_Z7enabled.MTL_FC_INIT_3_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, align 1
@_Z5scale.MTL_FC_INIT_1_f = internal unnamed_addr addrspace(2) externally_initialized constant float undef, section "air.fc_initializer", align 4
@_Z4bias.MTL_FC_INIT_2_h = internal unnamed_addr addrspace(2) externally_initialized constant half undef, align 2

define internal void @fc_static_init() section "air.static_init" {
  %1 = load i16, ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_5_t, align 2
  store i16 %1, ptr addrspace(2) @_ZL5pitch, align 2
  ret void
}

declare float @air.convert.f.f32.u.i16(i16)

define void @fc(ptr addrspace(1) noalias %out, i32 %gid) {
entry:
  %b8 = load i8, ptr addrspace(2) @_Z7enabled.MTL_FC_INIT_3_b, align 1, !range !20
  %f = load float, ptr addrspace(2) @_Z5scale.MTL_FC_INIT_1_f, align 4
  %u = load i16, ptr addrspace(2) @_ZL5pitch, align 2
  %h = load half, ptr addrspace(2) @_Z4bias.MTL_FC_INIT_2_h, align 2
  %base = mul i32 %gid, 4
  %i0 = zext i32 %base to i64
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i0
  %bw = zext i8 %b8 to i32
  store i32 %bw, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %p0, i64 1
  store float %f, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %p0, i64 2
  %uw = zext i16 %u to i32
  store i32 %uw, ptr addrspace(1) %p2, align 4
  %uf = call float @air.convert.f.f32.u.i16(i16 %u)
  %m = fmul fast float %f, %uf
  %on = icmp ne i8 %b8, 0
  %bf = select i1 %on, float 1.000000e+00, float 0.000000e+00
  %s = fadd fast float %m, %bf
  %hf = fpext half %h to float
  %r = fadd fast float %s, %hf
  %p3 = getelementptr inbounds i32, ptr addrspace(1) %p0, i64 3
  store float %r, ptr addrspace(1) %p3, align 4
  ret void
}

!air.kernel = !{!0}
!air.function_constants = !{!10, !11, !12, !13}
!air.version = !{!8}
!air.language_version = !{!9}
!0 = !{ptr @fc, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.buffer_size", i32 256, !"air.location_index", i32 0, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!8 = !{i32 2, i32 6, i32 0}
!9 = !{!"Metal", i32 3, i32 0, i32 0}
!10 = !{ptr addrspace(2) @_Z5pitch.MTL_FC_INIT_5_t, !"ushort", !"pitch", i32 5, i1 true}
!11 = !{ptr addrspace(2) @_Z7enabled.MTL_FC_INIT_3_b, !"bool", !"enabled", i32 3, i1 true}
!12 = !{ptr addrspace(2) @_Z5scale.MTL_FC_INIT_1_f, !"float", !"scale", i32 1, i1 true}
!13 = !{ptr addrspace(2) @_Z4bias.MTL_FC_INIT_2_h, !"half", !"bias", i32 2, i1 true}
!20 = !{i8 0, i8 2}

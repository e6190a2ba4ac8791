; emulator fixture: three conditional buffers on one index under exclusive-by-convention
; predicates (Metal: constant uint *inA [[buffer(1), function_constant(useA)]], inB and inC
; alike). Bool function constants useA (0), useB (1), useC (2) are each normalized into the
; predicate of one buffer by the static initializer; a fourth bool, addBias (3), is read only
; by the kernel. Under the contract's values (every bool true) all three buffers exist on
; buffer 1, so the reference's function-constant search (compiler/cpuref/fcsearch.go) turns
; useA, useB false (the nearest assignment without two present arguments: {useA}, {useB},
; {useC} each leave two, {useA, useB} leaves inC alone). Thread i writes out[i] =
; inA[i] + 1 when useA, else inB[i] * 2 when useB, else inC[i] xor 0x55, plus 100 when addBias.
source_filename = "fc_shared_slot"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@_ZL26__metal_implicit_fc_pred_0 = internal addrspace(2) global i8 0, align 1
@_ZL26__metal_implicit_fc_pred_1 = internal addrspace(2) global i8 0, align 1
@_ZL26__metal_implicit_fc_pred_2 = internal addrspace(2) global i8 0, align 1
@_Z4useA.MTL_FC_INIT_0_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, align 1
@_Z4useB.MTL_FC_INIT_1_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, align 1
@_Z4useC.MTL_FC_INIT_2_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, align 1
@_Z7addBias.MTL_FC_INIT_3_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, align 1
@_ZL4useA = internal unnamed_addr addrspace(2) global i8 undef, align 1
@_ZL4useB = internal unnamed_addr addrspace(2) global i8 undef, align 1
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @_GLOBAL__sub_I_fc_shared_slot.metal, ptr null }]

declare i8 @air.normalize_function_constant_predicate.i8(i8)

define internal void @_GLOBAL__sub_I_fc_shared_slot.metal() section "air.static_init" {
  %1 = load i8, ptr addrspace(2) @_Z4useA.MTL_FC_INIT_0_b, align 1, !range !20
  store i8 %1, ptr addrspace(2) @_ZL4useA, align 1
  %2 = load i8, ptr addrspace(2) @_Z4useB.MTL_FC_INIT_1_b, align 1, !range !20
  store i8 %2, ptr addrspace(2) @_ZL4useB, align 1
  %3 = load i8, ptr addrspace(2) @_Z4useC.MTL_FC_INIT_2_b, align 1, !range !20
  %4 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %1)
  %5 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %2)
  %6 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %3)
  store i8 %4, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0, align 1
  store i8 %5, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1, align 1
  store i8 %6, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_2, align 1
  ret void
}

define void @pick3(ptr addrspace(1) %inA, ptr addrspace(1) %inB, ptr addrspace(1) %inC, ptr addrspace(1) %out, i32 %gid) {
entry:
  %i = zext i32 %gid to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  %a = load i8, ptr addrspace(2) @_ZL4useA, align 1, !range !20
  %isA = icmp ne i8 %a, 0
  br i1 %isA, label %pathA, label %notA

notA:
  %b = load i8, ptr addrspace(2) @_ZL4useB, align 1, !range !20
  %isB = icmp ne i8 %b, 0
  br i1 %isB, label %pathB, label %pathC

pathA:
  %pa = getelementptr inbounds i32, ptr addrspace(1) %inA, i64 %i
  %wa = load i32, ptr addrspace(1) %pa, align 4
  %ra = add i32 %wa, 1
  br label %bias

pathB:
  %pb = getelementptr inbounds i32, ptr addrspace(1) %inB, i64 %i
  %wb = load i32, ptr addrspace(1) %pb, align 4
  %rb = mul i32 %wb, 2
  br label %bias

pathC:
  %pc = getelementptr inbounds i32, ptr addrspace(1) %inC, i64 %i
  %wc = load i32, ptr addrspace(1) %pc, align 4
  %rc = xor i32 %wc, 85
  br label %bias

bias:
  %r = phi i32 [ %ra, %pathA ], [ %rb, %pathB ], [ %rc, %pathC ]
  %d = load i8, ptr addrspace(2) @_Z7addBias.MTL_FC_INIT_3_b, align 1, !range !20
  %hasBias = icmp ne i8 %d, 0
  %rs = add i32 %r, 100
  %v = select i1 %hasBias, i32 %rs, i32 %r
  store i32 %v, ptr addrspace(1) %po, align 4
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!air.function_constants = !{!15, !16, !17, !18}
!0 = !{ptr @pick3, !1, !2}
!1 = !{}
!2 = !{!3, !5, !7, !9, !10}
!3 = !{i32 0, !"air.function_constant", !4, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"inA"}
!4 = !{ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0, !"bool", !"useA"}
!5 = !{i32 1, !"air.function_constant", !6, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"inB"}
!6 = !{ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1, !"bool", !"useB"}
!7 = !{i32 2, !"air.function_constant", !8, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"inC"}
!8 = !{ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_2, !"bool", !"useC"}
!9 = !{i32 3, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!10 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!15 = !{ptr addrspace(2) @_Z4useA.MTL_FC_INIT_0_b, !"bool", !"useA", i32 0, i1 true}
!16 = !{ptr addrspace(2) @_Z4useB.MTL_FC_INIT_1_b, !"bool", !"useB", i32 1, i1 true}
!17 = !{ptr addrspace(2) @_Z4useC.MTL_FC_INIT_2_b, !"bool", !"useC", i32 2, i1 true}
!18 = !{ptr addrspace(2) @_Z7addBias.MTL_FC_INIT_3_b, !"bool", !"addBias", i32 3, i1 true}
!20 = !{i8 0, i8 2}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

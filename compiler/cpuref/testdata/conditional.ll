; cpuref and emulator fixture: conditional arguments (Metal [[function_constant(p)]]). A bool
; function constant useFloat (index 0) decides, through predicates the static initializer
; computes (isFloat = normalize(useFloat), isUint = isFloat xor 1), which of two textures share
; texture(0) (srcF texture2d<float, read> or srcU texture2d<uint, read>) and which of two
; buffers share buffer(1) (inF float or inU uint). Thread i reads texel (i mod 4, 0) and word
; i of the present buffer and writes out[2i] = the texel's x, out[2i+1] = the word (the float
; path) or the word + 1 (the uint path).
source_filename = "conditional"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@_ZL26__metal_implicit_fc_pred_0 = internal addrspace(2) global i8 0, align 1
@_ZL26__metal_implicit_fc_pred_1 = internal addrspace(2) global i8 0, align 1
@_Z8useFloat.MTL_FC_INIT_0_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, align 1
@_ZL8useFloat = internal unnamed_addr addrspace(2) global i8 undef, align 1
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @_GLOBAL__sub_I_conditional.metal, ptr null }]

declare { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)
declare { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)
declare i8 @air.normalize_function_constant_predicate.i8(i8)

define internal void @_GLOBAL__sub_I_conditional.metal() section "air.static_init" {
  %1 = load i8, ptr addrspace(2) @_Z8useFloat.MTL_FC_INIT_0_b, align 1, !range !20
  store i8 %1, ptr addrspace(2) @_ZL8useFloat, align 1
  %2 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %1)
  %3 = xor i8 %2, 1
  store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0, align 1
  store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1, align 1
  ret void
}

define void @pick(ptr addrspace(1) %srcF, ptr addrspace(1) %srcU, ptr addrspace(1) %inF, ptr addrspace(1) %inU, ptr addrspace(1) %out, i32 %gid) {
entry:
  %b = load i8, ptr addrspace(2) @_ZL8useFloat, align 1, !range !20
  %isF = icmp ne i8 %b, 0
  %x = and i32 %gid, 3
  %c0 = insertelement <2 x i32> zeroinitializer, i32 %x, i32 0
  %i = zext i32 %gid to i64
  %o = shl i64 %i, 1
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o
  %o1 = add i64 %o, 1
  %po1 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o1
  br i1 %isF, label %float, label %uint

float:
  %rf = call { <4 x float>, i8 } @air.read_texture_2d.v4f32(ptr addrspace(1) %srcF, <2 x i32> %c0, i32 0, i32 0)
  %vf = extractvalue { <4 x float>, i8 } %rf, 0
  %tf = extractelement <4 x float> %vf, i32 0
  %pf = getelementptr inbounds i32, ptr addrspace(1) %inF, i64 %i
  %wf = load i32, ptr addrspace(1) %pf, align 4
  store float %tf, ptr addrspace(1) %po, align 4
  store i32 %wf, ptr addrspace(1) %po1, align 4
  br label %done

uint:
  %ru = call { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) %srcU, <2 x i32> %c0, i32 0, i32 0)
  %vu = extractvalue { <4 x i32>, i8 } %ru, 0
  %tu = extractelement <4 x i32> %vu, i32 0
  %pu = getelementptr inbounds i32, ptr addrspace(1) %inU, i64 %i
  %wu = load i32, ptr addrspace(1) %pu, align 4
  %wu1 = add i32 %wu, 1
  store i32 %tu, ptr addrspace(1) %po, align 4
  store i32 %wu1, ptr addrspace(1) %po1, align 4
  br label %done

done:
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!air.function_constants = !{!15}
!0 = !{ptr @pick, !1, !2}
!1 = !{}
!2 = !{!3, !5, !7, !8, !9, !10}
!3 = !{i32 0, !"air.function_constant", !4, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<float, read>", !"air.arg_name", !"srcF"}
!4 = !{ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0, !"bool", !"isFloat"}
!5 = !{i32 1, !"air.function_constant", !6, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<uint, read>", !"air.arg_name", !"srcU"}
!6 = !{ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1, !"bool", !"isUint"}
!7 = !{i32 2, !"air.function_constant", !4, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"inF"}
!8 = !{i32 3, !"air.function_constant", !6, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"inU"}
!9 = !{i32 4, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!10 = !{i32 5, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!15 = !{ptr addrspace(2) @_Z8useFloat.MTL_FC_INIT_0_b, !"bool", !"useFloat", i32 0, i1 true}
!20 = !{i8 0, i8 2}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

; translate fixture: texture objects passed by value (objects.go). A struct holding a texture and
; a constant-buffer pointer, and an array of two textures, are built with insertvalue and passed
; to a helper that takes the fields back with extractvalue (nested indices included) and reads
; through them: out[i] = t1 + 2·t5 + 3·t2 + k[i & 3], per component (uint textures 1, 2, 5).
source_filename = "texture_object"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%"struct.metal::texture2d" = type { ptr addrspace(1) }
%struct.Maps = type { %"struct.metal::texture2d", ptr addrspace(2) }

declare { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)

define internal <4 x i32> @texel(%"struct.metal::texture2d" %t, <2 x i32> %c) noinline {
entry:
  %h = extractvalue %"struct.metal::texture2d" %t, 0
  %r = call { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) %h, <2 x i32> %c, i32 0, i32 0)
  %v = extractvalue { <4 x i32>, i8 } %r, 0
  ret <4 x i32> %v
}

define internal void @body(%struct.Maps %m, [2 x %"struct.metal::texture2d"] %pair, ptr addrspace(1) %out, i32 %i) noinline {
entry:
  %th = extractvalue %struct.Maps %m, 0, 0
  %k = extractvalue %struct.Maps %m, 1
  %p0 = extractvalue [2 x %"struct.metal::texture2d"] %pair, 0
  %p1h = extractvalue [2 x %"struct.metal::texture2d"] %pair, 1, 0
  %c0 = insertelement <2 x i32> zeroinitializer, i32 %i, i32 0
  %c = and <2 x i32> %c0, <i32 3, i32 3>
  %ra = call { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) %th, <2 x i32> %c, i32 0, i32 0)
  %a = extractvalue { <4 x i32>, i8 } %ra, 0
  %rb = call { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) %p1h, <2 x i32> %c, i32 0, i32 0)
  %b = extractvalue { <4 x i32>, i8 } %rb, 0
  %d = call <4 x i32> @texel(%"struct.metal::texture2d" %p0, <2 x i32> %c)
  %b2 = shl <4 x i32> %b, <i32 1, i32 1, i32 1, i32 1>
  %d3 = mul <4 x i32> %d, <i32 3, i32 3, i32 3, i32 3>
  %j = and i32 %i, 3
  %kp = getelementptr inbounds i32, ptr addrspace(2) %k, i32 %j
  %kv = load i32, ptr addrspace(2) %kp, align 4
  %ks0 = insertelement <4 x i32> poison, i32 %kv, i32 0
  %ks = shufflevector <4 x i32> %ks0, <4 x i32> poison, <4 x i32> zeroinitializer
  %s1 = add <4 x i32> %a, %b2
  %s2 = add <4 x i32> %s1, %d3
  %s3 = add <4 x i32> %s2, %ks
  %i64 = zext i32 %i to i64
  %op = getelementptr inbounds <4 x i32>, ptr addrspace(1) %out, i64 %i64
  store <4 x i32> %s3, ptr addrspace(1) %op, align 16
  ret void
}

define void @objects(ptr addrspace(1) %t1, ptr addrspace(1) %t2, ptr addrspace(1) %t5, ptr addrspace(2) %kbuf, ptr addrspace(1) %out, i32 %gid) {
entry:
  %o1 = insertvalue %"struct.metal::texture2d" undef, ptr addrspace(1) %t1, 0
  %m0 = insertvalue %struct.Maps poison, %"struct.metal::texture2d" %o1, 0
  %m = insertvalue %struct.Maps %m0, ptr addrspace(2) %kbuf, 1
  %pa = insertvalue [2 x %"struct.metal::texture2d"] undef, ptr addrspace(1) %t2, 0, 0
  %pair = insertvalue [2 x %"struct.metal::texture2d"] %pa, ptr addrspace(1) %t5, 1, 0
  call void @body(%struct.Maps %m, [2 x %"struct.metal::texture2d"] %pair, ptr addrspace(1) %out, i32 %gid)
  ret void
}

!air.kernel = !{!0}
!air.version = !{!90}
!air.language_version = !{!91}
!0 = !{ptr @objects, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8}
!3 = !{i32 0, !"air.texture", !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<uint, read>", !"air.arg_name", !"t1"}
!4 = !{i32 1, !"air.texture", !"air.location_index", i32 2, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<uint, read>", !"air.arg_name", !"t2"}
!5 = !{i32 2, !"air.texture", !"air.location_index", i32 5, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<uint, read>", !"air.arg_name", !"t5"}
!6 = !{i32 3, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"k"}
!7 = !{i32 4, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"uint4", !"air.arg_name", !"out"}
!8 = !{i32 5, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!90 = !{i32 2, i32 6, i32 0}
!91 = !{!"Metal", i32 3, i32 0, i32 0}

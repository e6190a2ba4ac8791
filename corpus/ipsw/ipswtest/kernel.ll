; A tiny AIR-like kernel used to build test libraries (assembled with llvm-as-19).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define void @add_one(ptr addrspace(1) %p) {
  %v = load float, ptr addrspace(1) %p
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(1) %p
  ret void
}

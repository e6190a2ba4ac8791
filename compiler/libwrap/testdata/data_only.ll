; A library of data only, shaped like GPUCompiler's tracepoint runtime
; libraries (libtracepoint_rt_*): the module holds globals the runtime reads
; (a device-memory byte table named by its type, a constant count), a
; declaration, and no function with a body; its metadata lists no entry point.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@__tracepoint_data.p1i8 = addrspace(1) global [64 x i8] zeroinitializer, align 16
@__tracepoint_count = addrspace(2) constant i32 64, align 4
@__tracepoint_table = addrspace(2) constant [2 x ptr addrspace(1)] [ptr addrspace(1) @__tracepoint_data.p1i8, ptr addrspace(1) getelementptr inbounds ([64 x i8], ptr addrspace(1) @__tracepoint_data.p1i8, i64 0, i64 32)], align 8

declare void @air.wg.barrier(i32, i32)

!air.version = !{!0}
!air.language_version = !{!1}
!llvm.module.flags = !{!2}
!0 = !{i32 2, i32 6, i32 0}
!1 = !{!"Metal", i32 3, i32 1, i32 0}
!2 = !{i32 7, !"frame-pointer", i32 2}

; A call returning <4 x half> (one lane in each of xmm0-xmm3) whose vector
; LLVM 19's x86 FastISel reassembles with a lane from a stack slot it never
; wrote; SelectionDAG reads the registers (TestSelectionDAG). Reduced with
; llvm-reduce-19 from a host module of the CPU reference.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%"struct.VertexOut" = type { <4 x float>, <2 x half>, half, half, <4 x float>, half, <4 x float> }

define <{ <4 x float>, <2 x half>, half, half, <4 x float>, half, <4 x float> }> @"airpipe.internal.vertex_main"(half %0) {
  %2 = alloca %"struct.VertexOut", i32 0, align 16
  %3 = fneg half 0xH0000
  store half %0, ptr %2, align 4
  %4 = call <4 x half> @halves()
  %5 = call <4 x float> @widen(<4 x half> %4)
  br label %6

6:                                                ; preds = %1
  %7 = insertvalue <{ <4 x float>, <2 x half>, half, half, <4 x float>, half, <4 x float> }> zeroinitializer, <4 x float> %5, 0
  %8 = insertvalue <{ <4 x float>, <2 x half>, half, half, <4 x float>, half, <4 x float> }> zeroinitializer, half %3, 2
  ret <{ <4 x float>, <2 x half>, half, half, <4 x float>, half, <4 x float> }> %7
}

define <4 x float> @widen(<4 x half> %a0) {
  %r = fpext <4 x half> %a0 to <4 x float>
  ret <4 x float> %r
}

define <4 x half> @halves() {
  ret <4 x half> zeroinitializer
}

define void @airpipe_thread(ptr %bufs) {
entry:
  %ret1 = call <{ <4 x float>, <2 x half>, half, half, <4 x float>, half, <4 x float> }> @"airpipe.internal.vertex_main"(half 0xH0000)
  %obp = getelementptr i8, ptr %bufs, i64 256
  %ob = load ptr, ptr %obp, align 8
  %o0 = extractvalue <{ <4 x float>, <2 x half>, half, half, <4 x float>, half, <4 x float> }> %ret1, 0
  %o0_e1 = extractelement <4 x float> %o0, i64 1
  store float %o0_e1, ptr %ob, align 4
  ret void
}

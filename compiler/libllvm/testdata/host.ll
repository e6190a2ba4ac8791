; libllvm fixture: a host module as the CPU reference builds them (x86-64
; triple and data layout), compiled by the library and by llc-19.
source_filename = "host"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@table = internal constant [4 x float] [float 1.0, float 2.0, float 4.0, float 8.0]

define internal <4 x float> @scale(<4 x float> %v, float %s) {
  %i = insertelement <4 x float> undef, float %s, i64 0
  %b = shufflevector <4 x float> %i, <4 x float> undef, <4 x i32> zeroinitializer
  %m = fmul fast <4 x float> %v, %b
  %a = fadd fast <4 x float> %m, <float 1.0, float 1.0, float 1.0, float 1.0>
  ret <4 x float> %a
}

define void @airpipe_thread(ptr %buffers, ptr %ids) {
  %out = load ptr, ptr %buffers
  %id = load i32, ptr %ids
  %ix = and i32 %id, 3
  %e = zext i32 %ix to i64
  %tp = getelementptr inbounds [4 x float], ptr @table, i64 0, i64 %e
  %t = load float, ptr %tp
  %v = load <4 x float>, ptr %out
  %r = call <4 x float> @scale(<4 x float> %v, float %t)
  %h = fptrunc <4 x float> %r to <4 x half>
  %hp = getelementptr inbounds <4 x float>, ptr %out, i64 1
  store <4 x half> %h, ptr %hp
  store <4 x float> %r, ptr %out
  ret void
}

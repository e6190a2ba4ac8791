; Instruction families the reader and printer must round-trip (airpipe fixture).
source_filename = "families.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

%struct.Pair = type { float, i32 }
%struct.Packed = type <{ i8, <2 x half> }>
%struct.Opaque = type opaque

@table = internal addrspace(2) constant [4 x float] [float 1.000000e+00, float 5.000000e-01, float 0x3FB99999A0000000, float -0.000000e+00], align 4
@name = private unnamed_addr constant [6 x i8] c"air\00\22\0A", align 1
@zeros = global [3 x i32] zeroinitializer, section "air.fc", align 16
@pair = addrspace(3) global %struct.Pair { float 2.000000e+00, i32 -7 }, align 8
@packed = global %struct.Packed <{ i8 1, <2 x half> <half 0xH3C00, half 0xH0000> }>
@undefs = global <4 x i32> undef
@mixed = global <4 x i32> <i32 1, i32 undef, i32 poison, i32 0>
@ext = external addrspace(1) global %struct.Opaque

define float @arith(float %a, float %b, i32 %i, i32 %j) {
entry:
  %0 = fadd fast float %a, %b
  %1 = fsub nnan ninf float %0, %a
  %2 = fmul contract float %1, %b
  %3 = fdiv arcp float %2, %a
  %4 = frem float %3, %b
  %5 = fneg nsz float %4
  %6 = add nuw nsw i32 %i, %j
  %7 = sub nsw i32 %6, 1
  %8 = mul nuw i32 %7, %j
  %9 = udiv exact i32 %8, 3
  %10 = sdiv i32 %9, -2
  %11 = urem i32 %10, 5
  %12 = srem i32 %11, 7
  %13 = shl nuw i32 %12, 2
  %14 = lshr exact i32 %13, 1
  %15 = ashr i32 %14, 1
  %16 = and i32 %15, 255
  %17 = or disjoint i32 %16, 256
  %18 = xor i32 %17, -1
  %19 = sitofp i32 %18 to float
  %20 = fadd reassoc afn float %19, %5
  ret float %20
}

define i64 @casts(i32 %x, float %f, ptr addrspace(1) %p) {
  %t = trunc nuw i32 %x to i16
  %z = zext nneg i16 %t to i64
  %s = sext i16 %t to i32
  %fu = fptoui float %f to i32
  %fs = fptosi float %f to i64
  %u = uitofp nneg i32 %s to double
  %d = fpext float %f to double
  %h = fptrunc double %d to half
  %pi = ptrtoint ptr addrspace(1) %p to i64
  %ip = inttoptr i64 %pi to ptr addrspace(1)
  %ac = addrspacecast ptr addrspace(1) %ip to ptr
  %bc = bitcast i32 %x to float
  %sum = add i64 %z, %fs
  ret i64 %sum
}

define void @memory(ptr addrspace(1) noalias nocapture %out, ptr addrspace(2) nocapture readonly %in, i32 %n) {
  %a = alloca [4 x float], align 16
  %b = alloca i32, i32 %n, align 4
  %g = getelementptr inbounds [4 x float], ptr %a, i64 0, i64 2
  %v = load float, ptr addrspace(2) %in, align 4, !tbaa !0
  store float %v, ptr %g, align 4
  %w = load volatile float, ptr %g, align 4
  %q = getelementptr %struct.Pair, ptr addrspace(1) %out, i32 1, i32 1
  store volatile i32 %n, ptr addrspace(1) %q, align 4
  %c = getelementptr inbounds float, ptr addrspace(2) @table, i64 3
  ret void
}

define i32 @control(i32 %x, i1 %c) {
entry:
  br i1 %c, label %left, label %right

left:
  %l = icmp slt i32 %x, 10
  br i1 %l, label %join, label %sw

right:
  br label %join

sw:
  switch i32 %x, label %join [
    i32 1, label %one
    i32 -2, label %join
  ]

one:
  unreachable

join:
  %r = phi i32 [ 1, %left ], [ 2, %right ], [ %x, %sw ], [ %x, %sw ]
  br label %loop

loop:
  %i = phi i32 [ 0, %join ], [ %next, %loop ]
  %next = add i32 %i, 1
  %done = icmp uge i32 %next, %r
  br i1 %done, label %exit, label %loop

exit:
  %f = fcmp fast olt float 1.000000e+00, 2.000000e+00
  %s = select i1 %f, i32 %r, i32 %next
  ret i32 %s
}

define <4 x float> @vectors(<4 x float> %v, <3 x float> %w, float %s, i32 %i) {
  %e = extractelement <4 x float> %v, i32 %i
  %ins = insertelement <4 x float> %v, float %s, i64 1
  %sh = shufflevector <4 x float> %ins, <4 x float> undef, <4 x i32> <i32 3, i32 2, i32 poison, i32 0>
  %z = shufflevector <3 x float> %w, <3 x float> %w, <2 x i32> zeroinitializer
  %cmp = fcmp ogt <4 x float> %sh, zeroinitializer
  %sel = select <4 x i1> %cmp, <4 x float> %sh, <4 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  ret <4 x float> %sel
}

define { float, i32 } @aggregates(%struct.Pair %p, [2 x i32] %a) {
  %f = extractvalue %struct.Pair %p, 0
  %x = extractvalue [2 x i32] %a, 1
  %s = insertvalue { float, i32 } undef, float %f, 0
  %t = insertvalue { float, i32 } %s, i32 %x, 1
  ret { float, i32 } %t
}

define i32 @atomics(ptr addrspace(1) %p, i32 %v) {
  %old = atomicrmw add ptr addrspace(1) %p, i32 %v monotonic, align 4
  %x = atomicrmw volatile xchg ptr addrspace(1) %p, i32 %old seq_cst, align 4
  %pair = cmpxchg weak ptr addrspace(1) %p, i32 %x, i32 %v acq_rel monotonic, align 4
  %ok = extractvalue { i32, i1 } %pair, 0
  fence syncscope("singlethread") acquire
  %l = load atomic i32, ptr addrspace(1) %p acquire, align 4
  store atomic i32 %l, ptr addrspace(1) %p release, align 4
  ret i32 %ok
}

define internal fastcc float @helper(float %x) #0 {
  %r = call fast float @air.fast_sqrt.f32(float %x) #1
  ret float %r
}

define <4 x float> @calls(float %x) local_unnamed_addr {
  %a = tail call fastcc float @helper(float %x)
  %b = call float @llvm.fabs.f32(float %a)
  %v = insertelement <4 x float> zeroinitializer, float %b, i64 0
  ret <4 x float> %v
}

declare float @air.fast_sqrt.f32(float) local_unnamed_addr #1

declare float @llvm.fabs.f32(float)

attributes #0 = { nounwind "air-test"="yes" }
attributes #1 = { nounwind memory(none) }

!llvm.ident = !{!3}
!air.version = !{!4}
!air.kernel = !{!5}

!0 = !{!1, !1, i64 0}
!1 = !{!"float", !2, i64 0}
!2 = !{!"root"}
!3 = !{!"airpipe fixture"}
!4 = !{i32 2, i32 6, i32 0}
!5 = !{ptr @memory, !6, !7}
!6 = !{}
!7 = !{!8, !9}
!8 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!9 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.new_key", i32 9, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}

; More linkage, visibility, constants and instructions (airpipe fixture).
target datalayout = "e-p:64:64:64-i64:64:64-n8:16:32"
target triple = "air64-apple-ios18.0.0"

%struct.V = type { <4 x half>, [2 x { i8, double }] }

@hid = hidden global i32 3, align 4
@prot = protected constant i16 -1
@dso = dso_local global float 0x3810000000000000
@tls = thread_local(initialexec) global i64 9
@weakv = weak global i32 0
@odr = linkonce_odr unnamed_addr constant [2 x i64] [i64 -9223372036854775808, i64 9223372036854775807]
@nested = local_unnamed_addr addrspace(3) global %struct.V { <4 x half> <half 0xH3C00, half 0xH7C00, half 0xHFC00, half 0xH0001>, [2 x { i8, double }] [{ i8, double } { i8 -1, double 5.000000e-01 }, { i8, double } zeroinitializer] }, align 16
@bf = global bfloat 0xR3F80
@vd = global <2 x double> <double 0x7FF0000000000000, double -1.250000e+00>
@asc = global ptr addrspacecast (ptr addrspace(3) @nested to ptr)
@i2p = global ptr inttoptr (i64 4096 to ptr)
@ext = extern_weak global i8
@big = global i128 18446744073709551616
@arr = global [3 x [2 x i8]] [[2 x i8] c"ab", [2 x i8] zeroinitializer, [2 x i8] undef]

declare void @llvm.assume(i1)

define hidden fastcc { i32, float } @misc(i32 %a, ptr addrspace(1) align 16 dereferenceable(32) %p, <4 x i1> %m) {
entry:
  %f = freeze i32 %a
  %n = fneg fast float 1.000000e+00
  %s = alloca { i32, float }, align 8, addrspace(5)
  %g = getelementptr inbounds nuw { i32, float }, ptr addrspace(5) %s, i32 0, i32 1
  store float %n, ptr addrspace(5) %g, align 4
  %any = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %m)
  call void @llvm.assume(i1 true) [ "align"(ptr addrspace(1) %p, i64 16) ]
  br i1 %any, label %t, label %e

t:
  %v = phi i32 [ %f, %entry ], [ poison, %e ]
  %r0 = insertvalue { i32, float } poison, i32 %v, 0
  %r1 = insertvalue { i32, float } %r0, float %n, 1
  ret { i32, float } %r1

e:
  br label %t
}

declare i1 @llvm.vector.reduce.or.v4i1(<4 x i1>)

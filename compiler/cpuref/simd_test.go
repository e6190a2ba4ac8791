package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// simdOut is how many words each thread of simdKernel writes.
const simdOut = 36

// simdOps are simdKernel's outputs: each an IR fragment setting %rN (an
// i32) from %v = in[gid] (i32), %vh (its i16 lane-ish low bits), %lane
// (i16 thread_index_in_simdgroup), %sg, %w, %nsg; N is the slot.
var simdOps = []string{
	0:  "%r0 = zext i16 %lane to i32",
	1:  "%r1 = add i32 %sg, 0",
	2:  "%r2 = add i32 %w, 0",
	3:  "%r3 = add i32 %nsg, 0",
	4:  "%r4 = call i32 @air.simd_shuffle_down.u.i32(i32 %v, i16 3)",
	5:  "%r5 = call i32 @air.simd_shuffle_up.u.i32(i32 %v, i16 2)",
	6:  "%r6 = call i32 @air.simd_shuffle_xor.u.i32(i32 %v, i16 5)",
	7:  "%r7 = call i32 @air.simd_broadcast.u.i32(i32 %v, i16 1)",
	8:  "%w16 = trunc i32 %w to i16\n  %w1 = sub i16 %w16, 1\n  %rev = sub i16 %w1, %lane\n  %r8 = call i32 @air.simd_shuffle.u.i32(i32 %v, i16 %rev)",
	9:  "%r9 = call i32 @air.simd_shuffle_rotate_down.u.i32(i32 %v, i16 11)",
	10: "%r10 = call i32 @air.simd_shuffle_rotate_up.u.i32(i32 %v, i16 3)",
	11: "%r11 = call i32 @air.simd_sum.u.i32(i32 %v)",
	12: "%r12 = call i32 @air.simd_max.s.i32(i32 %v)",
	13: "%r13 = call i32 @air.simd_min.u.i32(i32 %v)",
	14: "%r14 = call i32 @air.simd_and.u.i32(i32 %v)",
	15: "%r15 = call i32 @air.simd_or.u.i32(i32 %v)",
	16: "%r16 = call i32 @air.simd_xor.u.i32(i32 %v)",
	17: "%r17 = call i32 @air.simd_prefix_inclusive_sum.u.i32(i32 %v)",
	18: "%r18 = call i32 @air.simd_prefix_exclusive_sum.u.i32(i32 %v)",
	19: "%v3 = or i32 %v, 1\n  %r19 = call i32 @air.simd_prefix_exclusive_product.u.i32(i32 %v3)",
	20: "%v5 = lshr i32 %v, 5\n  %odd = trunc i32 %v5 to i1\n  %bal = call i64 @air.simd_ballot.i64(i1 %odd)\n  %r20 = trunc i64 %bal to i32",
	21: "%balh = lshr i64 %bal, 32\n  %r21 = trunc i64 %balh to i32",
	22: "%small = icmp ult i32 %v, 4278190080\n  %all = call i1 @air.simd_all(i1 %small)\n  %r22 = zext i1 %all to i32",
	23: "%b4 = and i32 %v, 16\n  %has = icmp ne i32 %b4, 0\n  %any = call i1 @air.simd_any(i1 %has)\n  %r23 = zext i1 %any to i32",
	24: "%first = call i1 @air.simd_is_first()\n  %r24 = zext i1 %first to i32",
	25: "%act = call i64 @air.simd_active_threads_mask.i64()\n  %va = call i1 @air.simd_vote_all.i64(i64 %act)\n  %vb = call i1 @air.simd_vote_all.i64(i64 %bal)\n  %vc = call i1 @air.simd_vote_any.i64(i64 %bal)\n  %va2 = zext i1 %va to i32\n  %vb2 = zext i1 %vb to i32\n  %vb4 = shl i32 %vb2, 1\n  %vc2 = zext i1 %vc to i32\n  %vc4 = shl i32 %vc2, 2\n  %v01 = or i32 %va2, %vb4\n  %r25 = or i32 %v01, %vc4",
	26: "%uw = call i1 @air.is_uniform.i32(i32 %w)\n  %uv = call i1 @air.is_uniform.i32(i32 %v)\n  %uw2 = zext i1 %uw to i32\n  %uv2 = zext i1 %uv to i32\n  %uv4 = shl i32 %uv2, 1\n  %r26 = or i32 %uw2, %uv4",
	27: "%byte = and i32 %v, 255\n  %f = uitofp i32 %byte to float\n  %bf = call float @air.simd_broadcast_first.f32(float %f)\n  %r27 = bitcast float %bf to i32",
	28: "%sf = call float @air.simd_sum.f32(float %f)\n  %r28 = bitcast float %sf to i32",
	29: "%neg = fneg float %f\n  %mf = call float @air.simd_max.f32(float %neg)\n  %r29 = bitcast float %mf to i32",
	30: "%h = fptrunc float %f to half\n  %hd = call half @air.simd_shuffle_down.f16(half %h, i16 1)\n  %hb = bitcast half %hd to i16\n  %r30 = zext i16 %hb to i32",
	31: "%pv = insertelement <2 x i32> poison, i32 %v, i32 0\n  %pv2 = insertelement <2 x i32> %pv, i32 %sg, i32 1\n  %vd = call <2 x i32> @air.simd_shuffle_down.u.v2i32(<2 x i32> %pv2, i16 5)\n  %vd0 = extractelement <2 x i32> %vd, i32 0\n  %vd1 = extractelement <2 x i32> %vd, i32 1\n  %vd1s = shl i32 %vd1, 24\n  %r31 = xor i32 %vd0, %vd1s",
	32: "call void @air.simdgroup.barrier(i32 0, i32 4)\n  %vs = trunc i32 %v to i16\n  %ms = call i16 @air.simd_min.s.i16(i16 %vs)\n  %r32 = sext i16 %ms to i32",
	33: "%pf = call float @air.simd_prefix_inclusive_sum.f32(float %f)\n  %r33 = bitcast float %pf to i32",
	34: "%bal32 = call i32 @air.simd_ballot.i32(i1 %odd)\n  %r34 = xor i32 %bal32, %r20",
	35: "%pe = call float @air.simd_prefix_exclusive_product.f32(float %f)\n  %r35 = bitcast float %pe to i32",
}

const simdDecls = `declare i32 @air.simd_shuffle_down.u.i32(i32, i16)
declare i32 @air.simd_shuffle_up.u.i32(i32, i16)
declare i32 @air.simd_shuffle_xor.u.i32(i32, i16)
declare i32 @air.simd_broadcast.u.i32(i32, i16)
declare i32 @air.simd_shuffle.u.i32(i32, i16)
declare i32 @air.simd_shuffle_rotate_down.u.i32(i32, i16)
declare i32 @air.simd_shuffle_rotate_up.u.i32(i32, i16)
declare i32 @air.simd_sum.u.i32(i32)
declare i32 @air.simd_max.s.i32(i32)
declare i32 @air.simd_min.u.i32(i32)
declare i32 @air.simd_and.u.i32(i32)
declare i32 @air.simd_or.u.i32(i32)
declare i32 @air.simd_xor.u.i32(i32)
declare i32 @air.simd_prefix_inclusive_sum.u.i32(i32)
declare i32 @air.simd_prefix_exclusive_sum.u.i32(i32)
declare i32 @air.simd_prefix_exclusive_product.u.i32(i32)
declare i64 @air.simd_ballot.i64(i1)
declare i32 @air.simd_ballot.i32(i1)
declare i1 @air.simd_all(i1)
declare i1 @air.simd_any(i1)
declare i1 @air.simd_is_first()
declare i64 @air.simd_active_threads_mask.i64()
declare i1 @air.simd_vote_all.i64(i64)
declare i1 @air.simd_vote_any.i64(i64)
declare i1 @air.is_uniform.i32(i32)
declare float @air.simd_broadcast_first.f32(float)
declare float @air.simd_sum.f32(float)
declare float @air.simd_max.f32(float)
declare half @air.simd_shuffle_down.f16(half, i16)
declare <2 x i32> @air.simd_shuffle_down.u.v2i32(<2 x i32>, i16)
declare void @air.simdgroup.barrier(i32, i32)
declare i16 @air.simd_min.s.i16(i16)
declare float @air.simd_prefix_inclusive_sum.f32(float)
declare float @air.simd_prefix_exclusive_product.f32(float)
`

// simdKernel is a compute kernel over in (buffer 0) and out (buffer 1)
// taking thread_position_in_grid and the four SIMD-group built-ins; each
// thread writes the ops' results to out[gid·simdOut + slot].
func simdKernel(ops []string) string {
	var body strings.Builder
	for i, op := range ops {
		fmt.Fprintf(&body, "  %s\n  %%p%d = getelementptr inbounds i32, ptr addrspace(1) %%ob, i64 %d\n  store i32 %%r%d, ptr addrspace(1) %%p%d, align 4\n", op, i, i, i, i)
	}
	return `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

` + simdDecls + `
define void @k(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, i32 %gid, i16 %lane, i32 %sg, i32 %w, i32 %nsg) {
entry:
  %g = zext i32 %gid to i64
  %ip = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %g
  %v = load i32, ptr addrspace(1) %ip, align 4
  %o = mul i64 %g, ` + fmt.Sprint(simdOut) + `
  %ob = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o
` + body.String() + `  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7, !8, !9}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1}
!5 = !{i32 2, !"air.thread_position_in_grid"}
!6 = !{i32 3, !"air.thread_index_in_simdgroup"}
!7 = !{i32 4, !"air.simdgroup_index_in_threadgroup"}
!8 = !{i32 5, !"air.threads_per_simdgroup"}
!9 = !{i32 6, !"air.simdgroups_per_threadgroup"}
`
}

// simdWant is what Metal defines each of simdOps to be for lane l of a
// simdgroup of w lanes whose in words are x (x[l] the lane's), in a
// threadgroup of per threads, the lane's simdgroup sg.
func simdWant(x []uint32, l, w, sg, per uint32) [simdOut]uint32 {
	var r [simdOut]uint32
	f := func(i uint32) float32 { return float32(x[i] & 0xff) }
	r[0], r[1], r[2], r[3] = l, sg, w, (per+w-1)/w
	r[4], r[5] = x[l], x[l]
	if l+3 < w {
		r[4] = x[l+3]
	}
	if l >= 2 {
		r[5] = x[l-2]
	}
	r[6], r[7], r[8] = x[l^5], x[1], x[w-1-l]
	r[9], r[10] = x[(l+11%w)%w], x[(l+w-3%w)%w]
	r[11], r[12], r[13], r[14], r[15], r[16] = 0, x[0], x[0], x[0], 0, 0
	var bal uint64
	all, any := uint32(1), uint32(0)
	mx := -f(0)
	uniform := uint32(1)
	ms := int16(x[0])
	for i := range w {
		r[11] += x[i]
		r[12] = uint32(max(int32(r[12]), int32(x[i])))
		r[13] = min(r[13], x[i])
		r[14] &= x[i]
		r[15] |= x[i]
		r[16] ^= x[i]
		if x[i]>>5&1 != 0 {
			bal |= 1 << i
		}
		if x[i] >= 4278190080 {
			all = 0
		}
		if x[i]&16 != 0 {
			any = 1
		}
		if i > 0 {
			mx = float32(math.Max(float64(mx), float64(-f(i))))
		}
		if x[i] != x[0] {
			uniform = 0
		}
		ms = min(ms, int16(x[i]))
	}
	r[17], r[18], r[19] = 0, 0, 1
	for i := range l + 1 {
		r[17] += x[i]
		if i < l {
			r[18] += x[i]
			r[19] *= x[i] | 1
		}
	}
	r[20], r[21] = uint32(bal), uint32(bal>>32)
	r[22], r[23] = all, any
	if l == 0 {
		r[24] = 1
	}
	act := uint64(1)<<w - 1
	if w == 64 {
		act = ^uint64(0)
	}
	vb, vc := uint32(0), uint32(0)
	if bal&act == act {
		vb = 1
	}
	if bal != 0 {
		vc = 1
	}
	r[25] = 1 | vb<<1 | vc<<2
	r[26] = 1 | uniform<<1
	r[27] = math.Float32bits(f(0))
	// f's are integers below 256: every order of the sum is exact.
	sum := float32(0)
	for i := range w {
		sum += f(i)
	}
	r[28] = math.Float32bits(sum)
	r[29] = math.Float32bits(mx)
	hs := l
	if l+1 < w {
		hs = l + 1
	}
	r[30] = uint32(halfBits(f(hs)))
	vs := l
	if l+5 < w {
		vs = l + 5
	}
	r[31] = x[vs] ^ sg<<24
	r[32] = uint32(int32(ms))
	ps := float32(0)
	for i := range l + 1 {
		ps += f(i)
	}
	r[33] = math.Float32bits(ps)
	r[34] = 0
	pe := float32(1)
	if l > 0 {
		pe = f(0)
		for i := uint32(1); i < l; i++ {
			pe *= f(i)
		}
	}
	r[35] = math.Float32bits(pe)
	return r
}

// TestSIMDReference runs every SIMD-group operation family at W = 8 and W =
// 32 and checks every output word against Go's computation of what Metal
// defines.
func TestSIMDReference(t *testing.T) {
	needTools(t)
	for _, w := range []uint32{8, 32} {
		res, err := RunText(context.Background(), simdKernel(simdOps), "k", Options{SIMDWidth: int(w)})
		if err != nil {
			t.Fatalf("W=%d: %v", w, err)
		}
		if res.SIMDWidth != int(w) || res.Grid.Threads[0] != max(32, 2*w) || res.Grid.Groups[0] != 2 {
			t.Fatalf("W=%d: ran at width %d over %+v", w, res.SIMDWidth, res.Grid)
		}
		if got := strings.Join(res.Approximate, " "); got != "air.simd_prefix_exclusive_product.f32 air.simd_prefix_inclusive_sum.f32 air.simd_sum.f32" {
			t.Fatalf("W=%d: Approximate = %q", w, got)
		}
		in, out := res.Inputs[0].Bytes, res.Outputs[1].Bytes
		word := func(b []byte, i uint32) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
		per := res.Grid.Threads[0]
		for gid := range res.Grid.Size()[0] {
			lid := gid % per
			base := gid - gid%w
			x := make([]uint32, w)
			for i := range w {
				x[i] = word(in, base+i)
			}
			want := simdWant(x, gid%w, w, lid/w, per)
			for s := range uint32(simdOut) {
				if got := word(out, gid*simdOut+s); got != want[s] {
					t.Errorf("W=%d: thread %d slot %d (%s): got %#x, want %#x", w, gid, s, strings.SplitN(simdOps[s], "\n", 2)[0], got, want[s])
				}
			}
		}
	}
}

// TestSIMDSetAside checks what the reference refuses by name: no width, a
// partial simdgroup, divergent lanes, a shuffle outside the simdgroup, a
// quad function, a min without signedness.
func TestSIMDSetAside(t *testing.T) {
	needTools(t)
	sum := []string{"%r0 = call i32 @air.simd_sum.u.i32(i32 %v)"}
	cases := []struct {
		name, kernel, kind, detail string
		opts                       Options
	}{
		{"no width", simdKernel(sum), KindSIMDGroup, "SIMD width unknown", Options{}},
		{"partial", simdKernel(sum), KindSIMDGroup, "partial simdgroup", Options{SIMDWidth: 8, Grid: Grid{Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{12, 1, 1}}}},
		// Lanes 0-3 skip the sum: the others meet it while they finish.
		{"divergent", simdKernel([]string{"%r0 = add i32 0, 0\n  %few = icmp ult i16 %lane, 4\n  br i1 %few, label %skip, label %go\ngo:\n  %s = call i32 @air.simd_sum.u.i32(i32 %v)\n  store i32 %s, ptr addrspace(1) %ob, align 4\n  br label %skip\nskip:"}), KindSIMDDivergence, "", Options{SIMDWidth: 8}},
		{"out of range", simdKernel([]string{"%r0 = call i32 @air.simd_shuffle.u.i32(i32 %v, i16 8)"}), KindSIMDGroup, "shuffle lane out of range", Options{SIMDWidth: 8}},
		{"quad", strings.Replace(simdKernel([]string{"%r0 = call i32 @air.quad_sum.u.i32(i32 %v)"}), "declare i32 @air.simd_sum.u.i32(i32)", "declare i32 @air.quad_sum.u.i32(i32)", 1), KindSIMDGroup, "air.quad_sum.u.i32", Options{SIMDWidth: 8}},
		{"unsigned-less max", strings.Replace(simdKernel([]string{"%r0 = call i32 @air.simd_max.i32(i32 %v)"}), "declare i32 @air.simd_sum.u.i32(i32)", "declare i32 @air.simd_max.i32(i32)", 1), KindSIMDGroup, "air.simd_max.i32", Options{SIMDWidth: 8}},
	}
	for _, c := range cases {
		_, err := RunText(context.Background(), c.kernel, "k", c.opts)
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != c.kind || nj.Detail != c.detail {
			t.Errorf("%s: got %v, want %s %q", c.name, err, c.kind, c.detail)
		} else if !nj.SIMD {
			t.Errorf("%s: a SIMD kernel's verdict not marked as depending on the width", c.name)
		}
	}
}

// TestSIMDPlantedFault: the reference of a kernel whose shuffle_down was
// replaced by shuffle_up differs from the original's, so the emulator would
// call the translation red (the stage-level fixture is
// stages/testdata/emulator/simd_wrong.ll).
func TestSIMDPlantedFault(t *testing.T) {
	needTools(t)
	ops := []string{"%r0 = call i32 @air.simd_shuffle_down.u.i32(i32 %v, i16 3)"}
	good, err := RunText(context.Background(), simdKernel(ops), "k", Options{SIMDWidth: 8})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := RunText(context.Background(), strings.ReplaceAll(simdKernel(ops), "call i32 @air.simd_shuffle_down.u.i32", "call i32 @air.simd_shuffle_up.u.i32"), "k", Options{SIMDWidth: 8})
	if err != nil {
		t.Fatal(err)
	}
	if string(good.Outputs[1].Bytes) == string(bad.Outputs[1].Bytes) {
		t.Fatal("shuffle_up left what shuffle_down left")
	}
}

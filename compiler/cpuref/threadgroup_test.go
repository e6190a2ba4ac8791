package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"
)

// tgKernel is a compute kernel over buffers in (0, read) and out (1,
// read_write) taking thread_position_in_grid %gid, thread_position_in_threadgroup
// %lid and threads_per_threadgroup %n, with the threadgroup array @tg of 1024
// words; body runs after %g, %l (64-bit gid, lid), %v = in[gid] and %op =
// &out[gid] are set.
func tgKernel(decls, body string) string {
	return `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

@tg = internal unnamed_addr addrspace(3) global [1024 x i32] undef, align 4
declare void @air.wg.barrier(i32, i32)
` + decls + `

define void @k(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, i32 %gid, i32 %lid, i32 %n) {
entry:
  %g = zext i32 %gid to i64
  %l = zext i32 %lid to i64
  %ip = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %g
  %v = load i32, ptr addrspace(1) %ip, align 4
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  %tp = getelementptr inbounds [1024 x i32], ptr addrspace(3) @tg, i64 0, i64 %l
` + body + `
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4, !5, !6, !7}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1}
!4 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1}
!5 = !{i32 2, !"air.thread_position_in_grid"}
!6 = !{i32 3, !"air.thread_position_in_threadgroup"}
!7 = !{i32 4, !"air.threads_per_threadgroup"}
`
}

// tgAt is the IR setting %name to &tg[idx] (idx a signed i32 value).
func tgAt(name, idx string) string {
	return "  %" + name + "_i = sext i32 " + idx + " to i64\n  %" + name + " = getelementptr inbounds [1024 x i32], ptr addrspace(3) @tg, i64 0, i64 %" + name + "_i\n"
}

// neighbourBody: tg[lid] = 3·v + lid; barrier; w = tg[(lid+1) mod n]; barrier;
// tg[lid] = w + 1; barrier; out[gid] = tg[n-1-lid]. Every read crosses threads.
const neighbourBody = `  %v3 = mul i32 %v, 3
  %a = add i32 %v3, %lid
  store i32 %a, ptr addrspace(3) %tp, align 4
  call void @air.wg.barrier(i32 2, i32 1)
  %l1 = add i32 %lid, 1
  %j = urem i32 %l1, %n
` + "%NP" + `  %w = load i32, ptr addrspace(3) %np, align 4
  call void @air.wg.barrier(i32 2, i32 1)
  %w1 = add i32 %w, 1
  store i32 %w1, ptr addrspace(3) %tp, align 4
  call void @air.wg.barrier(i32 2, i32 1)
  %nm = sub i32 %n, 1
  %r = sub i32 %nm, %lid
` + "%RP" + `  %x = load i32, ptr addrspace(3) %rp, align 4
  store i32 %x, ptr addrspace(1) %op, align 4`

func neighbour() string {
	return strings.NewReplacer("%NP", tgAt("np", "%j"), "%RP", tgAt("rp", "%r")).Replace(neighbourBody)
}

// TestThreadgroupReference runs kernels whose threads cooperate through
// threadgroup memory and barriers, and checks every output word against Go's
// own computation of what Metal defines.
func TestThreadgroupReference(t *testing.T) {
	needTools(t)
	grids := []Grid{{}, {Groups: [3]uint32{2, 1, 1}, Threads: [3]uint32{8, 1, 1}}, {Groups: [3]uint32{3, 1, 1}, Threads: [3]uint32{5, 1, 1}}, {Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{64, 1, 1}}}
	for _, g := range grids {
		res, err := RunText(context.Background(), tgKernel("", neighbour()), "k", Options{Grid: g})
		if err != nil {
			t.Fatalf("grid %+v: %v", g, err)
		}
		in, out := res.Inputs[0].Bytes, res.Outputs[1].Bytes
		word := func(b []byte, i uint32) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
		n := res.Grid.Threads[0]
		total := res.Grid.Size()[0]
		for gid := uint32(0); gid < total; gid++ {
			base, lid := gid-gid%n, gid%n
			a := func(l uint32) uint32 { return word(in, base+l)*3 + l }
			b := func(l uint32) uint32 { return a((l+1)%n) + 1 }
			if got, want := word(out, gid), b(n-1-lid); got != want {
				t.Fatalf("grid %+v: out[%d] = %#x, want %#x", res.Grid, gid, got, want)
			}
		}
		if word(out, total) != word(res.Inputs[1].Bytes, total) {
			t.Fatalf("grid %+v: out[%d], which no thread writes, changed", res.Grid, total)
		}
	}

	// Threadgroup atomics: every thread stores 0 to tg[0] and tg[1] atomically,
	// then after a barrier adds 1 << lid to tg[0] and ORs lid into tg[1]; after
	// another barrier out[gid] = tg[0] ^ tg[1]·2^16 (32 threads a group:
	// 0xffffffff ^ 31·2^16, a lost add clearing the bit of its thread).
	atomics := `  call void @air.atomic.local.store.i32(ptr addrspace(3) %tp0, i32 0, i32 0, i32 1, i1 true)
  call void @air.atomic.local.store.i32(ptr addrspace(3) %tp1, i32 0, i32 0, i32 1, i1 true)
  call void @air.wg.barrier(i32 2, i32 1)
  %bit = shl i32 1, %lid
  %o0 = call i32 @air.atomic.local.add.u.i32(ptr addrspace(3) %tp0, i32 %bit, i32 0, i32 1, i1 true)
  %o1 = call i32 @air.atomic.local.or.u.i32(ptr addrspace(3) %tp1, i32 %lid, i32 0, i32 1, i1 true)
  call void @air.wg.barrier(i32 2, i32 1)
  %s = call i32 @air.atomic.local.load.i32(ptr addrspace(3) %tp0, i32 0, i32 1, i1 true)
  %m = call i32 @air.atomic.local.load.i32(ptr addrspace(3) %tp1, i32 0, i32 1, i1 true)
  %mh = shl i32 %m, 16
  %x = xor i32 %s, %mh
  store i32 %x, ptr addrspace(1) %op, align 4`
	decls := `declare void @air.atomic.local.store.i32(ptr addrspace(3), i32, i32, i32, i1)
declare i32 @air.atomic.local.load.i32(ptr addrspace(3), i32, i32, i1)
declare i32 @air.atomic.local.add.u.i32(ptr addrspace(3), i32, i32, i32, i1)
declare i32 @air.atomic.local.or.u.i32(ptr addrspace(3), i32, i32, i32, i1)`
	body := tgAt("tp0", "0") + tgAt("tp1", "1") + atomics
	res, err := RunText(context.Background(), tgKernel(decls, body), "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sum, or uint32
	for l := range res.Grid.Threads[0] {
		sum += 1 << l
		or |= l
	}
	if res.Grid.Threads[0] != 32 || sum != 0xffffffff {
		t.Fatalf("a barrier kernel ran over %+v, not CooperativeGridFor's 2 groups of 32", res.Grid)
	}
	for gid := range res.Grid.Size()[0] {
		if got := binary.LittleEndian.Uint32(res.Outputs[1].Bytes[4*gid:]); got != sum^or<<16 {
			t.Fatalf("atomics: out[%d] = %#x, want %#x", gid, got, sum^or<<16)
		}
	}
}

// TestThreadgroupNotJudgeable: kernels whose result Metal leaves undefined —
// barrier divergence, reads of unwritten threadgroup memory, reads racing
// with writes, writes a barrier does not order — and barriers the reference
// does not define are set aside by name.
func TestThreadgroupNotJudgeable(t *testing.T) {
	needTools(t)
	atomicDecl := "declare i32 @air.atomic.local.add.u.i32(ptr addrspace(3), i32, i32, i32, i1)"
	cases := []struct {
		name, kind, detail, decls, body string
	}{
		{"a thread returns before the barrier", KindBarrierDivergence, "air.wg.barrier", "", `  store i32 %v, ptr addrspace(3) %tp, align 4
  %first = icmp eq i32 %lid, 0
  br i1 %first, label %done, label %wait
wait:
  call void @air.wg.barrier(i32 2, i32 1)
  store i32 1, ptr addrspace(1) %op, align 4
  br label %done
done:`},
		{"threads wait at different barriers", KindBarrierDivergence, "air.wg.barrier", "", `  %odd = trunc i32 %lid to i1
  br i1 %odd, label %a, label %b
a:
  call void @air.wg.barrier(i32 2, i32 1)
  br label %done
b:
  call void @air.wg.barrier(i32 2, i32 1)
  br label %done
done:
  store i32 1, ptr addrspace(1) %op, align 4`},
		{"threadgroup memory read before any write", KindOrderDependent, "unwritten threadgroup memory", "", `  call void @air.wg.barrier(i32 2, i32 1)
  %x = load i32, ptr addrspace(3) %tp, align 4
  store i32 %x, ptr addrspace(1) %op, align 4`},
		// A max (a min) over a word no thread wrote, with 0: the fills 0x00 and
		// 0xff (a NaN, which maxnum passes over) both give 0; 0x7b (0xfb) does
		// not. The extra fills of the harness catch them.
		{"an unwritten threadgroup word under a max", KindOrderDependent, "unwritten threadgroup memory", "declare float @llvm.maxnum.f32(float, float)", `  call void @air.wg.barrier(i32 2, i32 1)
  %x = load float, ptr addrspace(3) %tp, align 4
  %m = call float @llvm.maxnum.f32(float %x, float 0.0)
  store float %m, ptr addrspace(1) %op, align 4`},
		{"an unwritten threadgroup word under a min", KindOrderDependent, "unwritten threadgroup memory", "declare float @llvm.minnum.f32(float, float)", `  call void @air.wg.barrier(i32 2, i32 1)
  %x = load float, ptr addrspace(3) %tp, align 4
  %m = call float @llvm.minnum.f32(float %x, float 0.0)
  store float %m, ptr addrspace(1) %op, align 4`},
		// Thread lid reads tg[lid ^ 1], which its neighbour writes with no barrier
		// between: thread 1 sees thread 0's value in order, not in reverse.
		{"a neighbour's threadgroup word read with no barrier", KindOrderDependent, "unwritten threadgroup memory", "", `  store i32 %v, ptr addrspace(3) %tp, align 4
  %j = xor i32 %lid, 1
` + tgAt("np", "%j") + `  %x = load i32, ptr addrspace(3) %np, align 4
  store i32 %x, ptr addrspace(1) %op, align 4`},
		// The same race on device memory: out[gid ^ 1] read after out[gid] is
		// written, with a barrier only at the start.
		{"a neighbour's device word read with no barrier", KindOrderDependent, "thread order", "", `  call void @air.wg.barrier(i32 0, i32 1)
  store i32 %v, ptr addrspace(1) %op, align 4
  %j = xor i64 %g, 1
  %np = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %j
  %x = load i32, ptr addrspace(1) %np, align 4
  %k = add i64 %g, 64
  %kp = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %k
  store i32 %x, ptr addrspace(1) %kp, align 4`},
		// Threads 0 and 1 both write tg[0], with a barrier between that orders
		// device memory only: a write conflict on threadgroup memory.
		{"threadgroup writes a mem_device barrier does not order", KindRace, "", "", `  %first = icmp eq i32 %lid, 0
  br i1 %first, label %w0, label %mid
w0:
  store i32 %v, ptr addrspace(3) %tp, align 4
  br label %mid
mid:
  call void @air.wg.barrier(i32 1, i32 1)
  %second = icmp eq i32 %lid, 1
` + tgAt("z", "0") + `  br i1 %second, label %w1, label %done
w1:
  store i32 %v, ptr addrspace(3) %z, align 4
  br label %done
done:
  store i32 1, ptr addrspace(1) %op, align 4`},
		{"the value an atomic fetches depends on thread order", KindOrderDependent, "thread order", atomicDecl, tgAt("z", "0") + `  store i32 0, ptr addrspace(3) %z, align 4
  call void @air.wg.barrier(i32 2, i32 1)
  %old = call i32 @air.atomic.local.add.u.i32(ptr addrspace(3) %z, i32 1, i32 0, i32 1, i1 true)
  store i32 %old, ptr addrspace(1) %op, align 4`},
		// @tg is 1024 words, one page: a word past it lies in the trailing
		// guard; the bounds-checking pass (bounds.go) stops both before.
		{"a write past the threadgroup memory", KindOutOfBounds, "private or threadgroup array", "", "  call void @air.wg.barrier(i32 2, i32 1)\n" + tgAt("q", "1030") + "  store i32 %v, ptr addrspace(3) %q\n  store i32 1, ptr addrspace(1) %op"},
		{"a write before the threadgroup memory", KindOutOfBounds, "private or threadgroup array", "", "  call void @air.wg.barrier(i32 2, i32 1)\n" + tgAt("q", "-1") + "  store i32 %v, ptr addrspace(3) %q\n  store i32 1, ptr addrspace(1) %op"},
		{"other mem_flags bits", KindBarrier, "air.wg.barrier mem_flags 0x8", "", "  call void @air.wg.barrier(i32 8, i32 1)\n  store i32 1, ptr addrspace(1) %op, align 4"},
		{"another scope", KindBarrier, "air.wg.barrier scope 2", "", "  call void @air.wg.barrier(i32 2, i32 2)\n  store i32 1, ptr addrspace(1) %op, align 4"},
		{"a memory barrier", KindBarrier, "air.mem.barrier", "declare void @air.mem.barrier(i32, i32)", "  call void @air.mem.barrier(i32 2, i32 1)\n  store i32 1, ptr addrspace(1) %op, align 4"},
		// simd.go runs it with a width; without one it is set aside.
		{"a simdgroup barrier without a SIMD width", KindSIMDGroup, "SIMD width unknown", "declare void @air.simdgroup.barrier(i32, i32)", "  call void @air.simdgroup.barrier(i32 2, i32 1)\n  store i32 1, ptr addrspace(1) %op, align 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := RunText(context.Background(), tgKernel(c.decls, c.body), "k", Options{Timeout: 10 * time.Second})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) {
				t.Fatalf("got %v, want %s", err, c.kind)
			}
			if nj.Kind != c.kind || nj.Detail != c.detail || nj.Reason == "" {
				t.Fatalf("got %s %q (%s), want %s %q", nj.Kind, nj.Detail, nj.Reason, c.kind, c.detail)
			}
			t.Log(nj.Reason)
		})
	}
}

// TestThreadgroupOrderedWrites: the same two writes as the mem_device case
// above, ordered by a mem_threadgroup barrier, are no conflict.
func TestThreadgroupOrderedWrites(t *testing.T) {
	needTools(t)
	body := `  %first = icmp eq i32 %lid, 0
  br i1 %first, label %w0, label %mid
w0:
  store i32 %v, ptr addrspace(3) %tp, align 4
  br label %mid
mid:
  call void @air.wg.barrier(i32 2, i32 1)
  %second = icmp eq i32 %lid, 1
` + tgAt("z", "0") + `  br i1 %second, label %w1, label %done
w1:
  %v1 = add i32 %v, 1
  store i32 %v1, ptr addrspace(3) %z, align 4
  br label %done
done:
  call void @air.wg.barrier(i32 2, i32 1)
  %x = load i32, ptr addrspace(3) %z, align 4
  store i32 %x, ptr addrspace(1) %op, align 4`
	res, err := RunText(context.Background(), tgKernel("", body), "k", Options{})
	if err != nil {
		t.Fatal(err)
	}
	in, out := res.Inputs[0].Bytes, res.Outputs[1].Bytes
	for gid := range res.Grid.Size()[0] {
		second := gid - gid%res.Grid.Threads[0] + 1
		if got, want := binary.LittleEndian.Uint32(out[4*gid:]), binary.LittleEndian.Uint32(in[4*second:])+1; got != want {
			t.Fatalf("out[%d] = %#x, want %#x", gid, got, want)
		}
	}
}

func TestThreadgroupGlobal(t *testing.T) {
	cases := []struct{ in, want, kind string }{
		{`@tg = internal unnamed_addr addrspace(3) global [64 x float] undef, align 4`, `@tg = internal unnamed_addr addrspace(3) global [64 x float] zeroinitializer, section "airpipe_tg", align 4`, ""},
		{`@m = internal unnamed_addr addrspace(3) global float -9.990000e+02, align 4`, `@m = internal unnamed_addr addrspace(3) global float zeroinitializer, section "airpipe_tg", align 4`, ""},
		{`@s = internal addrspace(3) global [32 x %struct.IndexValPair.7] zeroinitializer, align 8, !dbg !4`, `@s = internal addrspace(3) global [32 x %struct.IndexValPair.7] zeroinitializer, section "airpipe_tg", align 8, !dbg !4`, ""},
		{`@q = internal addrspace(3) global %"struct.a b" undef`, `@q = internal addrspace(3) global %"struct.a b" zeroinitializer, section "airpipe_tg"`, ""},
		{`@e = external addrspace(3) global [4 x i32], align 4`, "", KindThreadgroupMemory},
		{`@c = internal addrspace(3) global i32 undef, section "x", align 4`, "", KindThreadgroupMemory},
	}
	for _, c := range cases {
		got, ok, err := threadgroupGlobal(c.in)
		var nj *NotJudgeableError
		switch {
		case !ok:
			t.Errorf("%s: not read as a threadgroup global", c.in)
		case c.kind != "" && (!errors.As(err, &nj) || nj.Kind != c.kind):
			t.Errorf("%s: got %v, want %s", c.in, err, c.kind)
		case c.kind == "" && (err != nil || got != c.want):
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.in, got, err, c.want)
		}
	}
	if _, ok, _ := threadgroupGlobal(`@d = internal addrspace(1) global i32 0`); ok {
		t.Error("a device global read as threadgroup memory")
	}
}

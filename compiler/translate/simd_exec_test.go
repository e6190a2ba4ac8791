package translate

import (
	"context"
	"encoding/binary"
	"math"
	"os/exec"
	"testing"

	"github.com/airpipe/airpipe/device"
)

// TestSIMDShuffleExecuted runs the shuffle fixture on lavapipe (one
// threadgroup of 64 threads, every lane active) and checks each result
// against Metal's definition for the lane layout the device reports: lane
// l of a SIMD-group of S lanes is thread S*k + l. The last delta lanes of a
// shuffle_down (and the first of a shuffle_up) keep their own value, which
// SPIR-V alone leaves undefined.
// runSIMDFixture runs a fixture kernel on lavapipe as one threadgroup of
// threads threads, each writing fields words, and returns word(thread, field).
func runSIMDFixture(t *testing.T, name string, threads, fields int) func(g, k int) uint32 {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip(err)
	}
	out := translatedFixture(t, name)
	d, err := device.Open("lavapipe", device.Options{})
	if err != nil {
		t.Skipf("lavapipe cannot be opened here: %v", err)
	}
	t.Cleanup(func() { _ = d.Stop() })
	p, err := d.LoadPipeline(out.SPIRV, out.Entry)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := d.NewBuffer(int64(threads * fields * 4))
	if err != nil {
		t.Fatal(err)
	}
	b := out.Reflection.Bindings[0]
	err = d.Run(context.Background(), p, device.DispatchArgs{
		Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{uint32(threads), 1, 1},
		Bindings: []device.Binding{{Set: uint32(b.Set), Binding: uint32(b.Binding), Buffer: buf}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", d.Facts().Name)
	return func(g, k int) uint32 { return binary.LittleEndian.Uint32(buf.Bytes()[(g*fields+k)*4:]) }
}

func TestSIMDShuffleExecuted(t *testing.T) {
	const threads, fields = 64, 20
	word := runSIMDFixture(t, "simd_shuffle.ll", threads, fields)
	S := uint32(0)
	for g := range threads {
		S = max(S, word(g, 8)+1) // field 8 is simd_shuffle(lane, lane): the lane
	}
	if S < 8 || threads%S != 0 {
		t.Skipf("SIMD-group of %d lanes: the fixture's deltas (8, 16, xor 5) need at least 8", S)
	}
	f := func(v uint32) uint32 { return math.Float32bits(float32(v)) }
	for g := range threads {
		l := uint32(g) % S
		if word(g, 8) != l {
			t.Fatalf("thread %d is lane %d, not %d: the layout this test assumes does not hold", g, word(g, 8), l)
		}
		down := func(d uint32) uint32 {
			if l+d < S {
				return l + d
			}
			return l
		}
		up := func(d uint32) uint32 {
			if l >= d {
				return l - d
			}
			return l
		}
		q := l & 3
		qdown := l
		if q+1 <= 3 {
			qdown = l + 1
		}
		qup := l
		if q >= 2 {
			qup = l - 2
		}
		v2 := l + uint32(g)
		if l+1 < S {
			v2 = (l + 1) + uint32(g+1)
		}
		want := [fields]uint32{
			f(down(1)), down(2), down(4), down(8), f(down(16)), v2, f(up(3)), f(l ^ 5), l, 3,
			f(0), (l + 1) % S, (l + S - 1) % S, l&^3 | 3, l ^ 1, qdown, qup, l&^3 | (q+1)&3, l &^ 3, l,
		}
		for k, w := range want {
			if got := word(g, k); got != w {
				t.Errorf("thread %d (lane %d of %d) field %d = %#x, want %#x", g, l, S, k, got, w)
			}
		}
	}
}

// TestSIMDReduceExecuted runs the reduction fixture on lavapipe and checks
// each reduction and scan against its definition over the SIMD-group's
// lanes (every lane active; field 12, the inclusive sum of lanes, gives the
// layout: its last value in a group is S(S-1)/2).
func TestSIMDReduceExecuted(t *testing.T) {
	const threads, fields = 64, 18
	word := runSIMDFixture(t, "simd_reduce.ll", threads, fields)
	S := uint32(0)
	for g := range threads {
		if word(g, 12) == 0 && g > 0 {
			S = uint32(g) // the inclusive sum restarts at 0 in a new SIMD-group
			break
		}
	}
	if S == 0 {
		S = threads
	}
	if S < 4 || threads%S != 0 {
		t.Skipf("SIMD-group of %d lanes", S)
	}
	for g := range threads {
		l := uint32(g) % S
		var sum, prod, and, or, xor, incl, excl uint32 = 0, 1, ^uint32(0), 0, 0, 0, 0
		for i := range S {
			sum += i
			prod *= i + 1
			and &= i
			or |= i
			xor ^= i
			if i <= l {
				incl += i
			}
			if i < l {
				excl += i
			}
		}
		q := l &^ 3
		pow := func(e uint32) uint32 { // 2^e converted to uint as Metal does: saturating
			if e >= 32 {
				return math.MaxUint32
			}
			return 1 << e
		}
		want := [fields]uint32{
			sum, sum & 0xffff, prod, S - 1, 0, S - 1, 0, and, or, xor,
			0, S, incl, excl, pow(l + 1), pow(l), 4*q + 6, q | 3,
		}
		for k, w := range want {
			if got := word(g, k); got != w {
				t.Errorf("thread %d (lane %d of %d) field %d = %d, want %d", g, l, S, k, got, w)
			}
		}
	}
}

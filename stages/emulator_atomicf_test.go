package stages

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorFloatAtomics judges atomic_float.ll (air.atomic.global.add.f32
// and sub.f32, lowered as a compare-and-swap loop on the word) on lavapipe
// against the reference's atomicrmw fadd / fsub: every thread's power of two
// lands (65535 and -65535 exactly) and the values fetch_add returned are a
// permutation of 0..15.
func TestEmulatorFloatAtomics(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/atomic_float.ll")
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("atomic_float.ll: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	if !strings.Contains(r.Data["approximate_ops"], "air.atomic.global.add.f32") {
		t.Fatalf("a float atomic add is not named among the order-only operations: %v", r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
}

// TestEmulatorCatchesCASWithoutRetry plants a compare-and-swap loop that does
// not retry: the loop's exit test compares the word the exchange saw with
// itself, so a lane whose exchange failed (another lane changed the word
// first) leaves with its add lost. lavapipe runs a workgroup's lanes
// together, so lanes do lose: a mismatch in buffer 0 (the sum) or later.
func TestEmulatorCatchesCASWithoutRetry(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/atomic_float.ll")
	spv, n := casNoRetry(m.Translation.SPIRV)
	if n != 3 {
		t.Fatalf("patched %d compare-and-swap loops, want 3", n)
	}
	m.Translation.SPIRV = spv
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != codes.EmulatorMismatch || !strings.HasPrefix(r.Detail, "buffer ") {
		t.Fatalf("CAS without retry: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %q %s", r.Status, r.Detail, r.Message)
}

// casNoRetry rewrites every OpIEqual that tests an OpAtomicCompareExchange's
// result to compare that result with itself (always true: the loop exits
// after one exchange, successful or not). It returns the patched module and
// the number of tests rewritten.
func casNoRetry(spv []byte) ([]byte, int) {
	const opIEqual, opCAS = 170, 230
	w := make([]uint32, len(spv)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(spv[4*i:])
	}
	cas := map[uint32]bool{}
	n := 0
	for i := 5; i < len(w); {
		op, wc := w[i]&0xffff, int(w[i]>>16)
		if wc == 0 {
			break
		}
		switch {
		case op == opCAS && wc >= 3:
			cas[w[i+2]] = true
		case op == opIEqual && wc == 5 && cas[w[i+3]]:
			w[i+4] = w[i+3]
			n++
		}
		i += wc
	}
	out := make([]byte, len(spv))
	for i, x := range w {
		binary.LittleEndian.PutUint32(out[4*i:], x)
	}
	return out, n
}

// TestEmulatorFunnelShiftsAndMemset judges funnel_shift.ll (llvm.fshl/fshr
// on i8, i16, i32, i64 and <2 x i32> at shift amounts 0, 31, 32, 33, 64 and
// around them) and memset.ll (a memset of 5 bytes at a variable offset, of
// a value computed at run time, and of 10 bytes at a constant unaligned
// offset) on lavapipe against the reference (LLVM's own definitions): both
// pass. Planted, a funnel shift whose amount is not taken modulo the width
// (at 0 and 32 and above the SPIR-V shifts reach the width) and a memset
// stored as whole words from the word holding its first byte (overwriting
// the neighbours' bytes) are each a mismatch in buffer 1 (the shifts'
// results) or buffer 0 (the bytes).
func TestEmulatorFunnelShiftsAndMemset(t *testing.T) {
	emuNeed(t)
	for _, c := range []struct{ right, wrong, buffer string }{
		{"funnel_shift.ll", "funnel_shift_unmasked.ll", "buffer 1 "},
		{"memset.ll", "memset_words.ll", "buffer 0 "},
	} {
		if r := lowerings(t, c.right, c.wrong); !strings.HasPrefix(r.Detail, c.buffer) {
			t.Errorf("%s: mismatch at %q, want one in %s", c.wrong, r.Detail, c.buffer)
		}
	}
}

// TestEmulatorReadSampler judges read_sampler.ll (Metal 4's read: a read
// sampler from air.get_read_sampler() and a zero offset, on a float and a
// uint texture) against the reference, which defines the read as the
// classic one: it passes; the same with the texel's x and y swapped is a
// mismatch in buffer 0.
func TestEmulatorReadSampler(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/read_sampler.ll")
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("read_sampler.ll: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
	w := plantedLowering(t, "read_sampler.ll", "read_sampler_swapped.ll")
	if w.Status != pipeline.Failed || w.Code != codes.EmulatorMismatch || !strings.HasPrefix(w.Detail, "buffer 0 ") {
		t.Fatalf("swapped texel: %s %s %q %s", w.Status, w.Code, w.Detail, w.Message)
	}
	t.Logf("%s %q %s", w.Status, w.Detail, w.Message)
}

// TestEmulatorFunctionConstantDefined judges fnconst_defined.ll
// (is_function_constant_defined on a ushort and a bool constant, one index
// past 32767): the device is specialised with the values and their defined
// flags (SpecId 65636 + index), and passes; the same lowered as false (a
// translator that took "a spec constant always has a value" for "never
// given one") is a mismatch at buffer 0 word 0 (99 instead of pitch).
func TestEmulatorFunctionConstantDefined(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/fnconst_defined.ll")
	var flags int
	for _, sc := range m.Translation.Reflection.SpecConstants {
		if sc.Defined {
			flags++
		}
	}
	if flags != 2 {
		t.Fatalf("%d defined flags in the reflection, want 2: %+v", flags, m.Translation.Reflection.SpecConstants)
	}
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("fnconst_defined.ll: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)
	w := plantedLowering(t, "fnconst_defined.ll", "fnconst_defined_false.ll")
	if w.Status != pipeline.Failed || w.Code != codes.EmulatorMismatch || w.Detail != "buffer 0 word 0" {
		t.Fatalf("defined lowered as false: %s %s %q %s", w.Status, w.Code, w.Detail, w.Message)
	}
	t.Logf("%s %q %s", w.Status, w.Detail, w.Message)
}

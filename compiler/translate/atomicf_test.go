package translate

import (
	"errors"
	"reflect"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// TestFloatAtomicsValidate translates every float atomic (device and
// threadgroup memory) and the LLVM bit intrinsics of llvmbits.go, and
// requires spirv-val to accept the module, with one compare-and-swap helper
// per (operation, memory) and no float-atomic capability asked for.
func TestFloatAtomicsValidate(t *testing.T) {
	needValidator(t)
	out := translatedFixture(t, "atomic_float.ll")
	mustValidate(t, out.SPIRV)
	counts := opcodeCounts(out.SPIRV)
	// add and sub on the buffer, add and sub on threadgroup memory: four loops.
	if counts[spirv.OpAtomicCompareExchange] != 4 || counts[spirv.OpLoopMerge] != 4 {
		t.Errorf("%d compare-exchanges in %d loops, want 4 helpers", counts[spirv.OpAtomicCompareExchange], counts[spirv.OpLoopMerge])
	}
	if counts[spirv.OpFunctionCall] != 5 {
		t.Errorf("%d calls, want 5 (two adds on one buffer share a helper)", counts[spirv.OpFunctionCall])
	}
	if counts[spirv.OpAtomicExchange] != 1 || counts[spirv.OpAtomicLoad] != 6 || counts[spirv.OpAtomicStore] != 2 {
		t.Errorf("exchange %d, load %d, store %d: want 1, 6 (two plain, one per helper), 2",
			counts[spirv.OpAtomicExchange], counts[spirv.OpAtomicLoad], counts[spirv.OpAtomicStore])
	}
	if capabilities(out.SPIRV)[uint32(spirv.CapabilityAtomicFloat32AddEXT)] {
		t.Error("the compare-and-swap lowering asks for AtomicFloat32AddEXT")
	}
}

// TestFloatAtomicsRefused checks the forms refused by name.
func TestFloatAtomicsRefused(t *testing.T) {
	m, ep := fixtureEntry(t, "atomic_float_refused.ll")
	_, err := Translate(m, ep)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("want a MissingError, got %v", err)
	}
	want := []Finding{
		{CodeUnhandledIntrinsic, "air.atomic.global.add.f32 with a memory order other than relaxed"},
		{CodeUnhandledInstruction, "air.atomic.local.add.f32 on thread or constant memory"},
		{CodeUnhandledInstruction, "memset of a variable or large length"},
		{CodeUnhandledIntrinsic, "air.atomic.global.add.f64"},
		{CodeUnhandledIntrinsic, "air.atomic.global.min.f32"},
		{CodeUnhandledIntrinsic, "llvm.fshl.i128"},
		{CodeUnsupportedType, "i128"},
	}
	if !reflect.DeepEqual(me.Missing, want) {
		t.Errorf("missing = %v\nwant      %v", me.Missing, want)
	}
}

// opcodeCounts counts each opcode of an encoded SPIR-V module.
func opcodeCounts(b []byte) map[spirv.Op]int {
	out := map[spirv.Op]int{}
	for i := 20; i+4 <= len(b); {
		w := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		n := int(w >> 16)
		if n == 0 {
			break
		}
		out[spirv.Op(w&0xffff)]++
		i += 4 * n
	}
	return out
}

package stages

import (
	"fmt"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorFunctionConstantSearch judges fc_shared_slot.ll (three
// conditional buffers on buffer 1 under predicates of three bools): the
// contract's values (all true) put them all on the slot, so the reference
// searches and keeps useA = useB = false (inC alone, addBias still true);
// the device is specialised with the same words and passes, and the row
// records the assignment.
func TestEmulatorFunctionConstantSearch(t *testing.T) {
	_, r := emuPasses(t, "testdata/emulator/fc_shared_slot.ll", map[string]string{
		"function_constants":           "0 bool useA=0x0, 1 bool useB=0x0, 2 bool useC=0x1, 3 bool addBias=0x1",
		"function_constant_predicates": "inA: useA=false, inB: useB=false, inC: useC=true",
		"function_constant_assignment": "useA=false, useB=false, the rest as the contract (assignment 5 tried",
	})
	t.Logf("%s %v", r.Status, r.Data)
}

// TestEmulatorCatchesOtherSpecialization plants a fault: the device is
// specialised with another assignment than the one the reference judged —
// the contract's (every bool true: the shader takes inA's path), useB true
// (inB's path, over inC's bytes) or addBias false (no bias) — while the
// reference and the bindings stay the search's. Each is a mismatch (or a
// refusal), never a pass; the search's own words pass on the same device.
func TestEmulatorCatchesOtherSpecialization(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/fc_shared_slot.ll")
	ref, dev := referenceAndLavapipe(t, m, "pick3")
	if ref.Kernel.FunctionConstantSearch == "" {
		t.Fatal("the reference kept the contract's values: two buffers on one slot went unnoticed")
	}
	for _, c := range []struct {
		name  string
		words map[int]uint32 // index → word, replacing the reference's
	}{
		{"contract", map[int]uint32{0: 1, 1: 1, 2: 1, 3: 1}},
		{"useB true", map[int]uint32{1: 1}},
		{"addBias false", map[int]uint32{3: 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			otherSpecializationCaught(t, dev, m, "pick3", ref, c.name, func(fc cpuref.FunctionConstant) (uint32, bool) {
				w, ok := c.words[fc.Index]
				return w, ok
			})
		})
	}
	right, res := dispatchOn(dev, m.Translation.SPIRV, "pick3", ref, nil)
	if right == nil {
		t.Fatalf("dispatch: %s %s", res.Code, res.Message)
	}
	if r := compare(ref, right); r.Status != pipeline.Passed {
		t.Fatalf("the search's words: %s %s %q", r.Status, r.Code, r.Detail)
	}
}

// TestEmulatorIntegerConstantSearch judges fc_int_switch.ll (a switch on an
// int function constant with no default, as ANGLE's blit shaders switch on
// kSourceTextureType): under the contract's value the output is undef, so
// the reference searches the values the module compares the constant with
// and keeps mode = 0 (-1 leaves it undef too); the device is specialised
// with the same words and passes. Specialised with another defined value
// (3) or the contract's, the device's output is a mismatch, never a pass.
func TestEmulatorIntegerConstantSearch(t *testing.T) {
	m, _ := emuPasses(t, "testdata/emulator/fc_int_switch.ll", map[string]string{
		"function_constants":           "0 uint count=0x4, 2 int mode=0x0",
		"function_constant_assignment": "mode=0, the rest as the contract (under the contract's mode=4 an output depends on undef",
	})
	ref, dev := referenceAndLavapipe(t, m, "pick_mode")
	for _, word := range []uint32{3, 4} {
		otherSpecializationCaught(t, dev, m, "pick_mode", ref, fmt.Sprintf("mode=%d", word), func(fc cpuref.FunctionConstant) (uint32, bool) {
			return word, fc.Name == "mode"
		})
	}
}

// otherSpecializationCaught specialises the device with other function
// constant words than the reference judged (word gives a constant's
// replacement, if any) and fails the test unless the dispatch is refused or
// its output is a mismatch against ref.
func otherSpecializationCaught(t *testing.T, dev *device.Device, m *Module, entry string, ref *cpuref.Result, what string, word func(cpuref.FunctionConstant) (uint32, bool)) {
	t.Helper()
	k := *ref.Kernel
	k.FunctionConstants = append([]cpuref.FunctionConstant(nil), k.FunctionConstants...)
	for i := range k.FunctionConstants {
		if w, ok := word(k.FunctionConstants[i]); ok {
			k.FunctionConstants[i].Word = w
		}
	}
	wrong := *ref
	wrong.Kernel = &k
	got, res := dispatchOn(dev, m.Translation.SPIRV, entry, &wrong, nil)
	if got == nil {
		if res.Status == pipeline.Passed {
			t.Fatal("no output and a pass")
		}
		t.Logf("refused: %s %s %q", res.Status, res.Code, res.Detail)
		return
	}
	if r := compare(ref, got); r.Status == pipeline.Passed || r.Code != codes.EmulatorMismatch {
		t.Fatalf("device specialised otherwise (%s): %s %s %q", what, r.Status, r.Code, r.Detail)
	}
}

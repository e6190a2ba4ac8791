package stages

import (
	"context"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
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
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/fc_shared_slot.ll")
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed {
		t.Fatalf("fc_shared_slot.ll: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	for key, want := range map[string]string{
		"function_constants":           "0 bool useA=0x0, 1 bool useB=0x0, 2 bool useC=0x1, 3 bool addBias=0x1",
		"function_constant_predicates": "inA: useA=false, inB: useB=false, inC: useC=true",
		"function_constant_assignment": "useA=false, useB=false, the rest as the contract (assignment 5 tried",
	} {
		if got := r.Data[key]; !strings.HasPrefix(got, want) {
			t.Fatalf("data %s = %q, want %q…", key, got, want)
		}
	}
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
			k := *ref.Kernel
			k.FunctionConstants = append([]cpuref.FunctionConstant(nil), k.FunctionConstants...)
			for i := range k.FunctionConstants {
				if w, ok := c.words[k.FunctionConstants[i].Index]; ok {
					k.FunctionConstants[i].Word = w
				}
			}
			wrong := *ref
			wrong.Kernel = &k
			got, res := dispatchOn(dev, m.Translation.SPIRV, "pick3", &wrong, nil)
			if got == nil {
				if res.Status == pipeline.Passed {
					t.Fatal("no output and a pass")
				}
				t.Logf("refused: %s %s %q", res.Status, res.Code, res.Detail)
				return
			}
			if r := compare(ref, got); r.Status == pipeline.Passed || r.Code != codes.EmulatorMismatch {
				t.Fatalf("device specialised otherwise (%s): %s %s %q", c.name, r.Status, r.Code, r.Detail)
			}
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
	emuNeed(t)
	m := emuModule(t, "testdata/emulator/fc_int_switch.ll")
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed {
		t.Fatalf("fc_int_switch.ll: %s %s %q %s", r.Status, r.Code, r.Detail, r.Message)
	}
	for key, want := range map[string]string{
		"function_constants":           "0 uint count=0x4, 2 int mode=0x0",
		"function_constant_assignment": "mode=0, the rest as the contract (under the contract's mode=4 an output depends on undef",
	} {
		if got := r.Data[key]; !strings.HasPrefix(got, want) {
			t.Fatalf("data %s = %q, want %q…", key, got, want)
		}
	}
	ref, dev := referenceAndLavapipe(t, m, "pick_mode")
	for _, word := range []uint32{3, 4} {
		k := *ref.Kernel
		k.FunctionConstants = append([]cpuref.FunctionConstant(nil), k.FunctionConstants...)
		for i := range k.FunctionConstants {
			if k.FunctionConstants[i].Name == "mode" {
				k.FunctionConstants[i].Word = word
			}
		}
		wrong := *ref
		wrong.Kernel = &k
		got, res := dispatchOn(dev, m.Translation.SPIRV, "pick_mode", &wrong, nil)
		if got == nil {
			if res.Status == pipeline.Passed {
				t.Fatal("no output and a pass")
			}
			continue
		}
		if c := compare(ref, got); c.Status == pipeline.Passed || c.Code != codes.EmulatorMismatch {
			t.Fatalf("device specialised with mode=%d: %s %s %q", word, c.Status, c.Code, c.Detail)
		}
	}
}

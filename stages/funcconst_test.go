package stages

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// conditionalFixture is compiler/cpuref's conditional-argument fixture (two
// textures on texture 0 and two buffers on buffer 1 under complementary
// predicates a static initializer computes from a bool function
// constant), written with each replacement made to a file of the test's.
func conditionalFixture(t *testing.T, repl ...string) string {
	t.Helper()
	b, err := os.ReadFile("../compiler/cpuref/testdata/conditional.ll")
	if err != nil {
		t.Fatal(err)
	}
	ll := string(b)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(ll, repl[i]) {
			t.Fatalf("fixture lacks %q", repl[i])
		}
		ll = strings.ReplaceAll(ll, repl[i], repl[i+1])
	}
	path := filepath.Join(t.TempDir(), "conditional.ll")
	if err := os.WriteFile(path, []byte(ll), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// noneExists makes both predicates false and the kernel write a constant
// without reading either path's arguments: the descriptors the translation
// still declares on texture 0 and buffer 1 get placeholders.
var noneExists = []string{
	"store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0", "store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0",
	"br i1 %isF, label %float, label %uint", "store i32 7, ptr addrspace(1) %po, align 4\n  br label %done",
}

// TestEmulatorConditionalArguments judges the fixture both ways on
// lavapipe: the arguments whose predicates hold are bound, the others are
// not, and the texture bound on the shared index is the present one's.
func TestEmulatorConditionalArguments(t *testing.T) {
	emuNeed(t)
	for _, c := range []struct {
		name, predicates string
		repl             []string
	}{
		{"float path", "inF: isFloat=true, inU: isUint=false, srcF: isFloat=true, srcU: isUint=false", nil},
		{"uint path", "inF: isFloat=false, inU: isUint=true, srcF: isFloat=false, srcU: isUint=true", []string{
			"store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0", "store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0",
			"store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1", "store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_1",
			"br i1 %isF, label %float, label %uint", "br i1 %isF, label %uint, label %float",
		}},
		{"no argument exists", "inF: isFloat=false, inU: isUint=false, srcF: isFloat=false, srcU: isUint=false", noneExists},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := emuModule(t, conditionalFixture(t, c.repl...))
			r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
			if r.Status != pipeline.Passed {
				t.Fatalf("%s %s %q: %s", r.Status, r.Code, r.Detail, r.Message)
			}
			if got := r.Data["function_constant_predicates"]; got != c.predicates {
				t.Fatalf("function_constant_predicates %q, want %q", got, c.predicates)
			}
		})
	}
}

// TestEmulatorCatchesWrongConditionalBinding plants a fault in the device
// stage: the descriptor of the argument whose predicate is false (the uint
// texture) is bound on the shared index instead of the present one's. The
// shader reads the float texture's variable, so the device's words are not
// the reference's: a mismatch, never a pass.
func TestEmulatorCatchesWrongConditionalBinding(t *testing.T) {
	emuNeed(t)
	m := emuModule(t, conditionalFixture(t))
	ref, dev := referenceAndLavapipe(t, m, "pick")
	k := *ref.Kernel
	k.Textures = append([]cpuref.Texture(nil), k.Textures...)
	k.Textures[0].Kind, k.Textures[0].Texel = 'u', cpuref.TexelWords(0, 'u')
	wrong := *ref
	wrong.Kernel = &k
	got, res := dispatchOn(dev, m.Translation.SPIRV, "pick", &wrong, nil)
	if got == nil {
		t.Fatalf("dispatch: %s %s", res.Code, res.Message)
	}
	if r := compare(ref, got); r.Status == pipeline.Passed || r.Code != codes.EmulatorMismatch {
		t.Fatalf("the absent argument's texture bound: %s %s %q", r.Status, r.Code, r.Detail)
	}
	right, res := dispatchOn(dev, m.Translation.SPIRV, "pick", ref, nil)
	if right == nil {
		t.Fatalf("dispatch: %s %s", res.Code, res.Message)
	}
	if r := compare(ref, right); r.Status != pipeline.Passed {
		t.Fatalf("the present argument's texture bound: %s %s %q", r.Status, r.Code, r.Detail)
	}
}

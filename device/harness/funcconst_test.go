package harness

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
)

// translated assembles ll (llvm-as-19) and translates its one entry point;
// the test is skipped without the reference's LLVM tools.
func translated(t *testing.T, ll string) ([]byte, *translate.Output) {
	t.Helper()
	for _, tool := range []string{"llvm-as-19", "llvm-dis-19", "llc-19", "opt-19", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	cmd := exec.Command("llvm-as-19", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(ll)
	bc, err := cmd.Output()
	if err != nil {
		t.Fatalf("llvm-as-19: %v", err)
	}
	ir, err := bitcode.ReadModule(bc)
	if err != nil {
		t.Fatal(err)
	}
	eps, err := air.EntryPoints(ir)
	if err != nil || len(eps) != 1 {
		t.Fatalf("%d entry points, %v", len(eps), err)
	}
	out, err := translate.Translate(ir, eps[0])
	if err != nil {
		t.Fatal(err)
	}
	return bc, out
}

// TestPresentBindings: with both predicates of compiler/cpuref's
// conditional-argument fixture false, the reflection's bindings of the
// absent arguments are dropped by name and slot, the others kept, and
// Prepare accepts the translation; unfiltered, the interface check catches
// those bindings.
func TestPresentBindings(t *testing.T) {
	b, err := os.ReadFile("../../compiler/cpuref/testdata/conditional.ll")
	if err != nil {
		t.Fatal(err)
	}
	ll := string(b)
	for _, r := range [][2]string{ // neither path's arguments are read
		{"store i8 %2, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0", "store i8 %3, ptr addrspace(2) @_ZL26__metal_implicit_fc_pred_0"},
		{"br i1 %isF, label %float, label %uint", "store i32 7, ptr addrspace(1) %po, align 4\n  br label %done"},
	} {
		if !strings.Contains(ll, r[0]) {
			t.Fatalf("fixture lacks %q", r[0])
		}
		ll = strings.ReplaceAll(ll, r[0], r[1])
	}
	bc, out := translated(t, ll)
	ref, err := cpuref.Run(context.Background(), bc, "pick", cpuref.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := out.Reflection.Bindings
	var names []string
	for _, b := range presentBindings(all, ref.Kernel) {
		names = append(names, b.Name)
	}
	if strings.Join(names, " ") != "out" {
		t.Fatalf("present bindings %v of %d", names, len(all))
	}
	if len(all) != 5 {
		t.Fatalf("the translation declares %d bindings, want 5 (out and the four conditional arguments)", len(all))
	}
	if ph := ref.Kernel.Placeholders(); len(ph) != 2 {
		t.Fatalf("placeholders %+v, want texture 0 and buffer 1", ph)
	}
	if _, v, ok := Prepare("lavapipe", "pick", out, ref); !ok {
		t.Fatalf("Prepare refused the present bindings: %s %s", v.Code, v.Message)
	}
	if _, ok := checkInterface(all, ref.Kernel); ok {
		t.Fatal("the unfiltered reflection passes the interface check: the absent arguments' bindings would go unnoticed")
	}
}

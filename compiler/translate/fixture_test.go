package translate

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// assemble runs llvm-as-19 on a testdata .ll file and returns the bitcode.
func assemble(t testing.TB, name string) []byte {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skipf("llvm-as-19 not installed: %v", err)
	}
	out := filepath.Join(t.TempDir(), "m.bc")
	cmd := exec.Command("llvm-as-19", "--preserve-bc-uselistorder=false", filepath.Join("testdata", name), "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19 %s: %v\n%s", name, err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fixtureEntry reads a fixture and returns its module and only entry point.
func fixtureEntry(t testing.TB, name string) (*air.Module, air.EntryPoint) {
	t.Helper()
	m, err := bitcode.ReadModule(assemble(t, name))
	if err != nil {
		t.Fatalf("ReadModule %s: %v", name, err)
	}
	eps, err := air.EntryPoints(m)
	if err != nil || len(eps) != 1 {
		t.Fatalf("EntryPoints %s: %d, %v", name, len(eps), err)
	}
	return m, eps[0]
}

func needValidator(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"spirv-val", "spirv-dis"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed: %v", tool, err)
		}
	}
}

// mustValidate fails the test unless spirv-val accepts spv, quoting the
// validator's words.
func mustValidate(t testing.TB, spv []byte) {
	t.Helper()
	if err := spirv.Validate(context.Background(), spv); err != nil {
		var ve *spirv.ValidationError
		if errors.As(err, &ve) {
			t.Fatalf("spirv-val rejects: %s", ve.Output)
		}
		t.Fatal(err)
	}
}

// TestFixtures translates every valid fixture, validates it with spirv-val,
// and compares its disassembly and reflection with the golden files.
func TestFixtures(t *testing.T) {
	needValidator(t)
	for _, name := range []string{"kernel_add", "kernel_loop", "kernel_threadgroup", "kernel_math", "kernel_nested", "kernel_shortcircuit", "kernel_exact", "kernel_vocab", "kernel_container", "fragment_texture", "fragment_depth", "vertex_basic", "fnconst", "fnconst_static"} {
		t.Run(name, func(t *testing.T) {
			out := translatedFixture(t, name+".ll")
			ctx := context.Background()
			mustValidate(t, out.SPIRV)
			dis, err := spirv.Disassemble(ctx, out.SPIRV)
			if err != nil {
				t.Fatal(err)
			}
			refl, err := json.MarshalIndent(out.Reflection, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".spvasm", dis)
			golden(t, name+".json", string(refl)+"\n")
		})
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run go test -update to accept):\n%s", name, got)
	}
}

// TestMissingEveryFeature checks that a module with several missing features
// reports each of them, not only the first.
func TestMissingEveryFeature(t *testing.T) {
	m, ep := fixtureEntry(t, "missing_features.ll")
	_, err := Translate(m, ep)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("want a MissingError, got %v", err)
	}
	want := []Finding{
		{CodeUnsupportedCFG, "irreducible"},
		{CodeUnhandledInstruction, "ptrtoint"},
		{CodeUnhandledIntrinsic, "air.fast_frobnicate.f32"},
		{CodeUnhandledIntrinsic, "air.mad_sat.u.i32"},
	}
	if !reflect.DeepEqual(me.Missing, want) {
		t.Errorf("missing = %v\nwant      %v", me.Missing, want)
	}
	if !strings.Contains(me.Error(), "irreducible") || !strings.Contains(me.Error(), "3 more") {
		t.Errorf("headline %q", me.Error())
	}
}

// TestLibraryFunction checks that air.visible functions are their own category.
func TestLibraryFunction(t *testing.T) {
	m, ep := fixtureEntry(t, "visible.ll")
	_, err := Translate(m, ep)
	var me *MissingError
	if !errors.As(err, &me) || len(me.Missing) != 1 || me.Missing[0].Code != CodeLibraryFunction {
		t.Fatalf("want one %s finding, got %v", CodeLibraryFunction, err)
	}
}

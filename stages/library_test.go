package stages

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/libwrap"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// libraryRow is the row of library function name (of container type typ)
// of the libwrap fixture file, carried through reader and translate as the
// pipeline does.
func libraryRow(t *testing.T, file, name string, typ uint8) (*Module, pipeline.Result) {
	t.Helper()
	bc, err := exec.Command("llvm-as-19", "-o", "-", filepath.Join("..", "compiler", "libwrap", "testdata", file)).Output()
	if err != nil {
		t.Skipf("llvm-as-19 %s: %v", file, err)
	}
	ir, err := bitcode.ReadModule(bc)
	if err != nil {
		t.Fatal(err)
	}
	m := &Module{Bitcode: bc, SHA256: file, Function: &mtlb.Function{Name: name, Type: typ}, artifacts: artifacts{IR: ir}}
	return m, translateModule(context.Background(), m)
}

// TestLibraryFunctionsTranslate: library functions of the Apple-shaped
// fixtures translate behind the wrapper (row data function_kind=library),
// those the ABI cannot carry fail with libwrap's code naming the parameter,
// and an extern function is wrapped only when the container types it so.
func TestLibraryFunctionsTranslate(t *testing.T) {
	if _, err := exec.LookPath("spirv-val"); err != nil {
		t.Skip("spirv-val is not installed")
	}
	for _, c := range []struct {
		file, name string
		typ        uint8
		status     pipeline.Status
		code       codes.Code
		detail     string
	}{
		{"visible_scalar.ll", "mix3", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"extern_cikernel.ll", "_max3", mtlb.FunctionExtern, pipeline.Passed, "", ""},
		{"ci_sampler.ll", "_sampleShift", mtlb.FunctionExtern, pipeline.Passed, "", ""},
		{"ci_sampler.ll", "_destCoord", mtlb.FunctionExtern, pipeline.Failed, libwrap.CodeInterface, `parameter %"struct.coreimage::destination"`},
		// A kernel-typed row the module defines outside every stage's
		// metadata stays what it was: no entry point, never wrapped.
		{"extern_cikernel.ll", "_max3", mtlb.FunctionKernel, pipeline.Failed, codes.TranslateNoEntryPoint, "_max3"},
	} {
		m, r := libraryRow(t, c.file, c.name, c.typ)
		if r.Status != c.status || r.Code != c.code || r.Detail != c.detail {
			t.Errorf("%s %s: %s %s %q (%s), want %s %s %q", c.file, c.name, r.Status, r.Code, r.Detail, r.Message, c.status, c.code, c.detail)
			continue
		}
		if c.code == codes.TranslateNoEntryPoint {
			continue
		}
		if r.Data["function_kind"] != "library" || r.Data["library_function"] != c.name {
			t.Errorf("%s %s: data %v, want function_kind=library naming the function", c.file, c.name, r.Data)
		}
		if r.Status == pipeline.Passed && (m.Translation.Entry != libwrap.Entry || r.Data["wrapper_entry"] != libwrap.Entry) {
			t.Errorf("%s %s: entry %s, data %v", c.file, c.name, m.Translation.Entry, r.Data)
		}
	}
}

// TestLibraryFunctionsOnEmulator: lavapipe runs the wrapped library
// functions and the CPU reference runs the same wrapper; each is judged as
// a kernel. A function calling an approximate operation is set aside by
// the reference, as any kernel would be. Textures, samplers and function
// constants reach the wrapper too: a Core Image kernel whose
// coreimage::sampler reaches air.sample_texture_2d as a texture and a
// sampler handle is wrapped with a texture and a sampler argument of the
// wrapper's own (compiler/libwrap handles.go), one reading the
// coreimage::_texture2D_is_normalized function constant gets it as a spec
// constant of the reference's value (recorded), and a stitchable function
// typing its parameters texture2d<half, sample> and sampler is judged with
// the harness's textures.
func TestLibraryFunctionsOnEmulator(t *testing.T) {
	emuNeed(t)
	st := Emulator(EmulatorOptions{})
	records := map[string]string{"_blendOver": "function_constants"} // a data key the verdict must hold, by function
	for _, c := range []struct {
		file, name string
		typ        uint8
		status     pipeline.Status
		code       codes.Code
		detail     string
	}{
		{"visible_scalar.ll", "mix3", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"visible_vector.ll", "tint", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"visible_half.ll", "premultiply", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"visible_int.ll", "pick", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"visible_struct.ll", "polar", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"visible_sret.ll", "bounds", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"visible_pointers.ll", "accumulate", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"visible_pointers.ll", "lookup", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"extern_cikernel.ll", "_colorAbsDiff", mtlb.FunctionExtern, pipeline.Passed, "", ""},
		{"extern_cikernel.ll", "_max3", mtlb.FunctionExtern, pipeline.Passed, "", ""},
		{"extern_cikernel.ll", "_threshold", mtlb.FunctionExtern, pipeline.Passed, "", ""},
		{"ci_sampler.ll", "_sampleShift", mtlb.FunctionExtern, pipeline.Passed, "", ""},
		{"ci_normalized.ll", "_blendOver", mtlb.FunctionExtern, pipeline.Passed, "", ""},
		{"visible_texture.ll", "tinted", mtlb.FunctionVisible, pipeline.Passed, "", ""},
		{"visible_approx.ll", "gamma", mtlb.FunctionVisible, pipeline.Passed, "", ""}, // the device's pow results substituted (stages/approxtrace)
	} {
		t.Run(c.name, func(t *testing.T) {
			m, r := libraryRow(t, c.file, c.name, c.typ)
			if r.Status != pipeline.Passed {
				t.Fatalf("translate: %s %s %s", r.Status, r.Code, r.Message)
			}
			e := st.Run(context.Background(), m)
			if e.Status != c.status || e.Code != c.code || e.Detail != c.detail {
				t.Fatalf("emulator: %s %s %q (%s), want %s %s %q", e.Status, e.Code, e.Detail, e.Message, c.status, c.code, c.detail)
			}
			if k := records[c.name]; k != "" && e.Data[k] == "" {
				t.Fatalf("emulator: no %s recorded: %v", k, e.Data)
			}
			t.Logf("%v", e.Data)
		})
	}
}

// TestLibraryWrapperFaultCaught: a SPIR-V translated from a wrapper that
// loads two parameters from each other's offsets, judged against the
// reference of the right wrapper, is a mismatch: the check can fail.
func TestLibraryWrapperFaultCaught(t *testing.T) {
	emuNeed(t)
	m, r := libraryRow(t, "visible_scalar.ll", "mix3", mtlb.FunctionVisible)
	if r.Status != pipeline.Passed {
		t.Fatalf("translate: %s %s", r.Code, r.Message)
	}
	// A second, independent wrapper of the same function; its loads of b
	// and t swapped.
	bad, err := libwrap.Wrap(m.IR, m.Wrapped.Function, m.Wrapped.Kind)
	if err != nil {
		t.Fatal(err)
	}
	var offs []*air.BinOp
	for _, in := range bad.Module.Function(libwrap.Entry).Blocks[0].Insts {
		if b, ok := in.(*air.BinOp); ok && b.Op == air.OpAdd {
			offs = append(offs, b)
		}
	}
	if len(offs) != 2 {
		t.Fatalf("%d offset adds in the wrapper, want 2 (b and t)", len(offs))
	}
	offs[0].Y, offs[1].Y = offs[1].Y, offs[0].Y
	out, err := translate.Translate(bad.Module, bad.EntryPoint)
	if err != nil {
		t.Fatal(err)
	}
	m.Translation = out
	e := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if e.Status != pipeline.Failed || e.Code != codes.EmulatorMismatch {
		t.Fatalf("swapped parameters: %s %s %s, want %s", e.Status, e.Code, e.Message, codes.EmulatorMismatch)
	}
	t.Logf("caught: %s: %s", e.Detail, e.Message)
}

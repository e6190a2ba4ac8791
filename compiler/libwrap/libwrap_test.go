package libwrap

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/internal/codes"
)

// assemble runs llvm-as-19 on LLVM text and reads the bitcode with
// airpipe's reader (the test is skipped without llvm-as-19).
func assemble(t *testing.T, ll string) *air.Module {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip("llvm-as-19 is not installed")
	}
	cmd := exec.Command("llvm-as-19", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(ll)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	bc, err := cmd.Output()
	if err != nil {
		t.Fatalf("llvm-as-19: %v: %s", err, stderr.String())
	}
	m, err := bitcode.ReadModule(bc)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func fixture(t *testing.T, name string) *air.Module {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return assemble(t, string(b))
}

// TestFixturesTranslate: every library function of the Apple-shaped
// fixtures (each defined function with external linkage that no stage
// lists, and every air.visible one) is wrapped; the wrapped module passes
// air.Verify, prints as LLVM text llvm-as-19 accepts, and translates with
// the library function as a SPIR-V callee that spirv-val accepts — except
// the refusals listed, each by its name. At least 80% translate.
func TestFixturesTranslate(t *testing.T) {
	for _, tool := range []string{"llvm-as-19", "spirv-val"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	refused := map[string]string{
		"_destCoord": `parameter %"struct.coreimage::destination"`,
	}
	files, err := filepath.Glob("testdata/*.ll")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	total, translated := 0, 0
	var names []string
	for _, f := range files {
		m := fixture(t, filepath.Base(f))
		for _, fn := range m.Functions {
			if fn.IsDeclaration() {
				continue
			}
			lf, kind, ok, err := Find(m, fn.Name)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if !ok {
				if fn.Linkage != air.Internal {
					t.Errorf("%s @%s: not found as a library function", f, fn.Name)
				}
				continue
			}
			total++
			names = append(names, fn.Name)
			w, err := Wrap(m, lf, kind)
			if want, ok := refused[fn.Name]; ok {
				var le *Error
				if !errorsAs(err, &le) || le.Code != CodeInterface || le.Detail != want {
					t.Errorf("%s @%s: %v, want refused as %s %q", f, fn.Name, err, CodeInterface, want)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s @%s: %v", f, fn.Name, err)
				continue
			}
			if err := air.Verify(w.Module); err != nil {
				t.Errorf("%s @%s: wrapped module: %v", f, fn.Name, err)
			}
			var ll bytes.Buffer
			if err := bitcode.WriteLL(&ll, w.Module); err != nil {
				t.Fatal(err)
			}
			back := assemble(t, ll.String())
			if back.Function(Entry) == nil || back.Function(fn.Name) == nil {
				t.Errorf("%s @%s: the printed module lost the wrapper or the function", f, fn.Name)
			}
			out, err := translate.Translate(w.Module, w.EntryPoint)
			if err != nil {
				t.Errorf("%s @%s: translate: %v", f, fn.Name, err)
				continue
			}
			if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
				t.Errorf("%s @%s: spirv-val: %v", f, fn.Name, err)
				continue
			}
			if out.Entry != Entry || !bytes.Contains(out.SPIRV, []byte(fn.Name)) {
				t.Errorf("%s @%s: entry %s; the library function is not a named SPIR-V function of the module", f, fn.Name, out.Entry)
				continue
			}
			translated++
		}
	}
	sort.Strings(names)
	t.Logf("%d of %d library functions translate behind the wrapper: %v", translated, total, names)
	if total < 12 || translated*100 < 80*total {
		t.Errorf("%d of %d library functions translate, want at least 80%% of at least 12", translated, total)
	}
}

func errorsAs(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

// TestLayout: the records are laid out as the README says (C struct rules
// under AIR's datalayout; strides multiples of 4 and of the alignment).
func TestLayout(t *testing.T) {
	type slot struct {
		role        string
		off, outOff uint64
		buffer      int
	}
	for _, c := range []struct {
		file, fn string
		in, out  uint64
		slots    []slot
	}{
		{"visible_scalar.ll", "mix3", 12, 4, []slot{{"value", 0, 0, -1}, {"value", 4, 0, -1}, {"value", 8, 0, -1}, {"result", 0, 0, -1}}},
		// float3 is 16 bytes apart and 16-aligned (v96:128).
		{"visible_vector.ll", "tint", 48, 16, []slot{{"value", 0, 0, -1}, {"value", 16, 0, -1}, {"value", 32, 0, -1}, {"result", 0, 0, -1}}},
		// bool takes a byte, short 2-aligned, the record 8-aligned.
		{"visible_int.ll", "pick", 24, 4, []slot{{"value", 0, 0, -1}, {"value", 8, 0, -1}, {"value", 16, 0, -1}, {"value", 18, 0, -1}, {"result", 0, 0, -1}}},
		{"visible_half.ll", "premultiply", 16, 8, []slot{{"value", 0, 0, -1}, {"value", 8, 0, -1}, {"result", 0, 0, -1}}},
		{"visible_struct.ll", "polar", 8, 16, []slot{{"value", 0, 0, -1}, {"result", 0, 0, -1}}},
		// The sret struct starts in the parameter record and comes back in the result record.
		{"visible_sret.ll", "bounds", 20, 12, []slot{{"thread-pointer", 0, 0, -1}, {"value", 12, 0, -1}, {"value", 16, 0, -1}}},
		{"visible_pointers.ll", "lookup", 4, 4, []slot{{"device-pointer", 0, 0, FirstPointerBuffer}, {"value", 0, 0, -1}, {"result", 0, 0, -1}}},
	} {
		m := fixture(t, c.file)
		fn, kind, ok, err := Find(m, c.fn)
		if !ok || err != nil {
			t.Fatalf("%s: %s not found: %v", c.file, c.fn, err)
		}
		w, err := Wrap(m, fn, kind)
		if err != nil {
			t.Fatalf("%s: %v", c.fn, err)
		}
		l := w.Layout
		if l.ParamStride != c.in || l.ResultStride != c.out || len(l.Slots) != len(c.slots) {
			t.Errorf("%s: strides %d/%d, %d slots, want %d/%d, %d", c.fn, l.ParamStride, l.ResultStride, len(l.Slots), c.in, c.out, len(c.slots))
			continue
		}
		for i, s := range l.Slots {
			if want := c.slots[i]; s.Role != want.role || s.Offset != want.off || s.OutOffset != want.outOff || s.Buffer != want.buffer {
				t.Errorf("%s slot %d: %+v, want %+v", c.fn, i, s, want)
			}
		}
		if l.ParamStride%4 != 0 || l.ParamStride%l.ParamAlign != 0 || l.ResultStride%4 != 0 || l.ResultStride%l.ResultAlign != 0 {
			t.Errorf("%s: strides %d/%d not multiples of 4 and of the alignments %d/%d", c.fn, l.ParamStride, l.ResultStride, l.ParamAlign, l.ResultAlign)
		}
	}
}

// TestOriginalUntouched: the wrapped module is a new one; the original
// (which other rows of the library share) keeps its functions and
// metadata, and two wrappers of one module are independent.
func TestOriginalUntouched(t *testing.T) {
	m := fixture(t, "extern_cikernel.ll")
	nf, nmd := len(m.Functions), len(m.NamedMD)
	var ws []*Wrapped
	for _, name := range []string{"_colorAbsDiff", "_max3"} {
		fn, kind, ok, err := Find(m, name)
		if !ok || err != nil || kind != Extern {
			t.Fatalf("%s: %v %v %s", name, ok, err, kind)
		}
		w, err := Wrap(m, fn, kind)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	if len(m.Functions) != nf || len(m.NamedMD) != nmd || m.Function(Entry) != nil || m.NamedMetadata("air.kernel") != nil {
		t.Fatalf("the original module changed: %d functions (was %d), %d named metadata (was %d)", len(m.Functions), nf, len(m.NamedMD), nmd)
	}
	if ws[0].Module.Function(Entry) == ws[1].Module.Function(Entry) {
		t.Fatal("two wrappers share one function")
	}
	for _, w := range ws {
		eps, err := air.EntryPoints(w.Module)
		if err != nil || len(eps) != 1 || eps[0].Function.Name != Entry || eps[0].Stage != air.Kernel {
			t.Fatalf("wrapped module's entry points: %v %v", eps, err)
		}
		if w.EntryPoint.Function != eps[0].Function || len(w.EntryPoint.Inputs) != 3 {
			t.Errorf("wrapper entry point: %d inputs, want params, results, tid", len(w.EntryPoint.Inputs))
		}
	}
}

const header = `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"
`

// TestRefused: what the ABI does not carry is refused by name.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		name, ll string
		code     codes.Code
		detail   string
	}{
		{"threadgroup pointer", `define float @f(ptr addrspace(3) %p) {
  %v = load float, ptr addrspace(3) %p
  ret float %v
}`, CodeInterface, "threadgroup pointer"},
		{"bool vector", `define i32 @f(<2 x i1> %b) {
  %x = extractelement <2 x i1> %b, i64 0
  %r = zext i1 %x to i32
  ret i32 %r
}`, CodeInterface, "parameter <2 x i1>"},
		{"wide integer", `define i128 @f(i128 %x) {
  ret i128 %x
}`, CodeInterface, "result i128"},
		{"pointer result", `define ptr addrspace(1) @f(ptr addrspace(1) %p) {
  ret ptr addrspace(1) %p
}`, CodeInterface, "result ptr addrspace(1)"},
		{"thread pointer without a pointee", `define void @f(ptr %p) {
  store float 1.0, ptr %p
  ret void
}`, CodeInterface, "thread pointer of unknown pointee"},
		{"variadic", `define i32 @f(i32 %x, ...) {
  ret i32 %x
}`, CodeInterface, "variadic"},
		{"the wrapper's name taken", `define i32 @f(i32 %x) {
  ret i32 %x
}
define void @airpipe.wrap() {
  ret void
}`, CodeInterface, "name airpipe.wrap"},
		{"texture by its Metal type", `define float @f(ptr addrspace(1) %t) {
  ret float 0.0
}
!air.visible = !{!0}
!0 = !{ptr @f, !1, !2}
!1 = !{}
!2 = !{!3}
!3 = !{i32 0, !"air.visible_input", !"air.arg_type_name", !"texture2d<float, sample>", !"air.arg_name", !"t"}`, CodeInterface, "parameter type texture2d<float, sample>"},
	} {
		m := assemble(t, header+c.ll)
		fn := m.Function("f")
		kind := Extern
		if m.NamedMetadata("air.visible") != nil {
			kind = Visible
		}
		_, err := Wrap(m, fn, kind)
		e, ok := err.(*Error)
		if !ok || e.Code != c.code || e.Detail != c.detail {
			t.Errorf("%s: %v, want %s %q", c.name, err, c.code, c.detail)
		}
	}
}

// TestFind: a row's library function is the function of its name that an
// air.visible node lists or that the module defines externally outside
// every stage; an internal helper or a kernel is not one; a name the
// module does not define falls back to its only (visible) entry point.
func TestFind(t *testing.T) {
	m := assemble(t, header+`define internal float @helper(float %x) {
  ret float %x
}
define float @vis(float %x) {
  %y = call float @helper(float %x)
  ret float %y
}
!air.visible = !{!0}
!0 = !{ptr @vis, !1, !2}
!1 = !{}
!2 = !{}`)
	k := assemble(t, header+`define void @k(ptr addrspace(1) %p) {
  ret void
}
define float @ext(float %x) {
  ret float %x
}
!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_name", !"int", !"air.arg_name", !"p"}`)
	for _, c := range []struct {
		m          *air.Module
		name, want string
		kind       Kind
	}{
		{m, "vis", "vis", Visible},
		{m, "helper", "", ""},
		{m, "renamed_by_the_library", "vis", Visible},
		{k, "k", "", ""},
		{k, "ext", "ext", Extern},
		{k, "renamed_by_the_library", "", ""},
	} {
		fn, kind, ok, err := Find(c.m, c.name)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if ok {
			got = fn.Name
		}
		if got != c.want || kind != c.kind {
			t.Errorf("Find(%s): %q %s, want %q %s", c.name, got, kind, c.want, c.kind)
		}
	}
}

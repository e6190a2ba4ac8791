package stages

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestTranslateFailure: missing features keep their own codes, a library
// function is unjudged, and any other translator error is an internal error,
// never spirv-val's invalid-spirv verdict.
func TestTranslateFailure(t *testing.T) {
	missing := &translate.MissingError{Entry: "f", Missing: []translate.Finding{
		{Code: translate.CodeUnsupportedCFG, Detail: "irreducible"},
		{Code: translate.CodeUnsupportedType, Detail: "bfloat"},
	}}
	library := &translate.MissingError{Entry: "f", Missing: []translate.Finding{{Code: translate.CodeLibraryFunction, Detail: "air.visible"}}}
	for _, c := range []struct {
		name    string
		err     error
		status  pipeline.Status
		code    codes.Code
		missing int
	}{
		{"missing features", fmt.Errorf("wrapped: %w", missing), pipeline.Failed, translate.CodeUnsupportedCFG, 2},
		{"library function", library, pipeline.Unjudged, translate.CodeLibraryFunction, 0},
		{"internal error", errors.New("translate @f: entry point has no body"), pipeline.Failed, CodeInternalError, 0},
		{"empty missing list", &translate.MissingError{Entry: "f"}, pipeline.Failed, CodeInternalError, 0},
	} {
		r := translateFailure(c.err)
		if r.Status != c.status || r.Code != c.code || len(r.Missing) != c.missing {
			t.Errorf("%s: %s %s (%d missing), want %s %s (%d)", c.name, r.Status, r.Code, len(r.Missing), c.status, c.code, c.missing)
		}
		if r.Code == translate.CodeInvalidSPIRV {
			t.Errorf("%s: a translator error reported as spirv-val's verdict", c.name)
		}
	}
}

// entryModule is a kernel k beside a defined function helper that is no
// entry point, as one module several library functions may share.
const entryModule = `target triple = "air64-apple-macosx14.0.0"

define void @helper(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}

define void @k(ptr addrspace(1) %p) {
  call void @helper(ptr addrspace(1) %p)
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"p"}
`

// TestEntryPointOf: a row's function is its own entry point; a library name
// the module does not define falls back to the only entry point; a function
// the module defines but that is no entry point never takes the kernel's.
func TestEntryPointOf(t *testing.T) {
	dir := t.TempDir()
	ll := filepath.Join(dir, "m.ll")
	if err := os.WriteFile(ll, []byte(entryModule), 0o644); err != nil {
		t.Fatal(err)
	}
	bc, err := exec.Command("llvm-as-19", "-o", "-", ll).Output()
	if err != nil {
		t.Skipf("llvm-as-19: %v", err)
	}
	ir, err := bitcode.ReadModule(bc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		function string
		ok       bool
	}{
		{"k", true},
		{"renamed_in_the_library", true},
		{"helper", false},
	} {
		m := &Module{Function: &mtlb.Function{Name: c.function}, artifacts: artifacts{IR: ir}}
		ep, r, ok := entryPointOf(m)
		if ok != c.ok {
			t.Errorf("%s: ok %v (%s %s), want %v", c.function, ok, r.Code, r.Detail, c.ok)
			continue
		}
		if ok && ep.Function.Name != "k" {
			t.Errorf("%s: entry point %s", c.function, ep.Function.Name)
		}
		if !ok && (r.Code != CodeNoEntryPoint || r.Detail != c.function) {
			t.Errorf("%s: %s %q, want %s naming the function", c.function, r.Code, r.Detail, CodeNoEntryPoint)
		}
	}
}

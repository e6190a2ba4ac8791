package libwrap

import (
	"errors"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
)

// entryModule is a kernel k beside a defined function helper that is no
// entry point, and an external function ext with a threadgroup pointer the
// wrapper refuses, as one module several library functions may share.
const entryModule = header + `define void @helper(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}

define float @ext(ptr addrspace(3) %p) {
  %v = load float, ptr addrspace(3) %p
  ret float %v
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

// TestEntryFor: a row's function is its own entry point; a name the module
// does not define falls back to the only entry point; a function the module
// defines but that is no entry point never takes the kernel's; an
// air.visible function is wrapped; an external one only when the container
// types it a library function, and one the ABI cannot carry is refused with
// its kind; a module of data only has nothing to translate.
func TestEntryFor(t *testing.T) {
	k := assemble(t, entryModule)
	vis := fixture(t, "visible_scalar.ll")
	data := fixture(t, "data_only.ll")
	visName := ""
	for _, f := range vis.Functions {
		if !f.IsDeclaration() {
			visName = f.Name
			break
		}
	}
	for _, c := range []struct {
		name     string
		m        *air.Module
		function string
		typed    bool
		entry    string // the entry point's function, "" for an error
		err      string // the error's type and detail
	}{
		{"the kernel", k, "k", false, "k", ""},
		{"renamed by the library", k, "renamed_in_the_library", false, "k", ""},
		{"a defined function that is no entry point", k, "helper", false, "", "no entry helper"},
		{"a typed library function the ABI refuses", k, "ext", true, "", "refused extern threadgroup pointer"},
		{"an untyped external function", k, "ext", false, "", "no entry ext"},
		{"a visible function", vis, visName, false, Entry, ""},
		{"data only", data, "", false, "", "data only globals only"},
	} {
		tg, err := EntryFor(c.m, c.function, c.typed)
		var le *Error
		var ne *NoEntryError
		var de *DataOnlyError
		got := ""
		switch {
		case errors.As(err, &le):
			got = "refused " + string(le.Kind) + " " + le.Detail
		case errors.As(err, &ne):
			got = "no entry " + ne.Detail
		case errors.As(err, &de):
			got = "data only " + de.Detail
		case err != nil:
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("%s: error %q, want %q", c.name, got, c.err)
			continue
		}
		if err != nil {
			continue
		}
		if tg.EntryPoint.Function == nil || tg.EntryPoint.Function.Name != c.entry || (c.entry == Entry) != (tg.Wrapped != nil) {
			t.Errorf("%s: entry point %+v, wrapped %v, want %s", c.name, tg.EntryPoint.Function, tg.Wrapped != nil, c.entry)
		}
	}
}

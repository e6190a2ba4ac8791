package analytics

import "testing"

// TestFunctionKind: every function type the library format names falls in
// exactly one kind; library functions never count as entry points.
func TestFunctionKind(t *testing.T) {
	cases := map[string]string{
		"vertex": KindEntryPoint, "fragment": KindEntryPoint, "kernel": KindEntryPoint,
		"intersection": KindEntryPoint, "mesh?": KindEntryPoint,
		"visible": KindLibraryFunction, "extern": KindLibraryFunction, "unqualified": KindLibraryFunction,
		"": KindWholeLibrary, "unknown(0x09)": KindOther,
	}
	for ft, want := range cases {
		if got := FunctionKind(ft); got != want {
			t.Errorf("FunctionKind(%q) = %q, want %q", ft, got, want)
		}
	}
}

package libwrap

import "testing"

// TestDataOnly: a module of globals only (the tracepoint-data fixture) or
// of nothing is data only; a module with one function body, or with an
// entry point in its metadata, is not (the entry point's own failure).
func TestDataOnly(t *testing.T) {
	for _, c := range []struct {
		name, ll string
		detail   string
		ok       bool
	}{
		{"tracepoint fixture", "", "globals only", true},
		{"empty", header, "empty module", true},
		{"declarations only", header + "@g = addrspace(1) global i32 0\ndeclare float @air.fabs.f32(float)\n", "globals only", true},
		{"globals and their static initialiser", header + "@g = internal addrspace(2) global i32 undef\n@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]\ndefine internal void @init() section \"air.static_init\" {\n  store i32 7, ptr addrspace(2) @g\n  ret void\n}\n", "globals only", true},
		{"an external function in the initialisers' section", header + "define void @init() section \"air.static_init\" {\n  ret void\n}\n", "", false},
		{"a function body", header + "@g = addrspace(1) global i32 0\ndefine i32 @f() {\n  ret i32 1\n}\n", "", false},
		{"an entry point without a body", header + "declare void @k(ptr addrspace(1))\n!air.kernel = !{!0}\n!0 = !{ptr @k, !1, !2}\n!1 = !{}\n!2 = !{}\n", "", false},
	} {
		m := fixture(t, "data_only.ll")
		if c.ll != "" {
			m = assemble(t, c.ll)
		}
		detail, ok := DataOnly(m)
		if detail != c.detail || ok != c.ok {
			t.Errorf("%s: DataOnly %q %v, want %q %v", c.name, detail, ok, c.detail, c.ok)
		}
	}
}

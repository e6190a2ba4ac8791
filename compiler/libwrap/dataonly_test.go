package libwrap

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/oracle"
)

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

// TestFixturesOracle: every fixture of this package, the Apple-shaped
// forms included, is read by airpipe's reader, and llvm-dis-19 agrees with
// what it prints.
func TestFixturesOracle(t *testing.T) {
	for _, tool := range []string{"llvm-as-19", oracle.Tool} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	files, _ := filepath.Glob("testdata/*.ll")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("llvm-as-19", "-o", "-", "-")
		cmd.Stdin = bytes.NewReader(src)
		bc, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: llvm-as-19: %v", f, err)
		}
		m, err := bitcode.ReadModule(bc)
		if err != nil {
			t.Errorf("%s: reader: %v", f, err)
			continue
		}
		var ours bytes.Buffer
		if err := bitcode.WriteLL(&ours, m); err != nil {
			t.Fatal(err)
		}
		v, err := oracle.LLVMDis(context.Background(), bc, ours.String())
		if err != nil {
			t.Fatal(err)
		}
		if !v.Agrees {
			t.Errorf("%s: llvm-dis disagrees at line %d:\n ours:   %s\n theirs: %s", f, v.Line, v.Ours, v.Theirs)
		}
	}
	t.Logf("llvm-dis agrees on %d fixtures", len(files))
}

package oracle

import (
	"context"
	"os/exec"
	"testing"
)

func TestNormalise(t *testing.T) {
	text := "; ModuleID = 'x.bc'\nsource_filename = \"x.bc\"\n\n; Function Attrs: nounwind\ndefine void @f() #0 {\n  call void @g(ptr nonnull %a) #1\n  call void @h(ptr @\"a #2\")\n  ret void\n}\n\nattributes #0 = { nounwind }\n\n!0 = !{}\n"
	got := Normalise(text, "x.bc")
	want := []string{"", "define void @f() {", "  call void @g(ptr nonnull %a)", "  call void @h(ptr @\"a #2\")", "  ret void", "}", "", "!0 = !{}"}
	if len(got) != len(want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %q, want %q", i+1, got[i], want[i])
		}
	}
}

func TestCompare(t *testing.T) {
	cases := []struct {
		name, ours, theirs string
		agrees             bool
		line               int
	}{
		{"same", "define void @f() {\n}\n", "define void @f() #3 {\n}\n", true, 0},
		{"different operand", "  %1 = fadd float %a, %b\n", "  %1 = fadd float %b, %a\n", false, 1},
		{"ours shorter", "a\n", "a\nb\n", false, 2},
		{"theirs shorter", "a\nb\n", "a\n", false, 2},
		{"kept source_filename", "", "source_filename = \"other\"\n", false, 1},
		{"attributes section last", "declare void @f()\n", "declare void @f() #0\n\nattributes #0 = { nounwind }\n", true, 0},
		{"blank line not at the end", "a\nb\n", "a\n\nb\n", false, 2},
	}
	for _, c := range cases {
		v := Compare(c.ours, c.theirs, "in.bc")
		if v.Agrees != c.agrees || v.Line != c.line {
			t.Errorf("%s: got %+v, want agrees=%v line=%d", c.name, v, c.agrees, c.line)
		}
	}
}

// TestOracleFailed gives llvm-dis bytes that are not bitcode: that is the
// oracle failing, counted apart, not a disagreement.
func TestOracleFailed(t *testing.T) {
	if _, err := exec.LookPath(Tool); err != nil {
		t.Skip(Tool + " not installed")
	}
	v, err := LLVMDis(context.Background(), []byte("not bitcode at all"), "")
	if err != nil {
		t.Fatal(err)
	}
	if !v.OracleFailed || v.Agrees || v.OracleMessage == "" {
		t.Fatalf("got %+v, want OracleFailed with a message", v)
	}
}

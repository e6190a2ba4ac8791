package cpuref

import (
	"strings"
	"testing"
)

func TestWithoutDebugInfo(t *testing.T) {
	const flag3 = `!14 = !{i32 2, !"Debug Info Version", i32 3}`
	for _, c := range []struct {
		name, in, want string
		ok             bool
	}{
		{"version 3 marked 0", "!llvm.dbg.cu = !{!1}\n" + flag3 + "\n!15 = !{}\n", "!llvm.dbg.cu = !{!1}\n" + `!14 = !{i32 2, !"Debug Info Version", i32 0}` + "\n!15 = !{}\n", true},
		{"at the end, no newline", flag3, `!14 = !{i32 2, !"Debug Info Version", i32 0}`, true},
		{"no flag", "!llvm.dbg.cu = !{!1}\n", "!llvm.dbg.cu = !{!1}\n", false},
		{"another version", `!14 = !{i32 2, !"Debug Info Version", i32 2}`, `!14 = !{i32 2, !"Debug Info Version", i32 2}`, false},
		{"stated twice", flag3 + "\n" + strings.Replace(flag3, "!14", "!16", 1), flag3 + "\n" + strings.Replace(flag3, "!14", "!16", 1), false},
		{"inside a string, not a line of its own", `@s = constant [1 x i8] c"` + flag3 + `"`, `@s = constant [1 x i8] c"` + flag3 + `"`, false},
	} {
		got, ok := withoutDebugInfo(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: got (%q, %v), want (%q, %v)", c.name, got, ok, c.want, c.ok)
		}
	}
}

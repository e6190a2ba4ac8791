package cpuref

import (
	"regexp"
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

// wholeTextDebugInfoVersion is the multi-line regexp withoutDebugInfo ran
// over the whole module before it tested only the lines holding
// debugInfoVersionWords: FuzzWithoutDebugInfo holds the two to the same
// answers.
var wholeTextDebugInfoVersion = regexp.MustCompile(`(?m)^(![0-9]+ = !\{i32 [0-9]+, !"Debug Info Version", i32 )3\}$`)

func withoutDebugInfoByRegexp(host string) (string, bool) {
	loc := wholeTextDebugInfoVersion.FindAllStringSubmatchIndex(host, 2)
	if len(loc) != 1 {
		return host, false
	}
	end := loc[0][3]
	return host[:end] + "0}" + host[loc[0][1]:], true
}

func FuzzWithoutDebugInfo(f *testing.F) {
	const flag3 = `!14 = !{i32 2, !"Debug Info Version", i32 3}`
	for _, s := range []string{flag3, "a\n" + flag3 + "\nb", flag3 + "\n" + flag3, "x" + flag3, flag3 + "\r\n", "!1 = !{i32 2, !\"Debug Info Version\", i32 3}}\n" + flag3} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		got, ok := withoutDebugInfo(host)
		want, wok := withoutDebugInfoByRegexp(host)
		if got != want || ok != wok {
			t.Fatalf("withoutDebugInfo(%q) = (%q, %v), the regexp over the whole text (%q, %v)", host, got, ok, want, wok)
		}
	})
}

package cpuref

import (
	"regexp"
	"slices"
	"testing"
)

// TestRenameInternal: internal functions, bare and quoted, are renamed in
// their definitions and every reference (calls, metadata, constants);
// declarations, external definitions and other globals keep their names.
func TestRenameInternal(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"bare", "define internal void @memset(ptr %p) {\n  ret void\n}\ndefine void @airpipe_thread() {\n  call void @memset(ptr null)\n  ret void\n}\n",
			"define internal void @\"airpipe.internal.memset\"(ptr %p) {\n  ret void\n}\ndefine void @airpipe_thread() {\n  call void @\"airpipe.internal.memset\"(ptr null)\n  ret void\n}\n"},
		{"quoted", "define internal float @\"p0::OB\"(i32 %0) {\n}\n!0 = !{ptr @\"p0::OB\"}\n",
			"define internal float @\"airpipe.internal.p0::OB\"(i32 %0) {\n}\n!0 = !{ptr @\"airpipe.internal.p0::OB\"}\n"},
		{"prefix is no match", "define internal void @f() {\n}\n  call void @f2()\n  call void @f.x()\n  call void @f()\n",
			"define internal void @\"airpipe.internal.f\"() {\n}\n  call void @f2()\n  call void @f.x()\n  call void @\"airpipe.internal.f\"()\n"},
		{"declarations and globals kept", "declare float @sinf(float)\n@g = internal global i32 0\ndefine void @k() {\n}\n",
			"declare float @sinf(float)\n@g = internal global i32 0\ndefine void @k() {\n}\n"},
	} {
		if got := renameInternal(c.in); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// bracket marks a token, to see which spans a replacement took.
func bracket(tok string) string { return "[" + tok + "]" }

// TestReplaceGlobalNames: the hand-written scan replaces exactly what the
// globalName regexp's ReplaceAllStringFunc does, on names llvm-dis writes
// and on the corners of the pattern (an escape before a newline, an
// unclosed quote, invalid UTF-8 after a backslash, a lone '@').
func TestReplaceGlobalNames(t *testing.T) {
	for _, s := range []string{
		"",
		"no names at all",
		"call void @f(ptr @g, i32 1), !dbg !3",
		`@"quoted name"(@"esc\"aped", @"\5Cback\\slash")`,
		"@\"over\nlines\" @bare.name-$_9",
		"@\"escaped newline \\\n\" @next",
		`@"unclosed @inner`,
		"@\"\\\xff\" @\"\xc3\xa9\" @",
		"@@x @\"\" @-",
		"email me@example.org @x.y@z",
	} {
		want := globalName.ReplaceAllStringFunc(s, bracket)
		if got := replaceGlobalNames(s, bracket); got != want {
			t.Errorf("%q:\n got %q\nwant %q", s, got, want)
		}
	}
}

func FuzzReplaceGlobalNames(f *testing.F) {
	f.Add(`define internal void @"a\"b"(ptr @c) { call @d.e() }`)
	f.Add("@\"x\\\ny\" @\xff")
	f.Fuzz(func(t *testing.T, s string) {
		want := globalName.ReplaceAllStringFunc(s, bracket)
		if got := replaceGlobalNames(s, bracket); got != want {
			t.Fatalf("%q:\n got %q\nwant %q", s, got, want)
		}
	})
}

// internalDefine is the regexp internalDefines stands for.
var internalDefine = regexp.MustCompile(`(?m)^define internal [^@\n]*@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)\(`)

// regexpDefines is internalDefine's list of names.
func regexpDefines(s string) []string {
	var names []string
	for _, m := range internalDefine.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	return names
}

// TestInternalDefines: the scan finds the define lines of internal
// functions the regexp finds, and no other.
func TestInternalDefines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"define internal void @f(i32 %x) {\n}\ndefine internal fastcc <2 x float> @\"a b\"(ptr @g) {\n", []string{"f", `"a b"`}},
		{"define void @k() {\n}\n  define internal void @indented()\ndeclare internal void @d()\n", nil},
		{"define internal void @f\n(", nil},        // '(' on the next line
		{"define internal void @\"x\\\ny\"(", nil}, // an escape before a newline
		{"define internal i32 @g.1(i32 %0) #0 {\ndefine internal void @last(", []string{"g.1", "last"}},
		{"define internal void (i32) @h(ptr @g)", []string{"h"}}, // the first '@' starts the name
		{"define internal void @h @g(", nil},                     // only the first '@' can start it
		{"define internal void @h", nil},
	} {
		got := internalDefines(c.in)
		if !slices.Equal(got, c.want) || !slices.Equal(got, regexpDefines(c.in)) {
			t.Errorf("%q: got %q, want %q (the regexp: %q)", c.in, got, c.want, regexpDefines(c.in))
		}
	}
}

// FuzzInternalDefines: the scan and the regexp agree on any text.
func FuzzInternalDefines(f *testing.F) {
	f.Add("define internal void @f(i32 %x) {\n}\ndefine internal float @\"q\\\"r\"(\n")
	f.Add("define internal @\"\xff\"(\ndefine internal void @\n")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := internalDefines(s), regexpDefines(s); !slices.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

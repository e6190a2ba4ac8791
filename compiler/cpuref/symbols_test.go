package cpuref

import "testing"

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

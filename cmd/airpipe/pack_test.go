package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/corpus/mtlb"
)

// TestPackTargetOS: --platform ios writes target OS iOS unless --target-os
// says otherwise; macOS stays the default.
func TestPackTargetOS(t *testing.T) {
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip("llvm-as-19 not installed")
	}
	dir := t.TempDir()
	ll, bc := filepath.Join(dir, "k.ll"), filepath.Join(dir, "k.bc")
	if err := os.WriteFile(ll, []byte("define void @k() {\n  ret void\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("llvm-as-19", ll, "-o", bc).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args     []string
		platform uint16
		os       uint8
	}{
		{nil, mtlb.PlatformMacOS, 0x81},
		{[]string{"--platform", "ios"}, mtlb.PlatformIOS, 0x82},
		{[]string{"--platform", "ios", "--target-os", "0x87"}, mtlb.PlatformIOS, 0x87},
	} {
		out := filepath.Join(dir, "lib.metallib")
		args := append(append([]string{"-o", out}, c.args...), "k:kernel="+bc)
		if code, _, stderr := airpipe(t, packCmd, args...); code != 0 {
			t.Fatalf("%v: exit %d %s", c.args, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		l, err := mtlb.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if l.Platform != c.platform || l.TargetOS != c.os {
			t.Errorf("%v: platform %d target OS 0x%02x (%s), want %d 0x%02x", c.args, l.Platform, l.TargetOS, mtlb.TargetOSName(l.TargetOS), c.platform, c.os)
		}
	}
}

// TestNameAndType: a single colon separates the type; a "::" is part of the
// name.
func TestNameAndType(t *testing.T) {
	for _, c := range []struct{ in, name, typ string }{
		{"k", "k", ""},
		{"k:vertex", "k", "vertex"},
		{"ns::f", "ns::f", ""},
		{"ns::f:fragment", "ns::f", "fragment"},
		{"a::b::c:7", "a::b::c", "7"},
		{"ns::f:", "ns::f", ""},
		{"::f", "::f", ""},
	} {
		if name, typ := nameAndType(c.in); name != c.name || typ != c.typ {
			t.Errorf("%q: got %q, %q; want %q, %q", c.in, name, typ, c.name, c.typ)
		}
	}
}

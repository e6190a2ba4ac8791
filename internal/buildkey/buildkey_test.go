package buildkey

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestKeyFrom(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "airpipe")
	must(t, os.WriteFile(exe, []byte("binary one"), 0o755))
	exeFn := func() (string, error) { return exe, nil }
	settings := func(kv ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return bi
	}
	clean := settings("vcs.revision", "0123abcd", "vcs.modified", "false")
	dirty := settings("vcs.revision", "0123abcd", "vcs.modified", "true")
	if got := keyFrom(clean, exeFn); got != "vcs:0123abcd" {
		t.Errorf("clean build: %q", got)
	}
	d1 := keyFrom(dirty, exeFn)
	none := keyFrom(settings(), exeFn)
	if !strings.HasPrefix(d1, "exe:") || d1 != none {
		t.Errorf("dirty %q and unstamped %q builds should be named by the executable's hash", d1, none)
	}
	// The same dirty revision rebuilt with other changes is another build.
	must(t, os.WriteFile(exe, []byte("binary two"), 0o755))
	if d2 := keyFrom(dirty, exeFn); d2 == d1 {
		t.Errorf("two dirty binaries share the key %q", d1)
	}
	// An unreadable executable shares with nothing.
	gone := func() (string, error) { return "", os.ErrNotExist }
	if k1, k2 := keyFrom(dirty, gone), keyFrom(dirty, gone); k1 == k2 || strings.HasPrefix(k1, "exe:") {
		t.Errorf("unreadable executable: keys %q %q", k1, k2)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

package harness

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/cpuref/refcache"
	"github.com/airpipe/airpipe/internal/buildkey"
)

// TestReferenceCache: a reference's key names the build, the SIMD-group
// width and the verdicts' version; a stored entry is the reference (no LLVM
// needed) and a missing one is not counted as damage; a reference that uses
// no SIMD-group serves every width, one that ran at 8 lanes does not serve
// a device of 32. The cache's refusal of damaged entries is tested in
// compiler/cpuref/refcache.
func TestReferenceCache(t *testing.T) {
	m := Module{SHA256: strings.Repeat("ab", 32), Entry: "k"}
	key := referenceKey(m, cpuref.Options{SIMDWidth: 8}, "11")
	if !strings.Contains(key, "build="+buildkey.Key()) {
		t.Fatalf("reference key %q does not name the build", key)
	}
	if key == referenceKey(m, cpuref.Options{SIMDWidth: 32}, "11") {
		t.Fatal("references at SIMD widths 8 and 32 share a key")
	}
	if key == referenceKey(m, cpuref.Options{SIMDWidth: 8}, "12") {
		t.Fatal("references of two verdict versions share a key")
	}
	run := func(dir string, width int) (*cpuref.Result, error) {
		return New(Options{Device: "lavapipe", ReferenceCache: dir, SIMDWidth: width, Version: "11"}).Reference(context.Background(), m, false)
	}
	dir := t.TempDir()
	refcache.Dir(dir).Put(key, referenceKey(m, cpuref.Options{}, "11"), &cpuref.Result{SIMDWidth: 8, Outputs: []cpuref.Data{{Index: 0, Bytes: []byte{1, 2, 3, 4}}}}, nil)
	before := refcache.Refused()
	if res, err := run(dir, 8); err != nil || res == nil || len(res.Outputs) != 1 {
		t.Fatalf("stored reference not used: %v %+v", err, res)
	}
	if refcache.Refused() != before {
		t.Errorf("an intact entry or a missing one was counted as damaged")
	}
	if res, err := run(dir, 32); err == nil && res != nil {
		t.Fatal("a reference computed at 8 lanes served a device of 32")
	}

	dir = t.TempDir()
	base := referenceKey(m, cpuref.Options{}, "11")
	refcache.Dir(dir).Put(base, base, &cpuref.Result{Outputs: []cpuref.Data{{Index: 0, Bytes: []byte{1}}}}, nil)
	if res, err := run(dir, 32); err != nil || len(res.Outputs) != 1 {
		t.Fatalf("a width-independent reference did not serve width 32: %v", err)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(matches) != 1 {
		t.Fatalf("entries %v, want one", matches)
	}
}

// TestOfThisBuild: a reference key of this build is one to keep; one of
// another build, or naming none, is not.
func TestOfThisBuild(t *testing.T) {
	m := Module{SHA256: strings.Repeat("ab", 32), Entry: "k"}
	key := referenceKey(m, cpuref.Options{InputFamily: "small-integers"}, "11")
	if !OfThisBuild(key) {
		t.Errorf("this build's key %q is not this build's", key)
	}
	other := strings.Replace(key, "|build="+buildkey.Key(), "|build=vcs:0000", 1)
	if other == key || OfThisBuild(other) {
		t.Errorf("another build's key %q is this build's", other)
	}
	if OfThisBuild(strings.Replace(key, "|build=", "|built=", 1)) {
		t.Error("a key naming no build is this build's")
	}
	if OfThisBuild(strings.Replace(key, "|build="+buildkey.Key(), "|build="+buildkey.Key()+"x", 1)) {
		t.Error("a build whose name starts with this one's is this build's")
	}
}

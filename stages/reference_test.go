package stages

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/internal/buildkey"
	"github.com/airpipe/airpipe/pipeline"
)

// TestReferenceCacheRefusesDamage: a stored reference is used only when it
// is exactly what this build stored; a flipped byte, an unsealed entry (as
// builds before the checksum wrote them), a link or a FIFO is a counted
// miss, never a reference.
func TestReferenceCacheRefusesDamage(t *testing.T) {
	m := &Module{SHA256: strings.Repeat("ab", 32), artifacts: artifacts{Translation: &translate.Output{Entry: "k"}}}
	key := referenceKey(m, cpuref.Options{SIMDWidth: 8})
	if !strings.Contains(key, "build="+buildkey.Key()) {
		t.Fatalf("reference key %q does not name the build", key)
	}
	if referenceKey(m, cpuref.Options{SIMDWidth: 8}) == referenceKey(m, cpuref.Options{SIMDWidth: 32}) {
		t.Fatal("references at SIMD widths 8 and 32 share a key")
	}
	ent := referenceEntry{Key: key, Result: &cpuref.Result{Outputs: []cpuref.Data{{Index: 0, Bytes: []byte{1, 2, 3, 4}}}}}
	body, err := json.Marshal(ent)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		plant func(t *testing.T, p string)
		hit   bool
	}{
		{"intact", func(t *testing.T, p string) { mustDo(t, pipeline.WriteSealed(p, body, MaxReferenceEntry)) }, true},
		{"flipped byte", func(t *testing.T, p string) {
			mustDo(t, pipeline.WriteSealed(p, body, MaxReferenceEntry))
			b, _ := os.ReadFile(p)
			i := bytes.Index(b, []byte(`"Index":0`))
			b[i+8] = '1' // still JSON: another output index
			mustDo(t, os.WriteFile(p, b, 0o644))
		}, false},
		{"unsealed", func(t *testing.T, p string) { mustDo(t, os.WriteFile(p, body, 0o644)) }, false},
		{"symlink", func(t *testing.T, p string) {
			other := filepath.Join(t.TempDir(), "e")
			mustDo(t, pipeline.WriteSealed(other, body, MaxReferenceEntry))
			mustDo(t, os.Symlink(other, p))
		}, false},
		{"fifo", func(t *testing.T, p string) { mustDo(t, syscall.Mkfifo(p, 0o644)) }, false},
		{"neither result nor reason", func(t *testing.T, p string) {
			b, _ := json.Marshal(referenceEntry{Key: key})
			mustDo(t, pipeline.WriteSealed(p, b, MaxReferenceEntry))
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "ref.json")
			tc.plant(t, p)
			before := ReferenceCacheRefused()
			got, ok := readReference(p, key)
			if ok != tc.hit {
				t.Fatalf("hit %v, want %v (%+v)", ok, tc.hit, got)
			}
			if ok && got.Result.Outputs[0].Index != 0 {
				t.Fatalf("wrong reference %+v", got.Result)
			}
			if n := ReferenceCacheRefused() - before; n != map[bool]int64{true: 0, false: 1}[tc.hit] {
				t.Errorf("refused count grew by %d", n)
			}
		})
	}
	// Through the emulator: a planted intact entry is the reference (no
	// LLVM needed), and a missing one is not counted as damage.
	dir := t.TempDir()
	e := &emulator{opts: EmulatorOptions{ReferenceCache: dir, SIMDWidth: 8}}
	before := ReferenceCacheRefused()
	sumKey := referencePath(dir, key)
	mustDo(t, pipeline.WriteSealed(sumKey, body, MaxReferenceEntry))
	res, err := e.reference(context.Background(), m)
	if err != nil || res == nil || len(res.Outputs) != 1 {
		t.Fatalf("planted reference not used: %v %+v", err, res)
	}
	if ReferenceCacheRefused() != before {
		t.Errorf("an intact entry was counted as damaged")
	}

	// A reference that uses no SIMD-group serves every width; one that ran
	// at 8 lanes does not serve a device of 32.
	dir = t.TempDir()
	plant := func(opts cpuref.Options, res *cpuref.Result) {
		k := referenceKey(m, opts)
		b, err := json.Marshal(referenceEntry{Key: k, Result: res})
		mustDo(t, err)
		mustDo(t, pipeline.WriteSealed(referencePath(dir, k), b, MaxReferenceEntry))
	}
	plant(cpuref.Options{}, &cpuref.Result{Outputs: []cpuref.Data{{Index: 0, Bytes: []byte{1}}}})
	if res, err := (&emulator{opts: EmulatorOptions{ReferenceCache: dir, SIMDWidth: 32}}).reference(context.Background(), m); err != nil || len(res.Outputs) != 1 {
		t.Fatalf("a width-independent reference did not serve width 32: %v", err)
	}
	dir = t.TempDir()
	plant(cpuref.Options{SIMDWidth: 8}, &cpuref.Result{SIMDWidth: 8, Outputs: []cpuref.Data{{Index: 0, Bytes: []byte{1}}}})
	if res, err := (&emulator{opts: EmulatorOptions{ReferenceCache: dir, SIMDWidth: 32}}).reference(context.Background(), m); err == nil && res != nil {
		t.Fatal("a reference computed at 8 lanes served a device of 32")
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

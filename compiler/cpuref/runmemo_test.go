package cpuref

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunKey: a run's key is the same for the same object (read from its
// file or held by the program), spec and bytes written for another
// directory, and another key for any difference in the object, the spec,
// an input's index or bytes, the substitution records or the timeout.
func TestRunKey(t *testing.T) {
	root := t.TempDir()
	obj := filepath.Join(root, "kernel.o")
	other := filepath.Join(root, "other.o")
	if err := os.WriteFile(obj, []byte("object"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte("objecT"), 0o600); err != nil {
		t.Fatal(err)
	}
	spec := func(dir string) string {
		return "groups 1 1 1 threads 4 1 1 ftz 0\n0 16 " + filepath.Join(dir, "in0.bin") + " " + filepath.Join(dir, "out0.bin") + "\n"
	}
	inputs := []Data{{Index: 0, Bytes: []byte("0123456789abcdef")}}
	sub := &Substitution{Words: []byte{1, 2, 3, 4}}
	keyFor := func(dir string, prog program, spec string, in []Data, s *Substitution, timeout time.Duration) string {
		k, ok := runKey(dir, prog, spec, in, s, timeout)
		if !ok {
			t.Fatal("no key")
		}
		return k
	}
	key := func(dir, kernel, spec string, in []Data, s *Substitution) string {
		return keyFor(dir, program{kernel: kernel}, spec, in, s, time.Minute)
	}
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	base := key(a, obj, spec(a), inputs, sub)
	if key(b, obj, spec(b), inputs, sub) != base {
		t.Fatal("the same run written for another directory has another key")
	}
	if keyFor(a, program{kernel: filepath.Join(root, "missing.o"), object: []byte("object")}, spec(a), inputs, sub, time.Minute) != base {
		t.Fatal("the object held in memory gives another key than its file")
	}
	for name, k := range map[string]string{
		"object":       key(a, other, spec(a), inputs, sub),
		"spec":         key(a, obj, strings.Replace(spec(a), "ftz 0", "ftz 1", 1), inputs, sub),
		"input bytes":  key(a, obj, spec(a), []Data{{Index: 0, Bytes: []byte("0123456789abcdeF")}}, sub),
		"input index":  key(a, obj, spec(a), []Data{{Index: 1, Bytes: inputs[0].Bytes}}, sub),
		"substitution": key(a, obj, spec(a), inputs, &Substitution{Words: []byte{1, 2, 3, 5}}),
		"no records":   key(a, obj, spec(a), inputs, nil),
		"timeout":      keyFor(a, program{kernel: obj}, spec(a), inputs, sub, time.Second),
	} {
		if k == base {
			t.Errorf("a run that differs in its %s has the same key", name)
		}
	}
	if _, ok := runKey(a, program{kernel: filepath.Join(root, "missing.o")}, spec(a), inputs, nil, time.Minute); ok {
		t.Error("a key for an object that cannot be read")
	}
}

// TestKeptRun: a kept result gives back each output (a copy) and writes
// approx.out back for a substituting run.
func TestKeptRun(t *testing.T) {
	kept := runResults
	runResults = &byteCache{max: runResultBytes}
	t.Cleanup(func() { runResults = kept })
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "approx.out"), []byte("counts\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outs := []Data{{Index: 0, Bytes: []byte("abcd")}, {Index: 2, Bytes: []byte("ef")}}
	keepRun("k", dir, outs, true)
	again := t.TempDir()
	got, ok, err := keptRun("k", again, []Data{{Index: 0, Bytes: make([]byte, 4)}, {Index: 2, Bytes: make([]byte, 2)}}, true)
	if err != nil || !ok {
		t.Fatalf("kept run not found: %v", err)
	}
	if len(got) != 2 || string(got[0].Bytes) != "abcd" || got[1].Index != 2 || string(got[1].Bytes) != "ef" {
		t.Fatalf("outputs %+v", got)
	}
	if b, err := os.ReadFile(filepath.Join(again, "approx.out")); err != nil || string(b) != "counts\n" {
		t.Fatalf("approx.out %q, %v", b, err)
	}
	got[0].Bytes[0] = 'X'
	if again, _, _ := keptRun("k", dir, outs, false); string(again[0].Bytes) != "abcd" {
		t.Fatal("a caller's change reached the kept result")
	}
	if _, ok, _ := keptRun("other", dir, outs, false); ok {
		t.Fatal("a result for a key never kept")
	}
}

// TestFamilyBytes: each family's kept fill is the bytes a fresh fill
// makes, a caller's change to them reaches no later caller, and a buffer
// that differs in its members (which the typed families read) gets its
// own bytes, not the first buffer's.
func TestFamilyBytes(t *testing.T) {
	kept := filledInputs
	filledInputs = &byteCache{max: 16 << 20}
	t.Cleanup(func() { filledInputs = kept })
	a := Buffer{Index: 1, TypeName: "S", ElementSize: 8, Members: []Member{{Offset: 0, Size: 4, TypeName: "float"}, {Offset: 4, Size: 4, TypeName: "int"}}}
	b := a
	b.Members = []Member{{Offset: 0, Size: 4, TypeName: "int"}, {Offset: 4, Size: 4, TypeName: "float"}}
	for i, f := range InputFamilies {
		for _, buf := range []Buffer{a, b, a} {
			want := f.Fill(buf.Index, 64)
			if f.Typed != nil {
				want = f.Typed(buf, 64)
			}
			got := familyBytes(i, buf, 64)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, members %v: kept fill differs from a fresh one", f.Name, buf.Members)
			}
			got[0] ^= 0xff
		}
	}
}

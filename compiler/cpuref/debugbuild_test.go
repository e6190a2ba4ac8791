package cpuref

import (
	"bytes"
	"context"
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDebugInfoDropped runs a kernel with full debug info (DWARF language
// 61, version 3 metadata): the reference's outputs are those of the same
// kernel without it, and the object llc-19 built carries no debug
// section and opt-19 did not run (the flag marked as of an old version
// made llc-19 drop the debug info itself; left at 3, llc-19 crashes in its
// DWARF writer on this fixture).
func TestDebugInfoDropped(t *testing.T) {
	needTools(t)
	plain, err := os.ReadFile("testdata/affine.ll")
	if err != nil {
		t.Fatal(err)
	}
	debug, err := os.ReadFile("testdata/affine_debug.ll")
	if err != nil {
		t.Fatal(err)
	}
	want, err := RunText(context.Background(), string(plain), "affine", Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	got, err := RunText(context.Background(), string(debug), "affine", Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Outputs) != len(want.Outputs) {
		t.Fatalf("%d outputs, want %d", len(got.Outputs), len(want.Outputs))
	}
	for i := range want.Outputs {
		if !bytes.Equal(got.Outputs[i].Bytes, want.Outputs[i].Bytes) {
			t.Errorf("buffer %d differs from the kernel's without debug info", want.Outputs[i].Index)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "kernel.bc")); err == nil {
		t.Error("opt-19 ran: kernel.bc exists")
	}
	f, err := elf.Open(filepath.Join(dir, "kernel.o"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, s := range f.Sections {
		if strings.HasPrefix(s.Name, ".debug_") {
			t.Errorf("the object carries debug section %s", s.Name)
		}
	}
}

package stages

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/pipeline"
)

// TestEmulatorIntWidths judges apple_intwidth.ll (i2, i3, i6 arithmetic,
// sign extension, signed and unsigned comparisons, a switch on an i3) on
// lavapipe against LLVM's own execution: it passes. The SPIR-V of the same
// kernel with sext i3 replaced by zext (the sign bit not extended), judged
// against the right AIR, is a mismatch: the check can fail.
func TestEmulatorIntWidths(t *testing.T) {
	emuNeed(t)
	const fixture = "../compiler/translate/testdata/apple_intwidth.ll"
	m := emuModule(t, fixture)
	r := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Passed || r.Data["words_written"] == "" || r.Data["words_written"] == "0" {
		t.Fatalf("apple_intwidth.ll: %s %s %q %s %v", r.Status, r.Code, r.Detail, r.Message, r.Data)
	}
	t.Logf("%s %v", r.Status, r.Data)

	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	const right = "  %s = sext i3 %c to i32\n"
	wrongSrc := strings.Replace(string(src), right, "  %s = zext i3 %c to i32\n", 1)
	if wrongSrc == string(src) {
		t.Fatal("the fixture's sext was not found")
	}
	wrong := filepath.Join(t.TempDir(), "apple_intwidth_zext.ll")
	if err := os.WriteFile(wrong, []byte(wrongSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	m.Translation = emuModule(t, wrong).Translation
	r = Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if r.Status != pipeline.Failed || r.Code != CodeEmulatorMismatch {
		t.Fatalf("sext as zext: %s %s %q %s, want a mismatch", r.Status, r.Code, r.Detail, r.Message)
	}
	t.Logf("%s %q %s", r.Status, r.Detail, r.Message)
}

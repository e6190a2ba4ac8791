package stages

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/internal/codes"

	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/pipeline"
)

// TestCoreImageSamplerFaultCaught: the SPIR-V of the same kernel with the
// sample's components reversed, judged against the reference of the right
// one, is a mismatch (the harness's texels differ by component): the
// judgement of a wrapped sampler can fail.
func TestCoreImageSamplerFaultCaught(t *testing.T) {
	emuNeed(t)
	m, r := libraryRow(t, "ci_sampler.ll", "_sampleShift", mtlb.FunctionExtern)
	if r.Status != pipeline.Passed {
		t.Fatalf("translate: %s %s %s", r.Status, r.Code, r.Message)
	}
	src, err := os.ReadFile(filepath.Join("..", "compiler", "libwrap", "testdata", "ci_sampler.ll"))
	if err != nil {
		t.Fatal(err)
	}
	const ret = "  ret <4 x float> %v\n"
	wrong := strings.Replace(string(src), ret, "  %w = shufflevector <4 x float> %v, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>\n  ret <4 x float> %w\n", 1)
	if wrong == string(src) {
		t.Fatal("the fixture's return was not found")
	}
	cmd := exec.Command("llvm-as-19", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(wrong)
	bc, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	ir, err := bitcode.ReadModule(bc)
	if err != nil {
		t.Fatal(err)
	}
	bad := &Module{Bitcode: bc, SHA256: "ci_sampler_reversed", Function: m.Function, artifacts: artifacts{IR: ir}}
	if r := translateModule(context.Background(), bad); r.Status != pipeline.Passed {
		t.Fatalf("translate the reversed kernel: %s %s", r.Code, r.Message)
	}
	m.Translation = bad.Translation
	e := Emulator(EmulatorOptions{}).Run(context.Background(), m)
	if e.Status != pipeline.Failed || e.Code != codes.EmulatorMismatch {
		t.Fatalf("reversed components: %s %s %q %s, want %s", e.Status, e.Code, e.Detail, e.Message, codes.EmulatorMismatch)
	}
	t.Logf("caught: %s: %s", e.Detail, e.Message)
}

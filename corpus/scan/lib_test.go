package scan_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/airpipe/airpipe/corpus/mtlb"
)

var (
	bitcodeOnce sync.Once
	bitcode     []byte
	bitcodeErr  error
)

// kernelBitcode assembles testdata/kernel.ll with llvm-as-19 (skipping the
// test when the tool is missing).
func kernelBitcode(tb testing.TB) []byte {
	tb.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		tb.Skip("llvm-as-19 not installed (Debian llvm-19): cannot build test bitcode")
	}
	bitcodeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "scan-bc")
		if err != nil {
			bitcodeErr = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "k.bc")
		if b, err := exec.Command("llvm-as-19", "testdata/kernel.ll", "-o", out).CombinedOutput(); err != nil {
			bitcodeErr = &exec.Error{Name: "llvm-as-19: " + string(b), Err: err}
			return
		}
		bitcode, bitcodeErr = os.ReadFile(out)
	})
	if bitcodeErr != nil {
		tb.Fatal(bitcodeErr)
	}
	return bitcode
}

// library builds a one-function library named name around the test kernel.
func library(tb testing.TB, name string) []byte {
	tb.Helper()
	lib, err := mtlb.Marshal(&mtlb.Spec{Platform: mtlb.PlatformMacOS, FormatMajor: 2, FormatMinor: 7, TargetOS: 0x81, OSMajor: 14,
		Functions: []mtlb.SpecFunction{{Name: name, Type: mtlb.FunctionKernel, Bitcode: kernelBitcode(tb), AIRMajor: 2, AIRMinor: 6, LangMajor: 3, LangMinor: 1}}})
	if err != nil {
		tb.Fatal(err)
	}
	return lib
}

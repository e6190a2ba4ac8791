package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/airpipe/airpipe/analytics"
	"github.com/airpipe/airpipe/corpus/corpustest"
)

// llvmDisBatch times llvm-dis-19 reading and printing every distinct module
// of the corpus, in batches of one process per 200 files: the yardstick for
// this machine's speed (issue 19).
func llvmDisBatch(b *testing.B) (time.Duration, int) {
	b.Helper()
	tool, err := exec.LookPath("llvm-dis-19")
	if err != nil {
		b.Skipf("llvm-dis-19 not installed: %v", err)
	}
	dir := b.TempDir()
	var files []string
	for i, f := range corpustest.Functions(b) {
		p := filepath.Join(dir, fmt.Sprintf("m%05d.bc", i))
		if err := os.WriteFile(p, f.Bitcode, 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, p)
	}
	start := time.Now()
	for i := 0; i < len(files); i += 200 {
		cmd := exec.Command(tool, files[i:min(i+200, len(files))]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			// A module llvm-dis cannot read still counts its time; the
			// batch goes on with the next files.
			b.Logf("llvm-dis-19: %v: %.200s", err, out)
		}
	}
	return time.Since(start), len(files)
}

// BenchmarkPipelineVsLLVMDis runs the whole pipeline (container → emulator,
// no stage cache, no reference cache) over AIRPIPE_CORPUS and llvm-dis-19
// over the same distinct modules in one run, and reports both wall times,
// their ratio (issue 19's goal: ≤ 26×) and the summed worker time of each
// stage over the distinct modules.
func BenchmarkPipelineVsLLVMDis(b *testing.B) {
	root := corpustest.Root(b)
	var pipe, dis time.Duration
	var mods int
	stageMS := map[string]int64{}
	for b.Loop() {
		d, n := llvmDisBatch(b)
		dis += d
		mods = n
		out := b.TempDir()
		start := time.Now()
		if code := run([]string{"run", "--out", out, "--progress", "none", "--no-cache", "--reference-cache", "",
			"--stages", "container,reader,translate,compile,emulator", root}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("run: exit %d", code)
		}
		pipe += time.Since(start)
		entries, err := os.ReadDir(out)
		if err != nil || len(entries) != 1 {
			b.Fatalf("results: %v %v", entries, err)
		}
		_, rows, err := analytics.ReadRun(filepath.Join(out, entries[0].Name()))
		if err != nil {
			b.Fatal(err)
		}
		seen := map[string]bool{}
		for _, r := range rows {
			if seen[r.BitcodeSHA256+"\x00"+r.Function] {
				continue
			}
			seen[r.BitcodeSHA256+"\x00"+r.Function] = true
			stageMS["container"] += r.ContainerMS
			stageMS["reader"] += r.ReaderMS
			stageMS["translate"] += r.TranslateMS
			stageMS["compile"] += r.CompileMS
			stageMS["emulator"] += r.EmulatorMS
		}
	}
	n := float64(b.N)
	b.ReportMetric(pipe.Seconds()/n, "pipeline-s")
	b.ReportMetric(dis.Seconds()/n, "llvm-dis-s")
	b.ReportMetric(float64(pipe)/float64(dis), "pipeline/llvm-dis")
	var names []string
	for s := range stageMS {
		names = append(names, s)
	}
	sort.Slice(names, func(i, j int) bool { return stageMS[names[i]] > stageMS[names[j]] })
	for _, s := range names {
		b.Logf("%-9s worker time %8.1f s (summed over distinct modules)", s, float64(stageMS[s])/1000/n)
	}
	b.Logf("%d distinct modules; pipeline %.1f s, llvm-dis-19 %.1f s: %.1f×", mods, pipe.Seconds()/n, dis.Seconds()/n, float64(pipe)/float64(dis))
}

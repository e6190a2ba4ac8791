package stages

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/pipeline"
)

// The emulator's comparison on another machine's GPU, in three steps, so that
// the machine that runs the SPIR-V never holds the reference's answers
// (seed 003's --emit/--check): emit here (cases without answers, answers kept
// apart), replay there (dispatch, write what came back), check here.
//
//	AIRPIPE_EMU_EMIT=dir     TestEmulatorEmit    writes dir/cases.json.gz and dir/expected.json.gz
//	AIRPIPE_EMU_REPLAY=dir   TestEmulatorReplay  reads dir/cases.json.gz, runs on AIRPIPE_EMU_DEVICE,
//	                                             writes AIRPIPE_EMU_OUT/results.json.gz
//	AIRPIPE_EMU_CHECK=dir    TestEmulatorCheck   compares dir/results.json.gz with dir/expected.json.gz

func writeGz(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := gzip.NewWriter(f)
	if err := json.NewEncoder(z).Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func readGz(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(z).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// TestEmulatorEmit writes the fixtures and every corpus kernel, fragment and
// vertex shader the reference can judge as replay cases.
func TestEmulatorEmit(t *testing.T) {
	dir := os.Getenv("AIRPIPE_EMU_EMIT")
	if dir == "" {
		t.Skip("AIRPIPE_EMU_EMIT is not set")
	}
	emuNeed(t)
	var cases []harness.Request
	expected := map[string][]cpuref.Data{}
	add := func(name string, bc []byte, out *translate.Output) {
		ref, err := cpuref.Run(context.Background(), bc, out.Entry, cpuref.Options{})
		if err != nil {
			return
		}
		q, _, ok := harness.Prepare("", name, out, ref)
		if !ok {
			return
		}
		cases = append(cases, q)
		expected[name] = ref.Outputs
	}
	for _, f := range []string{"saxpy.ll", "swizzle.ll", "builtins.ll", "guarded.ll", "fragment.ll", "fragment_two.ll", "vertex.ll", "vertex_layer.ll"} {
		m := emuModule(t, filepath.Join("testdata", "emulator", f))
		add("fixture "+f, m.Bitcode, m.Translation)
	}
	if root := os.Getenv("AIRPIPE_CORPUS"); root != "" {
		for _, k := range corpusKernels(t, root) {
			ir, err := bitcode.ReadModule(k.bc)
			if err != nil {
				continue
			}
			eps, _ := air.EntryPoints(ir)
			for _, ep := range eps {
				if ep.Function == nil || ep.Function.Name != k.name || ep.Stage != air.Kernel && ep.Stage != air.Fragment && ep.Stage != air.Vertex {
					continue
				}
				if out, err := translate.Translate(ir, ep); err == nil {
					add(k.name+" "+k.sum, k.bc, out)
				}
			}
		}
	}
	writeGz(t, filepath.Join(dir, "cases.json.gz"), cases)
	writeGz(t, filepath.Join(dir, "expected.json.gz"), expected)
	t.Logf("%d cases", len(cases))
}

// TestEmulatorReplay dispatches every case on AIRPIPE_EMU_DEVICE (default
// auto) and writes what came back.
func TestEmulatorReplay(t *testing.T) {
	dir := os.Getenv("AIRPIPE_EMU_REPLAY")
	if dir == "" {
		t.Skip("AIRPIPE_EMU_REPLAY is not set")
	}
	spec := os.Getenv("AIRPIPE_EMU_DEVICE")
	if spec == "" {
		spec = "auto"
	}
	var cases []harness.Request
	readGz(t, filepath.Join(dir, "cases.json.gz"), &cases)
	dev, err := device.Open(spec, device.Options{})
	if err != nil {
		t.Fatalf("open %s: %v", spec, err)
	}
	defer dev.Stop()
	t.Logf("device: %s", dev.Facts())
	var results []harness.Reply
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		results = append(results, harness.Dispatch(ctx, dev, c))
		cancel()
	}
	out := os.Getenv("AIRPIPE_EMU_OUT")
	if out == "" {
		out = dir
	}
	writeGz(t, filepath.Join(out, "results.json.gz"), results)
}

// TestEmulatorCheck judges replayed results against the kept answers with
// the emulator's own comparison, and counts the verdicts.
func TestEmulatorCheck(t *testing.T) {
	dir := os.Getenv("AIRPIPE_EMU_CHECK")
	if dir == "" {
		t.Skip("AIRPIPE_EMU_CHECK is not set")
	}
	var results []harness.Reply
	expected := map[string][]cpuref.Data{}
	var cases []harness.Request
	readGz(t, filepath.Join(dir, "results.json.gz"), &results)
	readGz(t, filepath.Join(dir, "expected.json.gz"), &expected)
	readGz(t, filepath.Join(dir, "cases.json.gz"), &cases)
	inputs := map[string]harness.Request{}
	for _, c := range cases {
		inputs[c.Name] = c
	}
	if len(results) > 0 && results[0].Facts != nil {
		t.Logf("device: %s", results[0].Facts)
	}
	counts := map[string]int{}
	var micros []int64
	for _, r := range results {
		micros = append(micros, r.Micros)
		if r.Buffers == nil {
			counts["did not run: "+string(r.Verdict.Code)+" "+r.Verdict.Detail]++
			continue
		}
		c := inputs[r.Name]
		v := compare(&cpuref.Result{Kernel: c.Kernel, Grid: c.Grid, Inputs: c.Buffers, Outputs: expected[r.Name]}, r.Buffers)
		stage := "kernel"
		if c.Kernel != nil && c.Kernel.Stage != "" {
			stage = string(c.Kernel.Stage)
		}
		key := stage + ": " + string(v.Status) + " " + string(v.Code) + " " + v.Detail
		if v.Status == pipeline.Failed {
			t.Logf("%s: %s %s: %s", r.Name, v.Code, v.Detail, v.Message)
			key = stage + ": " + string(v.Status) + " " + string(v.Code)
		}
		counts[key]++
	}
	sort.Slice(micros, func(i, j int) bool { return micros[i] < micros[j] })
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%4d %s", counts[k], k)
	}
	if n := len(micros); n > 0 {
		t.Logf("dispatch incl. pipeline creation and buffers: median %d µs, max %d µs over %d cases", micros[n/2], micros[n-1], n)
	}
}

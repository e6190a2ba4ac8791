package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/pipeline"
)

// corpusFunction is one distinct function bitcode of the corpus.
type corpusFunction struct {
	bc    []byte
	name  string
	typ   string
	sum   string // the bitcode's SHA-256, first 12 hex digits
	count int    // occurrences
}

// corpusKernels lists the corpus's distinct function bitcodes (all types),
// in walk order.
func corpusKernels(t *testing.T, root string) []*corpusFunction {
	t.Helper()
	seen := map[[32]byte]*corpusFunction{}
	var out []*corpusFunction
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".metallib") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lib, err := mtlb.Parse(data)
		if err != nil {
			return nil
		}
		for _, f := range lib.Functions {
			raw, err := f.RawBitcode()
			if err != nil {
				continue
			}
			sum := sha256.Sum256(raw)
			if k, ok := seen[sum]; ok {
				k.count++
				continue
			}
			k := &corpusFunction{bc: raw, name: f.Name, typ: mtlb.FunctionTypeName(f.Type), sum: hex.EncodeToString(sum[:6]), count: 1}
			seen[sum] = k
			out = append(out, k)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// emuCorpusSample is the most distinct functions emuCorpus runs: one in
// every len/emuCorpusSample of the corpus's, in walk order. The whole
// corpus through every stage is `airpipe run`'s measurement (README); on
// the 616-library share it takes over half an hour here, the LLM kernels'
// cooperative references alone 10–25 s each.
const emuCorpusSample = 160

// emuCorpus carries a sample of the distinct functions of the corpus under
// root (emuCorpusSample) through reader → translate → emulator, and logs
// the verdicts counted by function type, status, code and detail (for
// distinct bitcodes and for function occurrences). It returns the sampled
// kernels' counts by status.
func emuCorpus(t *testing.T, root string) map[string]int {
	all := corpusKernels(t, root)
	stride := (len(all) + emuCorpusSample - 1) / emuCorpusSample
	var functions []*corpusFunction
	for i := 0; i < len(all); i += max(stride, 1) {
		functions = append(functions, all[i])
	}
	t.Logf("running %d of %d distinct functions (one in %d)", len(functions), len(all), max(stride, 1))
	occurrences := 0
	for _, k := range functions {
		occurrences += k.count
	}
	st := Emulator(EmulatorOptions{})
	byReason, byReasonOcc, byStatus, examples := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	for _, k := range functions {
		reason := ""
		ir, err := bitcode.ReadModule(k.bc)
		var out *translate.Output
		if err == nil {
			var eps []air.EntryPoint
			eps, err = air.EntryPoints(ir)
			for _, ep := range eps {
				if ep.Function != nil && ep.Function.Name == k.name {
					out, err = translate.Translate(ir, ep)
				}
			}
			if err == nil && out != nil {
				err = spirv.Validate(context.Background(), out.SPIRV)
			}
		}
		var miss *translate.MissingError
		switch {
		case errors.As(err, &miss):
			reason = "not-run (translate " + string(miss.Missing[0].Code) + " " + miss.Missing[0].Detail + ")"
		case err != nil:
			reason = "not-run (reader/translate: " + err.Error()[:min(60, len(err.Error()))] + ")"
		case out == nil:
			reason = "not-run (no entry point)"
		}
		status := "not-run"
		if reason == "" {
			m := &Module{Bitcode: k.bc, artifacts: artifacts{IR: ir, Translation: out}}
			r := st.Run(context.Background(), m)
			status = string(r.Status)
			reason = strings.TrimSpace(string(r.Status) + " " + string(r.Code) + " " + r.Detail)
			if r.Status == pipeline.Failed {
				t.Logf("%s (%s): %s %s: %s", k.name, k.sum, r.Code, r.Detail, r.Message)
			}
			if examples[reason]++; examples[reason] <= 2 && r.Status != pipeline.Passed {
				t.Logf("example of %q: %s (%s): %s", reason, k.name, k.sum, r.Message)
			}
		}
		if k.typ == "kernel" {
			byStatus[status]++
		}
		reason = k.typ + ": " + reason
		byReason[reason]++
		byReasonOcc[reason] += k.count
	}
	keys := make([]string, 0, len(byReason))
	for r := range byReason {
		keys = append(keys, r)
	}
	sort.Strings(keys)
	t.Logf("%d functions, %d distinct bitcodes", occurrences, len(functions))
	t.Logf("%8s %11s  %s", "distinct", "occurrences", "verdict")
	for _, r := range keys {
		t.Logf("%8d %11d  %s", byReason[r], byReasonOcc[r], r)
	}
	return byStatus
}

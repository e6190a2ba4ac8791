package stages

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/proc"
	"github.com/airpipe/airpipe/pipeline"
)

// TestTranslateValidatesOnce: two rows whose functions translate to the same
// words (here the same fixture twice, as library variants are) run spirv-val
// once through the stage, the second taking the first's verdict, and both
// name their SPIR-V by its SHA-256; translateModule on its own validates
// every time.
func TestTranslateValidatesOnce(t *testing.T) {
	if err := spirv.Validate(context.Background(), nil); errors.Is(err, spirv.ErrNoValidator) {
		t.Skip(err)
	}
	st := Translate()
	var sums []string
	vals := proc.Tally()["spirv-val"].Runs
	for range 2 {
		m := emuModule(t, filepath.Join("testdata", "emulator", "builtins.ll"))
		m.Function = &mtlb.Function{Name: m.Translation.Entry}
		m.Library = &Library{Source: "x"}
		m.Translation = nil
		r := st.Run(context.Background(), m)
		if r.Status != pipeline.Passed || len(r.Data["spirv_sha256"]) != 64 {
			t.Fatalf("%s %s %v", r.Status, r.Message, r.Data)
		}
		sums = append(sums, r.Data["spirv_sha256"])
	}
	if n := proc.Tally()["spirv-val"].Runs - vals; n != 1 || sums[0] != sums[1] {
		t.Fatalf("%d spirv-val runs for two identical translations (SHA-256 %v)", n, sums)
	}
	m := emuModule(t, filepath.Join("testdata", "emulator", "builtins.ll"))
	m.Function = &mtlb.Function{Name: m.Translation.Entry}
	m.Library = &Library{Source: "x"}
	m.Translation = nil
	vals = proc.Tally()["spirv-val"].Runs
	if r := translateModule(context.Background(), m); r.Status != pipeline.Passed || proc.Tally()["spirv-val"].Runs-vals != 1 {
		t.Fatalf("on its own: %s, %d runs", r.Status, proc.Tally()["spirv-val"].Runs-vals)
	}
}

package stages

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/proc"
	"github.com/airpipe/airpipe/pipeline"
)

// TestSPIRVAnswers: a kept answer is given to every later caller of its
// key (reused), an answer not kept is worked out again, other keys are
// their own, callers arriving during an attempt wait for it and share it,
// and a panicking attempt wakes its waiters, who then work it out.
func TestSPIRVAnswers(t *testing.T) {
	var s spirvAnswers[int]
	runs := 0
	f := func(v int, keep bool) func() (int, bool) {
		return func() (int, bool) { runs++; return v, keep }
	}
	a, b := spirvKey([]byte{1, 2, 3}, "radv"), spirvKey([]byte{1, 2, 3}, "lavapipe")
	if v, reused := s.do(a, f(7, true)); v != 7 || reused {
		t.Fatalf("first: %d %v", v, reused)
	}
	if v, reused := s.do(a, f(8, true)); v != 7 || !reused || runs != 1 {
		t.Fatalf("kept: %d %v after %d runs", v, reused, runs)
	}
	if v, _ := s.do(b, f(9, true)); v != 9 || runs != 2 {
		t.Fatalf("another key: %d after %d runs", v, runs)
	}
	c := spirvKey([]byte{4})
	s.do(c, f(1, false))
	if v, reused := s.do(c, f(2, true)); v != 2 || reused || runs != 4 {
		t.Fatalf("not kept: %d %v after %d runs", v, reused, runs)
	}

	// Concurrent callers of one key: one attempt, every caller its answer.
	var n atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	got := make([]int, 8)
	d := spirvKey([]byte{5})
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = s.do(d, func() (int, bool) { n.Add(1); <-release; return 42, true })
		}()
	}
	close(release)
	wg.Wait()
	for i, v := range got {
		if v != 42 {
			t.Fatalf("caller %d got %d", i, v)
		}
	}
	if n.Load() != 1 {
		t.Fatalf("%d attempts for one key", n.Load())
	}

	// A panic in the attempt: the panic goes on, and the key is free again.
	e := spirvKey([]byte{6})
	func() {
		defer func() { _ = recover() }()
		s.do(e, func() (int, bool) { panic("driver") })
	}()
	if v, reused := s.do(e, f(3, true)); v != 3 || reused {
		t.Fatalf("after a panic: %d %v", v, reused)
	}
}

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

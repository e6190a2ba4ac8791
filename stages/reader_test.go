package stages

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestReaderStopsWithItsContext: the reader stage watches its context, so a
// module whose stage timed out or whose run was interrupted returns at once
// as a timeout / cancellation, with no IR kept; a live context reads it.
func TestReaderStopsWithItsContext(t *testing.T) {
	bc, err := os.ReadFile(filepath.Join("..", "compiler", "bitcode", "testdata", "misc.bc"))
	if err != nil {
		t.Fatal(err)
	}
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	interrupted, stop := context.WithCancel(context.Background())
	stop()
	cases := []struct {
		name   string
		ctx    context.Context
		status pipeline.Status
		code   string
	}{
		{"live", context.Background(), pipeline.Passed, ""},
		{"timed out", expired, pipeline.Failed, string(pipeline.CodeTimeout)},
		{"interrupted", interrupted, pipeline.NotRun, string(pipeline.CodeCancelled)},
	}
	for _, c := range cases {
		m := testModule(bc)
		r := readModule(c.ctx, m, false)
		if r.Status != c.status || string(r.Code) != c.code {
			t.Errorf("%s: %s %s (%s)", c.name, r.Status, r.Code, r.Message)
		}
		if (m.IR != nil) != (c.status == pipeline.Passed) {
			t.Errorf("%s: IR kept %v", c.name, m.IR != nil)
		}
	}
}

// TestReaderMemoryBudget: a module whose estimated cost exceeds the
// budget fails as reader/over-budget, naming its size, without being read;
// within the budget it reads; a budget other than the default changes the
// stage version, so a refusal under one budget is not reused under another.
func TestReaderMemoryBudget(t *testing.T) {
	bc, err := os.ReadFile(filepath.Join("..", "compiler", "bitcode", "testdata", "misc.bc"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		budget int64
		status pipeline.Status
	}{
		{"default", 0, pipeline.Passed},
		{"the estimate exactly", int64(128*len(bc) + 1<<20), pipeline.Passed},
		{"one byte short", int64(128*len(bc)+1<<20) - 1, pipeline.Failed},
	}
	for _, c := range cases {
		st := Reader(false, c.budget)
		m := testModule(bc)
		r := st.Run(context.Background(), m)
		if r.Status != c.status {
			t.Errorf("%s: %s %s (%s)", c.name, r.Status, r.Code, r.Message)
		}
		if c.status == pipeline.Failed && (r.Code != codes.ReaderOverBudget || r.Detail != fmt.Sprintf("%d bytes", len(bc)) || m.IR != nil) {
			t.Errorf("%s: %s %q, IR kept %v", c.name, r.Code, r.Detail, m.IR != nil)
		}
	}
	if Reader(false, 0).Version == Reader(false, 1<<20).Version {
		t.Error("a budget other than the default keeps the stage version")
	}
}

// TestTranslateStopsWithItsContext: the translate stage watches its
// context too — a timed-out module is a timeout, not a verdict; with a live
// context the same module translates.
func TestTranslateStopsWithItsContext(t *testing.T) {
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip("llvm-as-19 not installed")
	}
	m := emuModule(t, filepath.Join("testdata", "emulator", "builtins.ll"))
	m.Function = &mtlb.Function{Name: m.Translation.Entry}
	m.Library = &Library{Source: "x"}
	m.Translation = nil
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if r := translateModule(expired, m); r.Status != pipeline.Failed || r.Code != pipeline.CodeTimeout || m.Translation != nil {
		t.Errorf("timed out: %s %s (%s), translation kept %v", r.Status, r.Code, r.Message, m.Translation != nil)
	}
	if r := translateModule(context.Background(), m); r.Status != pipeline.Passed {
		t.Errorf("live: %s %s (%s)", r.Status, r.Code, r.Message)
	}
}

// TestCaptureWithoutOutputs: a vertex function that returns nothing is not
// drawn (the capture needs outputs); it is unjudged by name, not an
// interface mismatch of the module.
func TestCaptureWithoutOutputs(t *testing.T) {
	ref := &cpuref.Result{Kernel: &cpuref.Kernel{Name: "vs", Stage: "vertex"}}
	cq, r, ok := captureRequestFor(translate.Reflection{}, ref)
	if ok || cq != nil || r.Status != pipeline.Unjudged || r.Code != CodeEmulatorNotImplemented || r.Detail != "vertex function without outputs" {
		t.Errorf("got %v %+v %v", cq, r, ok)
	}
	ref.Kernel.Outputs = []cpuref.VertexOutput{{Role: "air.position", Name: "pos"}}
	if _, r, ok := captureRequestFor(translate.Reflection{}, ref); !ok {
		t.Errorf("a vertex function with a position output: %+v", r)
	}
}

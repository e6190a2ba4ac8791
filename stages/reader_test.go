package stages

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

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

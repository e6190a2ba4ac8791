package stages

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

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

package pipeline

import (
	"context"
	"testing"
	"time"
)

// TestStopped: a stage that stops because its deadline passed reports the
// engine's timeout failure; one stopped by an interrupted run is not run,
// cancelled — never a pass, never cached.
func TestStopped(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	interrupted, stop := context.WithCancel(context.Background())
	stop()
	cases := []struct {
		name   string
		ctx    context.Context
		status Status
		code   string
	}{
		{"timeout", expired, Failed, string(CodeTimeout)},
		{"interrupted", interrupted, NotRun, string(CodeCancelled)},
	}
	for _, c := range cases {
		r := Stopped(c.ctx, "reader")
		if r.Status != c.status || string(r.Code) != c.code || r.Detail != "reader" {
			t.Errorf("%s: %+v", c.name, r)
		}
		if cacheable([]Result{r}) {
			t.Errorf("%s: a stopped result is cacheable", c.name)
		}
	}
}

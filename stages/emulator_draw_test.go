package stages

import (
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/pipeline"
)

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

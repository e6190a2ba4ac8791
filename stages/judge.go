package stages

import (
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/pipeline"
)

// compare judges the device's outputs against the reference's
// (judge.Compare).
func compare(ref *cpuref.Result, got map[int][]byte) pipeline.Result {
	return judged(judge.Compare(ref, got))
}

// contractionOnly is judge.ContractionOnly as a stage result.
func contractionOnly(unfused, fused *cpuref.Result, got map[int][]byte) (pipeline.Result, bool) {
	v, ok := judge.ContractionOnly(unfused, fused, got)
	if !ok {
		return pipeline.Result{}, false
	}
	return judged(v), true
}

// judged maps a judge's verdict to the stage's result.
func judged(v judge.Verdict) pipeline.Result {
	var r pipeline.Result
	switch v.Status {
	case judge.Passed:
		r = pipeline.Pass()
	case judge.Failed:
		r = pipeline.Fail(v.Code, v.Detail, v.Message)
	default:
		r = pipeline.UnjudgedBecause(v.Message)
		r.Code, r.Detail = v.Code, v.Detail
	}
	r.Data = v.Data
	return r
}

func word(b []byte, w int) uint32 { return judge.Word(b, w) }

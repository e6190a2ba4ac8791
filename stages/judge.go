package stages

import (
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/pipeline"
)

// judged maps a judge's or the device harness's verdict to the stage's
// result.
func judged(v judge.Verdict) pipeline.Result {
	var r pipeline.Result
	switch v.Status {
	case judge.Passed:
		r = pipeline.Pass()
	case judge.Failed:
		r = pipeline.Fail(v.Code, v.Detail, v.Message)
	case judge.Unavailable:
		r = pipeline.Result{Status: pipeline.Unavailable, Code: v.Code, Detail: v.Detail, Message: v.Message}
	default:
		r = pipeline.UnjudgedBecause(v.Message)
		r.Code, r.Detail = v.Code, v.Detail
	}
	r.Data = v.Data
	return r
}

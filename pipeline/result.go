// Package pipeline is airpipe's generic engine: an ordered list of stages,
// each with its own bounded worker pool, carrying items from a source through
// the stages to a single-owner sink. It knows nothing about Metal, LLVM or
// SPIR-V: it sees items, stage results and failure codes.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/airpipe/airpipe/internal/codes"
)

// Status is the outcome of one stage for one item.
type Status string

// The six outcomes a stage can have for an item (ARCHITECTURE.md §3).
const (
	// Passed means the stage ran and its check agreed.
	Passed Status = "passed"
	// Failed means the stage ran and found a problem; Code says which.
	Failed Status = "failed"
	// Unjudged means the stage ran but nothing could judge its output.
	Unjudged Status = "unjudged"
	// Unavailable means the tool or device the stage needs is absent here.
	Unavailable Status = "unavailable"
	// NotRun means an earlier stage stopped the item.
	NotRun Status = "not-run"
	// Skipped means the user excluded the stage.
	Skipped Status = "skipped"
)

// Continues reports whether an item with this status goes on to the next
// stage: a pass does, and so does a stage the user excluded (later stages
// that need its output fail by name). Anything else stops the module.
// "Reached" still means an unbroken run of passes: a skipped stage ends it.
func (s Status) Continues() bool { return s == Passed || s == Skipped }

// Generic failure codes the engine itself produces. Domain codes are defined
// by the stages package; all codes are append-only and documented in
// docs/codes.md.
const (
	// CodeCrash is a panic inside a stage; Detail holds a stack hash.
	CodeCrash = codes.Crash
	// CodeTimeout is a stage that ran past its per-item timeout.
	CodeTimeout = codes.Timeout
	// CodeCancelled is an item whose stage was interrupted by the user.
	CodeCancelled = codes.Cancelled
)

// Finding is one missing feature: a stable code and a detail naming the
// missing thing (an intrinsic, a record, a metadata key).
type Finding struct {
	Code   codes.Code `json:"code"`
	Detail string     `json:"detail"`
}

// Result is what one stage says about one item.
type Result struct {
	Stage   string     `json:"stage"`
	Status  Status     `json:"status"`
	Code    codes.Code `json:"code,omitempty"`
	Detail  string     `json:"detail,omitempty"`
	Message string     `json:"message,omitempty"`
	// Missing lists every missing feature found, not only the first.
	Missing []Finding `json:"missing,omitempty"`
	// Features is the item's feature inventory as this stage saw it.
	Features []string `json:"features,omitempty"`
	// Data holds stage-specific facts (ISA statistics, tool words) that
	// belong in the results row.
	Data     map[string]string `json:"data,omitempty"`
	Duration time.Duration     `json:"duration"`
}

// Pass returns a passed result.
func Pass() Result { return Result{Status: Passed} }

// Fail returns a failed result with a stable code, a detail naming the
// missing or broken thing, and a human message.
func Fail(code codes.Code, detail, message string) Result {
	return Result{Status: Failed, Code: code, Detail: detail, Message: message}
}

// Unavailablef returns an unavailable result carrying the reason, formatted
// as fmt.Sprintf does.
func Unavailablef(format string, args ...any) Result {
	return Result{Status: Unavailable, Message: fmt.Sprintf(format, args...)}
}

// UnjudgedBecause returns an unjudged result carrying the reason.
func UnjudgedBecause(reason string) Result {
	return Result{Status: Unjudged, Message: reason}
}

// Stopped is the result of a stage whose work ended early because its
// context ended: a timeout (the stage's deadline passed) fails with
// CodeTimeout, anything else is an interrupted run (not run, CodeCancelled),
// as the engine itself reports them. Stages whose in-process work watches
// its context return it, so a timed-out module frees what it held.
func Stopped(ctx context.Context, stage string) Result {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return Fail(CodeTimeout, stage, "stage "+stage+" ran past its timeout")
	}
	return Result{Status: NotRun, Code: CodeCancelled, Detail: stage, Message: "run interrupted during this stage"}
}

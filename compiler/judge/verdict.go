// Package judge compares what a device left in a function's outputs with
// the CPU reference's (compiler/cpuref): word by word, each as its element
// type, within the ULP bound of order-only operations, with the
// contraction and fast-math cases that no reference can fix set apart; and
// digests outputs so two devices' can be compared without the bytes.
package judge

import (
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/codes"
)

// Status is a verdict's outcome.
type Status uint8

const (
	// Passed: the outputs agree with the reference.
	Passed Status = iota
	// Failed: a word differs (Code, Detail name it).
	Failed
	// Unjudged: nothing could judge the outputs; Message says why.
	Unjudged
	// Unavailable: the device or a tool the run needs is not here (the
	// device lacks a feature the SPIR-V needs, no device opens); Message
	// says why. Comparisons never return it; the device harness does
	// (device/harness).
	Unavailable
)

// Verdict is a comparison's outcome, as the emulator and device stages
// report it: a code and detail (the first differing word), a message, and
// data about what was compared.
type Verdict struct {
	Status  Status
	Code    codes.Code
	Detail  string
	Message string
	Data    map[string]string
	// Against, when set, is the reference other than the first that the
	// outputs passed against (a fused or denormal-keeping one,
	// device/harness): what a row says of the reference's approximate calls
	// is that reference's.
	Against *cpuref.Result
}

func fail(code codes.Code, detail, message string) Verdict {
	return Verdict{Status: Failed, Code: code, Detail: detail, Message: message}
}

func unjudgedBecause(reason string) Verdict { return Verdict{Status: Unjudged, Message: reason} }

// String names the status as pipeline.Status does.
func (s Status) String() string {
	switch s {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case Unavailable:
		return "unavailable"
	}
	return "unjudged"
}

package harness

import (
	"context"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/internal/codes"
)

// Judge compares what the device left (got) with the reference
// (judge.Compare). A mismatch of a module whose AIR permits fusing
// multiply-adds is judged against the reference built with them fused
// (Reference, fuse set): equal bit for bit is a pass (the device computed
// the other permitted answer, which the data says); otherwise the first
// mismatch stands, with what the fused reference said — unless every word
// that differs from both references is one where the references differ
// from each other (judge.ContractionOnly). The verdict's Data is never nil.
func (h *Harness) Judge(ctx context.Context, m Module, ref *cpuref.Result, got map[int][]byte) judge.Verdict {
	return h.JudgeIn(ctx, m, ref, got, Mode{})
}

// JudgeIn is Judge of a reference built in mode (its fused reference is
// built in the same mode).
func (h *Harness) JudgeIn(ctx context.Context, m Module, ref *cpuref.Result, got map[int][]byte, mode Mode) judge.Verdict {
	r := judge.Compare(ref, got)
	if r.Data == nil {
		r.Data = map[string]string{}
	}
	if r.Code != codes.EmulatorMismatch || !ref.ContractAllowed {
		return r
	}
	mode.Fuse = true
	fused, err := h.ReferenceIn(ctx, m, mode)
	if err != nil {
		r.Data["fused_reference"] = "none: " + err.Error()
		return r
	}
	fr := judge.Compare(fused, got)
	if fr.Status != judge.Passed {
		if c, ok := judge.ContractionOnly(ref, fused, got); ok {
			return c
		}
		r.Data["fused_reference"] = "differs too: " + fr.Detail
		return r
	}
	if fr.Data == nil {
		fr.Data = map[string]string{}
	}
	fr.Data["reference"] = "fused multiply-add (the AIR permits contraction; the unfused reference differs at " + r.Detail + ")"
	return fr
}

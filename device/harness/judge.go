package harness

import (
	"context"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/internal/codes"
)

// Judge compares what the device left (got) with the reference
// (judge.Compare). A mismatch is judged against the other references the
// AIR permits, built on the same inputs: with multiply-adds fused where it
// permits contraction (Reference, fuse set), and with float denormals kept
// where the module disables them (MSL §8.5 lets a GPU flush them or keep
// them; the reference flushes), fused too where both apply. Equal bit for
// bit to one of them is a pass (the device computed another permitted
// answer, which the data says); otherwise the first mismatch stands, with
// what each other reference said — unless every word that differs from all
// of them is one where they differ from each other (judge.ContractionOnly,
// judge.PermittedOnly). The verdict's Data is never nil.
func (h *Harness) Judge(ctx context.Context, m Module, ref *cpuref.Result, got map[int][]byte) judge.Verdict {
	return h.JudgeIn(ctx, m, ref, got, Mode{})
}

// JudgeIn is Judge of a reference built in mode (its other references are
// built in the same mode; the denormal-keeping ones on the reference's input
// family).
func (h *Harness) JudgeIn(ctx context.Context, m Module, ref *cpuref.Result, got map[int][]byte, mode Mode) judge.Verdict {
	r := judge.Compare(ref, got)
	if r.Data == nil {
		r.Data = map[string]string{}
	}
	if r.Code != codes.EmulatorMismatch {
		return r
	}
	refs := []*cpuref.Result{ref}
	var fused *cpuref.Result
	if ref.ContractAllowed {
		fm := mode
		fm.Fuse = true
		f, err := h.ReferenceIn(ctx, m, fm)
		if err != nil {
			r.Data["fused_reference"] = "none: " + err.Error()
		} else {
			fr := judge.Compare(f, got)
			if fr.Status == judge.Passed {
				return otherReference(fr, f, "fused multiply-add (the AIR permits contraction; the unfused reference differs at "+r.Detail+")")
			}
			r.Data["fused_reference"] = "differs too: " + fr.Detail
			fused = f
			refs = append(refs, f)
		}
	}
	if ref.Kernel != nil && ref.Kernel.DenormsDisabled && !ref.DenormalsPreserved {
		fuses := []bool{false}
		if fused != nil {
			fuses = append(fuses, true)
		}
		for _, fuse := range fuses {
			pm := mode
			pm.Fuse, pm.PreserveDenormals = fuse, true
			if pm.InputFamily == "" {
				// On the inputs the device was given, whatever the
				// family search would choose with denormals kept.
				pm.InputFamily = ref.InputFamily
			}
			p, err := h.ReferenceIn(ctx, m, pm)
			if err != nil {
				r.Data["denormal_reference"] = "none: " + err.Error()
				break
			}
			pr := judge.Compare(p, got)
			if pr.Status == judge.Passed {
				how := "denormals kept"
				if fuse {
					how += ", fused multiply-add"
				}
				return otherReference(pr, p, how+" (the module disables denormals, which MSL §8.5 lets a GPU flush or keep; the flushing reference differs at "+r.Detail+")")
			}
			r.Data["denormal_reference"] = "differs too: " + pr.Detail
			refs = append(refs, p)
		}
	}
	switch {
	case len(refs) > 2 || len(refs) == 2 && fused == nil:
		if v, ok := judge.PermittedOnly(refs, got); ok {
			return v
		}
	case fused != nil:
		if c, ok := judge.ContractionOnly(ref, fused, got); ok {
			return c
		}
	}
	return r
}

// otherReference is the pass against ref, a reference other than the
// first, saying which (data reference, Verdict.Against).
func otherReference(v judge.Verdict, ref *cpuref.Result, which string) judge.Verdict {
	if v.Data == nil {
		v.Data = map[string]string{}
	}
	v.Data["reference"] = which
	v.Against = ref
	return v
}

package judge

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/codes"
)

// PermittedOnly judges an output that matches none of refs as a whole:
// refs are the reference and the other references the AIR permits —
// multiply-adds fused where it allows contraction (Result.Fused), float
// denormals kept where the module disables them, which MSL §8.5 lets a GPU
// flush or keep (Result.DenormalsPreserved) — all on the same inputs. A
// word where they all agree is fixed whatever the GPU chose: a device word
// that differs there is a mismatch, and PermittedOnly returns false so that
// the mismatch stands. A word where they differ depends on those choices,
// which Metal leaves to the compiler and the GPU operation by operation, so
// a value none of them computed (some operations flushing, others not) is
// as legal as theirs. When every word the device got wrong is such a word
// the output is unjudged, never passed: codes.EmulatorDenormalDependent when
// some of them differ between a flushing and a denormal-keeping reference,
// codes.EmulatorContractionDependent when only contraction moves them.
func PermittedOnly(refs []*cpuref.Result, got map[int][]byte) (Verdict, bool) {
	if len(refs) < 2 {
		return Verdict{}, false
	}
	base := refs[0]
	for _, r := range refs[1:] {
		if len(r.Outputs) != len(base.Outputs) {
			return Verdict{}, false
		}
	}
	// Pairs of references differing in one choice only.
	var denormalPairs, contractionPairs [][2]int
	for i := range refs {
		for j := i + 1; j < len(refs); j++ {
			a, b := refs[i], refs[j]
			switch {
			case a.Fused == b.Fused && a.DenormalsPreserved != b.DenormalsPreserved:
				denormalPairs = append(denormalPairs, [2]int{i, j})
			case a.Fused != b.Fused && a.DenormalsPreserved == b.DenormalsPreserved:
				contractionPairs = append(contractionPairs, [2]int{i, j})
			}
		}
	}
	tol := toleranceFor(base)
	// accepted reports whether the device's word b passes against a
	// reference's a as Compare would take it (order-only operations' ULP
	// bound, a flushed denormal, a fast-math NaN or infinity).
	accepted := func(k wordKind, a, b uint32) bool {
		switch {
		case k.sameValue(a, b):
			return true
		case k == wordFloat && tol.accepts(a, b):
			return true
		case (k == wordHalf || k == wordBFloat) && tol.acceptsLanes(k, a, b):
			return true
		case k == wordFloat && base.Kernel.DenormsDisabled && flushedDenormal(a, b):
			return true
		}
		return base.Kernel.NoNaNsOrInfs && k.nonFiniteDiffer(a, b)
	}
	denormalSensitive, contractionSensitive, denormalWords, contractionWords := 0, 0, 0, 0
	first, firstWord := "", ""
	words := make([]uint32, len(refs))
	for o, want := range base.Outputs {
		have, ok := got[want.Index]
		if !ok {
			return Verdict{}, false
		}
		for _, r := range refs[1:] {
			if r.Outputs[o].Index != want.Index || len(r.Outputs[o].Bytes) != len(want.Bytes) {
				return Verdict{}, false
			}
		}
		kinds := kindsOf(base.Kernel, want.Index)
		for w := 0; w*4 < len(want.Bytes); w++ {
			kind := kinds.at(w)
			same := kind.sameValue
			b := Word(have, w)
			matched, fixed := false, true
			for i, r := range refs {
				words[i] = Word(r.Outputs[o].Bytes, w)
				matched = matched || accepted(kind, words[i], b)
				fixed = fixed && same(words[i], words[0])
			}
			differs := func(pairs [][2]int) bool {
				for _, p := range pairs {
					if !same(words[p[0]], words[p[1]]) {
						return true
					}
				}
				return false
			}
			byDenormals, byContraction := differs(denormalPairs), differs(contractionPairs)
			if byDenormals {
				denormalSensitive++
			}
			if byContraction {
				contractionSensitive++
			}
			switch {
			case matched:
				continue
			case fixed:
				return Verdict{}, false
			case byDenormals:
				denormalWords++
			default:
				contractionWords++
			}
			if first == "" {
				firstWord = WordName(base, want.Index, w)
				var each []string
				for i, r := range refs {
					each = append(each, referenceName(r)+" "+Show(words[i]))
				}
				first = fmt.Sprintf("%s: %s, got %s", firstWord, strings.Join(each, ", "), Show(b))
			}
		}
	}
	unjudged := denormalWords + contractionWords
	if unjudged == 0 {
		return Verdict{}, false
	}
	r := unjudgedBecause(fmt.Sprintf("%d words differ from all %d references, all where the references differ from each other (%d where keeping or flushing denormals moves them, %d where only contraction does): Metal lets a GPU flush a float denormal argument or result or keep it (MSL §8.5) and, where the AIR permits, contract each multiply-add, operation by operation, so no reference fixes them; first %s", unjudged, len(refs), denormalWords, contractionWords, first))
	r.Code, r.Detail = codes.EmulatorContractionDependent, firstWord
	if denormalWords > 0 {
		r.Code = codes.EmulatorDenormalDependent
	}
	r.Data = map[string]string{
		"denormal_words": strconv.Itoa(denormalWords), "denormal_sensitive_words": strconv.Itoa(denormalSensitive),
		"contraction_words": strconv.Itoa(contractionWords), "contraction_sensitive_words": strconv.Itoa(contractionSensitive),
	}
	return r, true
}

// referenceName says how a reference was computed, for messages.
func referenceName(r *cpuref.Result) string {
	name := "unfused"
	if r.Fused {
		name = "fused"
	}
	if r.Kernel != nil && r.Kernel.DenormsDisabled {
		if r.DenormalsPreserved {
			name += " denormals-kept"
		} else {
			name += " denormals-flushed"
		}
	}
	return name
}

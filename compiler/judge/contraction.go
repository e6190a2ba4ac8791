package judge

import (
	"fmt"
	"strconv"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/codes"
)

// ContractionOnly judges an output that matches neither the unfused nor the
// fused reference as a whole. A word where the two references agree is
// fixed whatever the compiler contracts: a device word that differs there is
// a mismatch, and ContractionOnly returns false so that the mismatch stands.
// A word where they differ depends on which multiply-adds were fused, which
// fast math lets a compiler choose op by op, so a third value (some fused,
// some not) is as legal as either reference's. When every differing word is
// such a word the module is unjudged (codes.EmulatorContractionDependent), never passed:
// nothing could judge those words.
func ContractionOnly(unfused, fused *cpuref.Result, got map[int][]byte) (Verdict, bool) {
	if len(unfused.Outputs) != len(fused.Outputs) {
		return Verdict{}, false
	}
	sensitive, unjudged := 0, 0
	first, firstWord := "", ""
	for i, want := range unfused.Outputs {
		alt := fused.Outputs[i]
		have, ok := got[want.Index]
		if alt.Index != want.Index || len(alt.Bytes) != len(want.Bytes) || !ok {
			return Verdict{}, false
		}
		kinds := kindsOf(unfused.Kernel, want.Index)
		for w := 0; w*4 < len(want.Bytes); w++ {
			a, f, b := Word(want.Bytes, w), Word(alt.Bytes, w), Word(have, w)
			same := kinds.at(w).sameValue
			if !same(a, f) {
				sensitive++
			}
			if same(a, b) || same(f, b) {
				continue
			}
			if same(a, f) {
				return Verdict{}, false
			}
			unjudged++
			if first == "" {
				firstWord = WordName(unfused, want.Index, w)
				first = fmt.Sprintf("%s: unfused %s, fused %s, got %s", firstWord, Show(a), Show(f), Show(b))
			}
		}
	}
	if unjudged == 0 {
		return Verdict{}, false
	}
	r := unjudgedBecause(fmt.Sprintf("%d words differ from both references, all where the references differ from each other (%d such words): the AIR lets the compiler contract each multiply-add or not, so no reference fixes them; first %s", unjudged, sensitive, first))
	r.Code, r.Detail = codes.EmulatorContractionDependent, firstWord
	r.Data = map[string]string{"contraction_words": strconv.Itoa(unjudged), "contraction_sensitive_words": strconv.Itoa(sensitive)}
	return r, true
}

package cpuref

import (
	"regexp"
	"strings"
)

// A SIMD-group function is a rendezvous of the simdgroup's lanes (simd.go)
// only where the program reads what it returns. Two kinds of call read
// nothing, and the reference removes them (unreadSIMDCalls) instead:
//
//   - An air.is_uniform whose only use is llvm.assume is an assumption, not
//     a question: it is how Apple's compiler writes a value the source
//     promises is the same in every lane (the Metal Shading Language's
//     uniform<T>; a loop bound it proved uniform), and a promise broken is
//     undefined. AIR declares air.is_uniform memory(none) and not
//     convergent, so a compiler may move or delete the call. The assumption
//     is not checked: llc drops llvm.assume, so with the call in place the
//     outputs would be the same.
//   - A call whose result nothing uses (a shuffle, a reduction, a ballot):
//     it has no effect but its result.
//
// As a rendezvous, either would set aside as SIMD-group divergence a
// kernel that makes the call inside a branch only some lanes take (a
// bounds check before a loop whose trip count is uniform). A call whose
// result is used (a branch, a select, a store, an operand) stays a
// rendezvous, and so does every call that returns nothing
// (simdgroup_barrier, a simdgroup matrix store).

// resultCall matches a call line that names its result, capturing the
// result and the callee.
var resultCall = regexp.MustCompile(`^  (%[-\w.$]+|%"[^"]*") = (?:tail |notail )?call [^@]*@(air\.[\w.]+)\(`)

// assumeCall matches an llvm.assume of one value and nothing else (no
// operand bundle), capturing the value.
var assumeCall = regexp.MustCompile(`^  (?:tail |notail )?call void @llvm\.assume\(i1 (%[-\w.$]+|%"[^"]*")\)(?: #\d+)?(?:, !dbg !\d+)?$`)

// unreadSIMDCalls returns the indices of t's lines that call a SIMD-group
// function whose result nothing reads but llvm.assume, and of those
// assumes.
func unreadSIMDCalls(t *textModule) map[int]bool {
	var lines map[int]bool
	start := -1
	for i, l := range t.lines {
		switch {
		case strings.HasPrefix(l, "define "):
			start = i
		case l == "}" && start >= 0:
			for _, n := range functionUnread(t.lines[start+1 : i]) {
				if lines == nil {
					lines = map[int]bool{}
				}
				lines[start+1+n] = true
			}
			start = -1
		}
	}
	return lines
}

// readsNothing reports whether a call of n whose result is unread may go:
// a SIMD-group function that returns a value.
func readsNothing(n string) bool {
	return isSIMDName(n) && n != "air.simdgroup.barrier"
}

// discardsValue reports whether l is a call line of a function readsNothing
// allows whose value it does not name.
func discardsValue(l string) bool {
	rest, ok := strings.CutPrefix(l, "  ")
	if !ok {
		return false
	}
	for _, p := range []string{"tail ", "notail "} {
		rest = strings.TrimPrefix(rest, p)
	}
	rest, ok = strings.CutPrefix(rest, "call ")
	at := strings.Index(rest, "@air.")
	if !ok || at < 0 || strings.Contains(" "+rest[:at], " void ") {
		return false
	}
	m := simdCall.FindStringSubmatch(rest[at:])
	return m != nil && readsNothing(m[1])
}

// functionUnread is unreadSIMDCalls over one function's body, by line index
// within it.
func functionUnread(body []string) []int {
	var out []int
	calls := map[string]int{} // result name → its call's line
	for i, l := range body {
		if !strings.Contains(l, "@air.") {
			continue
		}
		if m := resultCall.FindStringSubmatch(l); m != nil {
			if readsNothing(m[2]) {
				calls[m[1]] = i
			}
		} else if discardsValue(l) {
			out = append(out, i)
		}
	}
	if len(calls) == 0 {
		return out
	}
	assumes := map[string][]int{}
	for i, l := range body {
		if m := assumeCall.FindStringSubmatch(l); m != nil {
			if _, ok := calls[m[1]]; ok {
				assumes[m[1]] = append(assumes[m[1]], i)
				continue
			}
		}
		for name, at := range calls {
			if i != at && wordIndex(l, name) >= 0 {
				delete(calls, name)
			}
		}
	}
	for name, at := range calls {
		out = append(out, at)
		out = append(out, assumes[name]...)
	}
	return out
}

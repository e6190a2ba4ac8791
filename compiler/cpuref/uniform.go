package cpuref

import (
	"regexp"
	"strings"
)

// An air.is_uniform call whose only use is llvm.assume is an assumption,
// not a question: it is how Apple's compiler writes a value the source
// promises is the same in every lane of the SIMD-group (the Metal Shading
// Language's uniform<T>; a loop bound it proved uniform), and a promise
// broken is undefined. AIR declares air.is_uniform memory(none) and not
// convergent, so a compiler may move or delete the call. It computes
// nothing the program reads, so the reference removes it with its assumes
// (uniformPromises) instead of making it a rendezvous of the simdgroup's
// lanes, which would set aside as SIMD-group divergence a kernel that
// makes the assumption inside a branch only some lanes take (a bounds check
// before a loop whose trip count is uniform). The assumption itself is not
// checked: llc drops llvm.assume, so with the call in place the outputs
// would be the same. An is_uniform whose result is used otherwise (a
// branch, a select, a store) stays a rendezvous.

// uniformCall matches a call line of air.is_uniform, capturing its result.
var uniformCall = regexp.MustCompile(`^  (%[-\w.$]+|%"[^"]*") = (?:tail |notail )?call i1 @air\.is_uniform\.[\w.]+\(`)

// assumeCall matches an llvm.assume of one value and nothing else (no
// operand bundle), capturing the value.
var assumeCall = regexp.MustCompile(`^  (?:tail |notail )?call void @llvm\.assume\(i1 (%[-\w.$]+|%"[^"]*")\)(?: #\d+)?(?:, !dbg !\d+)?$`)

// uniformPromises returns the indices of t's lines that only make a
// uniform<T> promise: air.is_uniform calls whose every use is an
// llvm.assume, and those assumes.
func uniformPromises(t *textModule) map[int]bool {
	var lines map[int]bool
	start := -1
	for i, l := range t.lines {
		switch {
		case strings.HasPrefix(l, "define "):
			start = i
		case l == "}" && start >= 0:
			for _, n := range functionPromises(t.lines[start+1 : i]) {
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

// functionPromises is uniformPromises over one function's body, by line
// index within it.
func functionPromises(body []string) []int {
	calls := map[string]int{} // result name → its call's line
	for i, l := range body {
		if strings.Contains(l, "@air.is_uniform.") {
			if m := uniformCall.FindStringSubmatch(l); m != nil {
				calls[m[1]] = i
			}
		}
	}
	if len(calls) == 0 {
		return nil
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
			if i != at && usesValue(l, name) {
				delete(calls, name)
			}
		}
	}
	var out []int
	for name, at := range calls {
		out = append(out, at)
		out = append(out, assumes[name]...)
	}
	return out
}

// usesValue reports whether line l names the local value name (a whole
// name: %4 is not a use of %45).
func usesValue(l, name string) bool {
	for from := 0; ; {
		i := strings.Index(l[from:], name)
		if i < 0 {
			return false
		}
		end := from + i + len(name)
		if name[len(name)-1] == '"' || end == len(l) || !isNameByte(l[end]) {
			return true
		}
		from = end
	}
}

// isNameByte reports whether c may continue an unquoted LLVM local name.
func isNameByte(c byte) bool {
	return isWordByte(c) || c == '-' || c == '.' || c == '$'
}

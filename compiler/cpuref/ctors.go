package cpuref

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A host module's constructors (llvm.global_ctors: the module's static
// initializer, the predicate check, staticinit.go) are given to llc-19 as
// what it makes of them: for each priority, an array of the functions, in
// the list's order, in section .init_array (priority 65535) or
// .init_array.PRIORITY — llc's own sections, which the linker orders by
// priority and the loader runs in that order. Written out, they compile to
// the same sections whatever the target machine's choice between
// .init_array and .ctors: llc-19 chooses .init_array, LLVM's C API
// (compiler/libllvm) .ctors, so a module keeping llvm.global_ctors is
// compiled by llc-19 itself.

// ctorList matches a host module's llvm.global_ctors line: its element
// count and elements.
var ctorList = regexp.MustCompile(`^@llvm\.global_ctors = appending global \[([0-9]+) x \{ i32, ptr, ptr \}\] \[(.*)\]$`)

// emptyCtorList is a list without constructors.
const emptyCtorList = "@llvm.global_ctors = appending global [0 x { i32, ptr, ptr }] zeroinitializer"

// ctorEntryForm matches one constructor without associated data.
var ctorEntryForm = regexp.MustCompile(`\{ i32, ptr, ptr \} \{ i32 ([0-9]+), ptr (@(?:"[^"]*"|[-a-zA-Z$._0-9]+)), ptr null \}`)

// withInitArrays is host with its llvm.global_ctors line replaced by the
// .init_array arrays llc-19 would emit for it (none for an empty list);
// host unchanged when it has none or one of another form.
func withInitArrays(host string) string {
	lines := strings.Split(host, "\n")
	for i, l := range lines {
		if l == emptyCtorList {
			// llc emits nothing for it.
			return strings.Join(append(lines[:i:i], lines[i+1:]...), "\n")
		}
		m := ctorList.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		entries := ctorEntryForm.FindAllStringSubmatch(m[2], -1)
		var whole []string
		byPriority := map[int][]string{}
		for _, e := range entries {
			whole = append(whole, e[0])
			p, err := strconv.Atoi(e[1])
			if err != nil || p > 65535 {
				return host
			}
			byPriority[p] = append(byPriority[p], "ptr "+e[2])
		}
		if n, _ := strconv.Atoi(m[1]); n != len(entries) || strings.Join(whole, ", ") != m[2] {
			return host
		}
		var priorities []int
		for p := range byPriority {
			priorities = append(priorities, p)
		}
		sort.Ints(priorities)
		var arrays []string
		for _, p := range priorities {
			section, suffix := ".init_array", ""
			if p != 65535 {
				suffix = "." + strconv.Itoa(p)
				section += suffix
			}
			fns := byPriority[p]
			arrays = append(arrays, fmt.Sprintf("@airpipe_init_array%s = internal global [%d x ptr] [%s], section %q, align 8", suffix, len(fns), strings.Join(fns, ", "), section))
		}
		lines[i] = strings.Join(arrays, "\n")
		return strings.Join(lines, "\n")
	}
	return host
}

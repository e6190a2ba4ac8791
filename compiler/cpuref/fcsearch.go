package cpuref

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Function-constant search. The contract (FunctionConstantWord) makes every
// bool function constant true. Metal lets several conditional arguments
// share one slot when their predicates exclude each other, and programs
// often derive those predicates from bools that only one at a time is meant
// to set (ANGLE's kSourceIndexIsU8, …U16, …U32): under the contract they
// all hold, two arguments exist on one slot, and no specialization the app
// could create is judged. The reference then searches, on the AIR alone and
// before anything runs, for the assignment nearest the contract that
// leaves no slot with two present arguments:
//
//  1. The contract's values are tried first; without a conflict they stand.
//  2. The varied constants are the bool function constants the static
//     initializer reads (following its values, syntactically, through
//     loads, stores and operations) to compute the predicates of the
//     conditional arguments on a slot that more than one argument of the
//     entry point declares; sorted by index. At most maxSearchedBools.
//  3. Candidates turn some of them false and leave every other constant at
//     the contract's value: one false first, then two, … up to all, and
//     among those that turn k false, lowest indices first
//     (lexicographically by index: {0}, {1}, {2}, {0,1}, {0,2}, {1,2}, …).
//  4. Each candidate's predicates are evaluated again from the static
//     initializer (staticinit.go); the first that evaluates every predicate
//     and leaves no two present arguments on one slot is kept.
//
// The kept values are the Kernel.FunctionConstants words: the host module's
// function-constant globals hold them (so its predicate check tests the
// evaluation under them), and the device is specialized with exactly those
// words. Kernel.FunctionConstantSearch names the assignment. One
// specialization is judged, not every one. When no candidate works, the
// shared-slot refusal stands, saying how many were tried.

// maxSearchedBools bounds the bool constants the search varies (2^10
// candidates at most).
const maxSearchedBools = 10

// sharedSlotDetail begins the Detail of sharedIndex's refusal: two present
// arguments on one slot, which the search tries to remove.
const sharedSlotDetail = "air.function_constant arguments sharing "

// sharedSlot reports whether err is sharedIndex's refusal.
func sharedSlot(err error) bool {
	var nj *NotJudgeableError
	return errors.As(err, &nj) && nj.Kind == KindFunctionConstant && strings.HasPrefix(nj.Detail, sharedSlotDetail)
}

// resolveConditionalSearch is resolveConditional under the first
// assignment of the search above: the contract's, or the nearest one that
// leaves no slot with two present arguments. It leaves t.fcWords holding
// the kept assignment (nil: the contract's) and returns, beside the
// conditional arguments, the assignment's description ("" for the
// contract's).
func resolveConditionalSearch(t *textModule, entry string, node []string) ([]ConditionalArgument, string, error) {
	saved := saveEntryNodes(t, node)
	base := t.fcWords // the integer search's candidate (fcintsearch.go), if any
	conds, err := resolveConditional(t, entry, node)
	if !sharedSlot(err) {
		return conds, "", err
	}
	restoreEntryNodes(t, saved)
	fail := func(why string) ([]ConditionalArgument, string, error) {
		restoreEntryNodes(t, saved)
		t.fcWords = base
		var nj *NotJudgeableError
		errors.As(err, &nj)
		return nil, "", &NotJudgeableError{Kind: nj.Kind, Detail: nj.Detail, Reason: nj.Reason + " under the contract's values (" + why + ")", SIMD: nj.SIMD}
	}
	fcs, ferr := readFunctionConstants(t)
	if ferr != nil {
		return fail("the function constants cannot be read")
	}
	reads := initializerReads(t, contestedPredicates(t, node))
	var bools []FunctionConstant
	for _, fc := range fcs {
		if fc.Type == "bool" && reads[fc.Global] {
			bools = append(bools, fc.FunctionConstant)
		}
	}
	switch {
	case len(bools) == 0:
		return fail("their predicates read no bool function constant to vary")
	case len(bools) > maxSearchedBools:
		return fail(fmt.Sprintf("their predicates read %d bool function constants, more than the %d the search varies", len(bools), maxSearchedBools))
	}
	tried := 1
	for _, off := range falseSubsets(len(bools)) {
		tried++
		words := map[int]uint32{}
		for i, w := range base {
			words[i] = w
		}
		for _, i := range off {
			words[bools[i].Index] = 0
		}
		t.fcWords = words
		conds, cerr := resolveConditional(t, entry, node)
		if cerr == nil {
			return conds, describeAssignment(bools, off, tried), nil
		}
		restoreEntryNodes(t, saved)
	}
	return fail(fmt.Sprintf("no assignment of %s removes the conflict: %d tried", boolNames(bools), tried))
}

// falseSubsets lists the subsets of {0 … n−1} the search turns false, in
// its order: by size, then lexicographically.
func falseSubsets(n int) [][]int {
	var out [][]int
	for k := 1; k <= n; k++ {
		c := make([]int, k)
		for i := range c {
			c[i] = i
		}
		for {
			out = append(out, append([]int(nil), c...))
			i := k - 1
			for i >= 0 && c[i] == n-k+i {
				i--
			}
			if i < 0 {
				break
			}
			c[i]++
			for j := i + 1; j < k; j++ {
				c[j] = c[j-1] + 1
			}
		}
	}
	return out
}

// describeAssignment is Kernel.FunctionConstantSearch for the candidate
// that turns bools[off…] false.
func describeAssignment(bools []FunctionConstant, off []int, tried int) string {
	var set []string
	for _, i := range off {
		set = append(set, bools[i].Name+"=false")
	}
	return fmt.Sprintf("%s, the rest as the contract (assignment %d tried, nearest the contract over %s: the contract's values put two present arguments on one slot)", strings.Join(set, ", "), tried, boolNames(bools))
}

// boolNames lists the constants' names.
func boolNames(fcs []FunctionConstant) string {
	var names []string
	for _, fc := range fcs {
		names = append(names, fc.Name)
	}
	return strings.Join(names, ", ")
}

// saveEntryNodes keeps the argument and output nodes of an entry point
// (node is its entry-point node), which resolveConditional rewrites.
func saveEntryNodes(t *textModule, node []string) map[string][]string {
	saved := map[string][]string{}
	if len(node) < 3 {
		return saved
	}
	for _, l := range entryLists(node) {
		for _, ref := range t.md[l.ref] {
			saved[ref] = t.md[ref]
		}
	}
	return saved
}

// restoreEntryNodes puts back what saveEntryNodes kept.
func restoreEntryNodes(t *textModule, saved map[string][]string) {
	for ref, n := range saved {
		t.md[ref] = n
	}
}

// contestedPredicates are the predicate globals of the entry point's
// conditional arguments and outputs on a slot (slotOf) that more than one
// of its arguments or outputs declares, sorted.
func contestedPredicates(t *textModule, node []string) []string {
	if len(node) < 3 {
		return nil
	}
	type arg struct{ global string }
	bySlot := map[string][]arg{}
	for _, l := range entryLists(node) {
		for _, ref := range t.md[l.ref] {
			keys := t.md[ref]
			global := ""
			if predRef, plain, ok := conditionalNode(keys, l.param); ok {
				keys = plain
				if pred := t.md[predRef]; len(pred) > 0 {
					global, _ = fcGlobalName(pred[0])
				}
			}
			if l.param && len(keys) > 0 {
				keys = keys[1:]
			}
			role, _ := mdString(first(keys))
			writable := false
			for _, k := range keys {
				if s, _ := mdString(k); role == "air.texture" && (s == "air.write" || s == "air.read_write") {
					writable = true
				}
			}
			if slot := slotOf(role, metalIndex(role, keys), writable); slot != "" {
				bySlot[slot] = append(bySlot[slot], arg{global})
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, args := range bySlot {
		if len(args) < 2 {
			continue
		}
		for _, a := range args {
			if a.global != "" && !seen[a.global] {
				seen[a.global] = true
				out = append(out, a.global)
			}
		}
	}
	sort.Strings(out)
	return out
}

// siNameRef matches a local (%x) or global (@g) name in an instruction.
var siNameRef = regexp.MustCompile(`[%@](?:"[^"]*"|[-$._A-Za-z0-9]+)`)

// initializerReads follows the static initializers' values syntactically
// and returns the globals (function constants among them) from which the
// values they store into globals come: each instruction's result depends
// on the names its operands mention, a load on what was stored into its
// global (or the global itself), a store makes its global depend on the
// stored value. Control flow is not followed: this only chooses which
// constants the search varies; the evaluation (staticinit.go) decides.
func initializerReads(t *textModule, globals []string) map[string]bool {
	stored := map[string]map[string]bool{} // global → the globals its stored value comes from
	from := func(deps map[string]bool, vals map[string]map[string]bool, text string) {
		for _, ref := range siNameRef.FindAllString(text, -1) {
			name := strings.Trim(ref[1:], `"`)
			if ref[0] == '%' {
				for d := range vals[ref] {
					deps[d] = true
				}
				continue
			}
			if s, ok := stored[name]; ok {
				for d := range s {
					deps[d] = true
				}
				continue
			}
			deps[name] = true
		}
	}
	names, _ := constructors(t)
	for _, name := range names {
		fn, err := t.defined(name)
		if err != nil {
			continue
		}
		vals := map[string]map[string]bool{}
		for _, l := range t.lines[fn.Line+1:] {
			if l == "}" {
				break
			}
			ins := strings.TrimSpace(l)
			if cut := strings.Index(ins, ", !"); cut >= 0 {
				ins = ins[:cut]
			}
			if strings.HasPrefix(ins, "store ") {
				parts := splitTop(strings.TrimPrefix(ins, "store "))
				if len(parts) < 2 {
					continue
				}
				if g, ok := globalOperand(parts[1]); ok {
					deps := map[string]bool{}
					from(deps, vals, parts[0])
					stored[g] = deps
				}
				continue
			}
			res, rhs, ok := strings.Cut(ins, " = ")
			if !ok || !strings.HasPrefix(res, "%") {
				continue
			}
			deps := map[string]bool{}
			from(deps, vals, rhs)
			vals[res] = deps
		}
	}
	out := map[string]bool{}
	for _, g := range globals {
		for d := range stored[g] {
			out[d] = true
		}
	}
	return out
}

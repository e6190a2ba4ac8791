package cpuref

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Integer function-constant search. The contract gives an integer function
// constant of index i the value 2+i (unsigned: 4+i), which a program may
// not mean at all: ANGLE's blit and copy shaders switch on an int
// kSourceTextureType over the texture types 0 … 4 with no default, so under
// the contract's 5 (or 6, 7) no case holds, the result is a phi's undef and
// the reference sets the function aside (KindUndefined, undef.go). Such a
// value is not one the application would specialize with. When the
// reference's outputs depend on an undef value under the contract, it
// searches for the nearest specialization that defines them:
//
//  1. The varied constants are the module's integer function constants,
//     by index: one at a time, then two at a time (ANGLE's
//     blitDepthStencilFS switches on a depth and a stencil texture type),
//     every other constant keeping its contract value (or the bool
//     search's, fcsearch.go).
//  2. A constant's candidate values are the integer constants the module
//     compares it with: the case values of a switch on it and the constant
//     operands of an icmp with it, where "it" is a value loaded from its
//     global or from a global that a function stores such a value into (a
//     static initializer's mirror, as ANGLE's kSourceTextureType). Tried in
//     ascending order (signed for char, short and int), the contract's own
//     value left out; pairs take every pair of their candidates, the first
//     constant's varying slowest. At most maxIntCandidates runs in all.
//  3. A candidate under which the entry point writes other outputs than
//     under the contract (fewer render targets, a buffer gone: a
//     specialization that removes what was to be compared) is skipped.
//     Each other candidate runs the whole reference again (the conditional
//     arguments' predicates evaluated under it, staticinit.go); the first
//     that runs to completion with no output depending on undef is kept.
//
// The kept value is the constant's Kernel.FunctionConstants word (the
// device is specialized with it) and Kernel.FunctionConstantSearch names it.
// When no candidate is kept, the undef verdict stands, saying what was
// tried. One specialization is judged, not every one.

// maxIntCandidates bounds the reference runs the search makes, and
// maxIntSkipped the assignments it skips (each is an inspection, no run).
const (
	maxIntCandidates = 32
	maxIntSkipped    = 256
)

// intFCTypes are the Metal integer types of function constants, with
// whether they are signed.
var intFCTypes = map[string]bool{"char": true, "short": true, "int": true, "uchar": false, "ushort": false, "uint": false}

// loadOf matches a load of a global: the loaded value and the global.
var loadOf = regexp.MustCompile(`^\s*(%[-\w.$]+) = load (i\d+), ptr addrspace\(\d+\) @("[^"]+"|[-\w.$]+)`)

// storeTo matches a store of a value into a global.
var storeTo = regexp.MustCompile(`^\s*store (i\d+) (%[-\w.$]+), ptr addrspace\(\d+\) @("[^"]+"|[-\w.$]+)`)

// icmpConst matches an integer comparison of a value with a constant, either way round.
var icmpConst = regexp.MustCompile(`= icmp \w+ (i\d+) (?:(%[-\w.$]+), (-?\d+)|(-?\d+), (%[-\w.$]+))\s*(?:,|$)`)

// switchOn matches a switch's condition; caseValue one of its cases.
var (
	switchOn  = regexp.MustCompile(`^\s*switch (i\d+) (%[-\w.$]+), label`)
	caseValue = regexp.MustCompile(`^\s*(i\d+) (-?\d+), label`)
)

// intCandidates lists, for the integer function constant held by global,
// the values the module compares it with (see above), as words of its
// Metal type, ascending.
func intCandidates(t *textModule, global, metalType string) []uint32 {
	sources := map[string]bool{global: true}
	// Mirrors: a global a function stores a value loaded from a source into.
	for changed := true; changed; {
		changed = false
		eachFunction(t, func(body []string) {
			loaded := map[string]bool{}
			for _, l := range body {
				if m := loadOf.FindStringSubmatch(l); m != nil && sources[unquote(m[3])] {
					loaded[m[1]] = true
				}
				if m := storeTo.FindStringSubmatch(l); m != nil && loaded[m[2]] && !sources[unquote(m[3])] {
					sources[unquote(m[3])] = true
					changed = true
				}
			}
		})
	}
	signed := intFCTypes[metalType]
	seen := map[int64]bool{}
	eachFunction(t, func(body []string) {
		loaded := map[string]bool{}
		for i, l := range body {
			if m := loadOf.FindStringSubmatch(l); m != nil && sources[unquote(m[3])] {
				loaded[m[1]] = true
				continue
			}
			if m := icmpConst.FindStringSubmatch(l); m != nil {
				v, c := m[2], m[3]
				if v == "" {
					v, c = m[5], m[4]
				}
				if loaded[v] {
					addCandidate(seen, c, m[1], signed)
				}
				continue
			}
			if m := switchOn.FindStringSubmatch(l); m != nil && loaded[m[2]] {
				for _, cl := range body[i+1:] {
					cm := caseValue.FindStringSubmatch(cl)
					if cm == nil {
						break
					}
					addCandidate(seen, cm[2], cm[1], signed)
				}
			}
		}
	})
	var vals []int64
	for v := range seen {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	var out []uint32
	for _, v := range vals {
		out = append(out, uint32(v))
	}
	return out
}

// addCandidate records the decimal constant c of LLVM type ty, read as the
// function constant's signedness.
func addCandidate(seen map[int64]bool, c, ty string, signed bool) {
	bits, err := strconv.Atoi(strings.TrimPrefix(ty, "i"))
	v, err2 := strconv.ParseInt(c, 10, 64)
	if err != nil || err2 != nil || bits < 1 || bits > 32 {
		return
	}
	mask := int64(1)<<bits - 1
	v &= mask
	if signed && v>>(bits-1) != 0 {
		v -= 1 << bits
	}
	seen[v] = true
}

// unquote drops the quotes of a quoted global name.
func unquote(s string) string { return strings.Trim(s, `"`) }

// eachFunction calls f with the body lines of each function the module defines.
func eachFunction(t *textModule, f func(body []string)) {
	start := -1
	for i, l := range t.lines {
		switch {
		case strings.HasPrefix(l, "define "):
			start = i + 1
		case l == "}" && start >= 0:
			f(t.lines[start:i])
			start = -1
		}
	}
}

// undefinedOutputs reports whether err is the reference's verdict that an
// output depends on undef.
func undefinedOutputs(err error) bool {
	var nj *NotJudgeableError
	return errors.As(err, &nj) && nj.Kind == KindUndefined
}

// intChoice is one integer function constant set to one candidate value.
type intChoice struct {
	fc fcEntry
	v  uint32
}

// intAssignments lists the search's assignments in its order: each
// constant alone at each of its candidates (by index, values ascending),
// then each pair of constants (by index) at each pair of candidates.
func intAssignments(vary []fcEntry, cands [][]uint32) [][]intChoice {
	var out [][]intChoice
	for i, fc := range vary {
		for _, v := range cands[i] {
			out = append(out, []intChoice{{fc, v}})
		}
	}
	for i := range vary {
		for j := i + 1; j < len(vary); j++ {
			for _, v := range cands[i] {
				for _, w := range cands[j] {
					out = append(out, []intChoice{{vary[i], v}, {vary[j], w}})
				}
			}
		}
	}
	return out
}

// searchIntConstants runs the integer function-constant search for entry of
// ll after the run under the contract (or the bool search's assignment)
// failed with undef, err: the first candidate's result, with its
// assignment named; or err, saying what was tried.
func searchIntConstants(ctx context.Context, ll, entry string, opts Options, err error, usesSIMD *bool) (*Result, error) {
	t := parseText(ll)
	fcs, ferr := readFunctionConstants(t)
	if ferr != nil {
		return nil, err
	}
	contract, kerr := inspect(parseText(ll), entry)
	if kerr != nil {
		return nil, err
	}
	shape := outputShape(contract)
	var vary []fcEntry
	var cands [][]uint32
	var names []string
	for _, fc := range fcs {
		if _, ok := intFCTypes[fc.Type]; !ok {
			continue
		}
		var vs []uint32
		for _, v := range intCandidates(t, fc.Global, fc.Type) {
			if v != fc.Word {
				vs = append(vs, v)
			}
		}
		if len(vs) > 0 {
			vary, cands, names = append(vary, fc), append(cands, vs), append(names, fc.Name)
		}
	}
	tried, skipped := 0, 0
	for _, as := range intAssignments(vary, cands) {
		if tried == maxIntCandidates || skipped == maxIntSkipped {
			break
		}
		words := map[int]uint32{}
		var set, was []string
		for _, c := range as {
			words[c.fc.Index] = c.v
			set = append(set, c.fc.Name+"="+showWord(c.v, c.fc.Type))
			was = append(was, c.fc.Name+"="+showWord(c.fc.Word, c.fc.Type))
		}
		ct := parseText(ll)
		ct.fcWords = words
		if k, kerr := inspect(ct, entry); kerr != nil || outputShape(k) != shape {
			skipped++
			continue
		}
		tried++
		o := opts
		o.fcWords = words
		res, rerr := runText(ctx, ll, entry, o, usesSIMD)
		if ctx.Err() != nil {
			return nil, err
		}
		if rerr != nil {
			continue
		}
		desc := fmt.Sprintf("%s, the rest as the contract (under the contract's %s an output depends on undef; run %d of the integer search over the values the module compares its integer function constants with, %d skipped for changing the outputs)",
			strings.Join(set, ", "), strings.Join(was, ", "), tried, skipped)
		if res.Kernel.FunctionConstantSearch != "" {
			desc += "; " + res.Kernel.FunctionConstantSearch
		}
		res.Kernel.FunctionConstantSearch = desc
		return res, nil
	}
	if tried+skipped == 0 {
		return nil, err
	}
	var nj *NotJudgeableError
	errors.As(err, &nj)
	return nil, &NotJudgeableError{Kind: nj.Kind, Detail: nj.Detail, Reason: fmt.Sprintf("%s, under the contract's function constants and under %d other assignments of %s, one or two at a time, to values the module compares them with (%d more skipped: they change which outputs the function writes)", nj.Reason, tried, strings.Join(names, ", "), skipped), SIMD: nj.SIMD, Also: nj.Also}
}

// outputShape names what the entry point writes: its render targets, depth,
// stencil, vertex outputs, writable buffers and textures.
func outputShape(k *Kernel) string {
	var b strings.Builder
	for _, rt := range k.Targets {
		fmt.Fprintf(&b, "rt%d:%s ", rt.Index, rt.Type)
	}
	if k.WritesDepth {
		b.WriteString("depth ")
	}
	if k.WritesStencil {
		b.WriteString("stencil ")
	}
	for _, o := range k.Outputs {
		fmt.Fprintf(&b, "out:%s:%s ", o.Role, o.Name)
	}
	for _, x := range k.Buffers {
		if x.Writable() {
			fmt.Fprintf(&b, "buf%d ", x.Index)
		}
	}
	for _, x := range k.Textures {
		if x.Writable() {
			fmt.Fprintf(&b, "tex%d ", x.Index)
		}
	}
	return b.String()
}

// showWord prints a function constant's word as its Metal integer type.
func showWord(w uint32, metalType string) string {
	if !intFCTypes[metalType] {
		return strconv.FormatUint(uint64(w), 10)
	}
	switch metalType {
	case "char":
		return strconv.Itoa(int(int8(w)))
	case "short":
		return strconv.Itoa(int(int16(w)))
	}
	return strconv.Itoa(int(int32(w)))
}

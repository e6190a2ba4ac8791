package cpuref

import (
	"fmt"
	"math/bits"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Static initializers (llvm.global_ctors) evaluated in Go. AIR computes the
// predicates of conditional arguments (air.function_constant) in a static
// initializer from the function constants' values; the reference needs them
// before it builds the host module, since they decide which arguments exist.
// The initializers of the corpus are straight-line integer code — loads of
// function constants and globals, icmp, zext/sext/trunc, add/sub/mul,
// and/or/xor, shifts, udiv/urem, select,
// air.normalize_function_constant_predicate and
// air.is_function_constant_defined, stores to globals — so this file
// evaluates exactly that, with LLVM's semantics (wrapping arithmetic, and
// poison from nuw/nsw/exact/disjoint flags, shifts of the width or more and
// division by zero reported rather than guessed). Anything else leaves the
// values it would define unknown, with the reason, and only a predicate that
// depends on one is set aside (naming the instruction). The host module
// checks the result: predicateCheck compiles a constructor that runs after
// the module's own and compares every predicate global with the value
// computed here (exit 11 on a difference), so this evaluation never stands
// for LLVM's unchecked.

// siValue is an integer value of the evaluation: its bits (zero-extended)
// and width, or the reason it is unknown.
type siValue struct {
	v       uint64
	width   int
	unknown string
}

func unknownValue(format string, a ...any) siValue {
	return siValue{unknown: fmt.Sprintf(format, a...)}
}

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// signed is v as a signed integer of its width.
func (x siValue) signed() int64 {
	if x.width >= 64 {
		return int64(x.v)
	}
	sh := uint(64 - x.width)
	return int64(x.v<<sh) >> sh
}

// staticInit is the module's globals after its static initializers ran.
type staticInit struct {
	globals map[string]siValue
	// opaque, when set, says why a global not in globals may have been
	// written anyway (a store through a computed pointer, a call).
	opaque string
	// ran lists the constructors, in the order they ran.
	ran []string
	// flow is set by control flow in the constructor being evaluated.
	flow bool
}

// global is the value of global g after the initializers: what they stored,
// else its initializer.
func (s *staticInit) global(t *textModule, g string) siValue {
	if v, ok := s.globals[g]; ok {
		return v
	}
	if s.opaque != "" {
		return unknownValue("%s", s.opaque)
	}
	return initialValue(t, g)
}

// globalInit matches a global's definition: its type and initializer.
var globalInit = regexp.MustCompile(`^@(?:"[^"]*"|[-$._A-Za-z0-9]+) = .*?\b(?:global|constant) (i[0-9]+) (-?[0-9]+|true|false|zeroinitializer)(?:,|$)`)

// initialValue is global g's integer initializer, unknown when it has none
// the evaluation can read (undef, a float, an aggregate, external).
func initialValue(t *textModule, g string) siValue {
	for _, l := range t.lines {
		if !strings.HasPrefix(l, "@") {
			continue
		}
		name, rest, ok := symbolAt(l[1:])
		if !ok || name != g || !strings.HasPrefix(rest, " = ") {
			continue
		}
		if strings.Contains(l, "externally_initialized") {
			return unknownValue("global @%s is externally initialized", g)
		}
		m := globalInit.FindStringSubmatch(l)
		if m == nil {
			return unknownValue("global @%s has no integer initializer", g)
		}
		w, _ := strconv.Atoi(m[1][1:])
		return literal(m[2], w)
	}
	return unknownValue("no global @%s", g)
}

// literal reads an integer constant of width w.
func literal(s string, w int) siValue {
	switch s {
	case "true":
		return siValue{v: 1, width: w}
	case "false", "zeroinitializer", "null":
		return siValue{v: 0, width: w}
	case "undef", "poison":
		return unknownValue("%s", s)
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return siValue{v: uint64(n) & mask(w), width: w}
	}
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return siValue{v: n & mask(w), width: w}
	}
	return unknownValue("operand %q", s)
}

// ctorEntry matches one { i32 priority, ptr @fn, ptr data } of llvm.global_ctors.
var ctorEntry = regexp.MustCompile(`\{ i32 ([0-9]+), ptr @("[^"]*"|[-$._A-Za-z0-9]+), ptr [^}]*\}`)

// constructors lists llvm.global_ctors' functions in the order they run
// (priority, then position) and the line holding the array (-1: none).
func constructors(t *textModule) ([]string, int) {
	for i, l := range t.lines {
		if !strings.HasPrefix(l, "@llvm.global_ctors = ") {
			continue
		}
		type ctor struct {
			prio int
			name string
		}
		var cs []ctor
		for _, m := range ctorEntry.FindAllStringSubmatch(l, -1) {
			p, _ := strconv.Atoi(m[1])
			cs = append(cs, ctor{p, strings.Trim(m[2], `"`)})
		}
		sort.SliceStable(cs, func(a, b int) bool { return cs[a].prio < cs[b].prio })
		var out []string
		for _, c := range cs {
			out = append(out, c.name)
		}
		return out, i
	}
	return nil, -1
}

// runStaticInit evaluates the module's static initializers.
func runStaticInit(t *textModule) *staticInit {
	s := &staticInit{globals: map[string]siValue{}}
	fcs := map[string]fcEntry{}
	if list, err := readFunctionConstants(t); err == nil {
		for _, fc := range list {
			fcs[fc.Global] = fc
		}
	}
	names, _ := constructors(t)
	for _, name := range names {
		fn, err := t.defined(name)
		if err != nil {
			s.clobber(fmt.Sprintf("static initializer @%s has no definition", name))
			continue
		}
		s.ran = append(s.ran, name)
		s.flow = false
		s.run(t, fn, fcs)
	}
	return s
}

// run evaluates one constructor's body, line by line. Control flow ends
// the evaluation of the constructor: every global may then hold anything.
func (s *staticInit) run(t *textModule, fn *function, fcs map[string]fcEntry) {
	vals := map[string]siValue{}
	seen := false // an instruction was evaluated
	for _, l := range t.lines[fn.Line+1:] {
		if l == "}" {
			return
		}
		if l == "" || strings.HasPrefix(strings.TrimSpace(l), ";") {
			continue
		}
		if !strings.HasPrefix(l, "  ") {
			if seen {
				s.clobber(fmt.Sprintf("static initializer @%s has more than one block", fn.Name))
				return
			}
			continue
		}
		seen = true
		ins := strings.TrimSpace(l)
		if cut := strings.Index(ins, ", !"); cut >= 0 {
			ins = ins[:cut]
		}
		res := ""
		if strings.HasPrefix(ins, "%") {
			if lhs, rhs, ok := strings.Cut(ins, " = "); ok {
				res, ins = lhs, rhs
			}
		}
		v, flow := s.step(t, ins, vals, fcs)
		if flow {
			return
		}
		if res != "" {
			vals[res] = v
		}
	}
}

// clobber records that anything may have been written to any global, why.
func (s *staticInit) clobber(why string) {
	s.opaque = why
	for g := range s.globals {
		s.globals[g] = unknownValue("%s", why)
	}
}

// step evaluates one instruction (without its result name) and returns
// its value (unknown for one without a result); flow reports control flow,
// which ends the constructor's evaluation.
func (s *staticInit) step(t *textModule, ins string, vals map[string]siValue, fcs map[string]fcEntry) (v siValue, flow bool) {
	return s.eval(t, ins, vals, fcs), s.flow
}

// eval is step's evaluation.
func (s *staticInit) eval(t *textModule, ins string, vals map[string]siValue, fcs map[string]fcEntry) siValue {
	op, rest, _ := strings.Cut(ins, " ")
	operand := func(ty, x string) siValue {
		w, ok := intWidth(ty)
		if !ok {
			return unknownValue("a value of type %s", ty)
		}
		if strings.HasPrefix(x, "%") {
			v, ok := vals[x]
			if !ok {
				return unknownValue("value %s is not defined before its use", x)
			}
			return v
		}
		return literal(x, w)
	}
	// typed reads "ty x" into its value.
	typed := func(s string) (string, siValue) {
		ty, x, _ := strings.Cut(strings.TrimSpace(s), " ")
		return ty, operand(ty, strings.TrimSpace(x))
	}
	switch op {
	case "ret":
		return siValue{unknown: "no value"}
	case "load":
		parts := splitTop(rest)
		if len(parts) < 2 {
			break
		}
		w, ok := intWidth(parts[0])
		g, gok := globalOperand(parts[1])
		if !ok || !gok {
			return unknownValue("static initializer instruction load %s from %s", parts[0], parts[1])
		}
		if fc, isFC := fcs[g]; isFC {
			if fc.Type == "float" || fc.Type == "half" {
				return unknownValue("function constant %s of type %s", fc.Name, fc.Type)
			}
			return siValue{v: uint64(fc.Word) & mask(w), width: w}
		}
		v := s.global(t, g)
		if v.unknown == "" && v.width != w {
			return unknownValue("a load of i%d from global @%s of i%d", w, g, v.width)
		}
		return v
	case "store":
		parts := splitTop(rest)
		if len(parts) < 2 {
			break
		}
		g, ok := globalOperand(parts[1])
		if !ok {
			s.clobber("static initializer instruction store through " + parts[1])
			return siValue{unknown: "no value"}
		}
		_, v := typed(parts[0])
		s.globals[g] = v
		return siValue{unknown: "no value"}
	case "icmp":
		pred, r, _ := strings.Cut(rest, " ")
		ty, a, b := binaryOperands(r, operand)
		if _, ok := intWidth(ty); !ok {
			return unknownValue("static initializer instruction icmp %s %s", pred, ty)
		}
		return icmp(pred, a, b)
	case "zext", "sext", "trunc":
		flags, r := leadingFlags(rest)
		src, to, ok := strings.Cut(r, " to ")
		tw, okW := intWidth(strings.TrimSpace(to))
		if !ok || !okW {
			return unknownValue("static initializer instruction %s %s", op, r)
		}
		_, x := typed(src)
		return convert(op, flags, x, tw)
	case "select":
		parts := splitTop(rest)
		if len(parts) != 3 {
			break
		}
		_, c := typed(parts[0])
		_, a := typed(parts[1])
		_, b := typed(parts[2])
		switch {
		case c.unknown != "":
			return c
		case c.v != 0:
			return a
		}
		return b
	case "tail", "call", "notail", "musttail":
		return s.call(ins, operand, fcs)
	case "add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "urem", "sdiv", "srem":
		flags, r := leadingFlags(rest)
		ty, a, b := binaryOperands(r, operand)
		if _, ok := intWidth(ty); !ok {
			return unknownValue("static initializer instruction %s %s", op, ty)
		}
		return siBinary(op, flags, a, b)
	case "br", "switch", "indirectbr", "unreachable", "invoke", "callbr":
		s.clobber("static initializer instruction " + op)
		s.flow = true
		return unknownValue("static initializer instruction %s", op)
	}
	return unknownValue("static initializer instruction %s", op)
}

// call evaluates the calls AIR's initializers make; any other call may
// write any global.
func (s *staticInit) call(ins string, operand func(ty, x string) siValue, fcs map[string]fcEntry) siValue {
	at := strings.Index(ins, "@")
	if at < 0 {
		s.clobber("static initializer makes an indirect call")
		return unknownValue("%s", s.opaque)
	}
	name, rest, _ := symbolAt(ins[at+1:])
	end := matching(rest, 0)
	if !strings.HasPrefix(rest, "(") || end < 0 {
		return unknownValue("static initializer call of @%s", name)
	}
	args := splitTop(rest[1:end])
	switch {
	case name == "air.normalize_function_constant_predicate.i8" || name == "air.normalize_function_constant_predicate.i1":
		if len(args) != 1 {
			break
		}
		ty, x, _ := strings.Cut(args[0], " ")
		v := operand(ty, strings.TrimSpace(x))
		if v.unknown != "" {
			return v
		}
		// As ops.go defines it: a bool normalized to 0 or 1 (x != 0).
		if v.v != 0 {
			v.v = 1
		}
		return v
	case name == "air.is_function_constant_defined":
		if len(args) != 1 {
			break
		}
		g, ok := globalOperand(args[0])
		if !ok {
			break
		}
		// The reference gives every listed constant a value (the contract),
		// and the device is specialized with the same: all are defined.
		if _, listed := fcs[g]; listed {
			return siValue{v: 1, width: 1}
		}
		return unknownValue("air.is_function_constant_defined of @%s, which !air.function_constants does not list", g)
	default:
		s.clobber("static initializer calls @" + name)
		return unknownValue("%s", s.opaque)
	}
	return unknownValue("static initializer call of @%s with %d operands", name, len(args))
}

// globalOperand reads "ptr addrspace(N) [attrs] @G" (or "ptr @G").
func globalOperand(op string) (string, bool) {
	op = strings.TrimSpace(op)
	if !strings.HasPrefix(op, "ptr") {
		return "", false
	}
	at := strings.LastIndex(op, " @")
	if at < 0 {
		return "", false
	}
	name, rest, ok := symbolAt(op[at+2:])
	return name, ok && strings.TrimSpace(rest) == ""
}

// intWidth reads an integer type iN (N 1..64).
func intWidth(ty string) (int, bool) {
	if !strings.HasPrefix(ty, "i") {
		return 0, false
	}
	w, err := strconv.Atoi(ty[1:])
	return w, err == nil && w >= 1 && w <= 64
}

// poisonFlags are the flags that make an instruction's result poison when
// their condition fails.
var poisonFlags = map[string]bool{"nuw": true, "nsw": true, "exact": true, "disjoint": true, "nneg": true}

// leadingFlags splits flags (nuw, nsw, exact, disjoint, nneg) off an
// instruction's operands.
func leadingFlags(s string) (map[string]bool, string) {
	flags := map[string]bool{}
	for {
		w, rest, ok := strings.Cut(s, " ")
		if !ok || !poisonFlags[w] {
			return flags, s
		}
		flags[w] = true
		s = rest
	}
}

// binaryOperands reads "ty a, b".
func binaryOperands(s string, operand func(ty, x string) siValue) (string, siValue, siValue) {
	ty, r, _ := strings.Cut(strings.TrimSpace(s), " ")
	parts := splitTop(r)
	if len(parts) != 2 {
		return ty, unknownValue("operands %q", r), unknownValue("operands %q", r)
	}
	return ty, operand(ty, parts[0]), operand(ty, parts[1])
}

// icmp compares two integers of one width as LLVM's icmp does.
func icmp(pred string, a, b siValue) siValue {
	if a.unknown != "" {
		return a
	}
	if b.unknown != "" {
		return b
	}
	var r bool
	switch pred {
	case "eq":
		r = a.v == b.v
	case "ne":
		r = a.v != b.v
	case "ugt":
		r = a.v > b.v
	case "uge":
		r = a.v >= b.v
	case "ult":
		r = a.v < b.v
	case "ule":
		r = a.v <= b.v
	case "sgt":
		r = a.signed() > b.signed()
	case "sge":
		r = a.signed() >= b.signed()
	case "slt":
		r = a.signed() < b.signed()
	case "sle":
		r = a.signed() <= b.signed()
	default:
		return unknownValue("static initializer instruction icmp %s", pred)
	}
	if r {
		return siValue{v: 1, width: 1}
	}
	return siValue{v: 0, width: 1}
}

// convert is zext, sext or trunc of x to width w.
func convert(op string, flags map[string]bool, x siValue, w int) siValue {
	if x.unknown != "" {
		return x
	}
	switch op {
	case "zext":
		if w < x.width || flags["nneg"] && x.signed() < 0 {
			return unknownValue("zext: poison")
		}
		return siValue{v: x.v, width: w}
	case "sext":
		if w < x.width {
			return unknownValue("sext to a narrower type")
		}
		return siValue{v: uint64(x.signed()) & mask(w), width: w}
	}
	if w > x.width {
		return unknownValue("trunc to a wider type")
	}
	r := siValue{v: x.v & mask(w), width: w}
	if flags["nuw"] && r.v != x.v || flags["nsw"] && r.signed() != x.signed() {
		return unknownValue("trunc %v: poison (the value does not fit)", flagList(flags))
	}
	return r
}

// siBinary evaluates an integer binary operation as LLVM defines it; a
// result LLVM makes poison or undefined is unknown, saying why.
func siBinary(op string, flags map[string]bool, a, b siValue) siValue {
	if a.unknown != "" {
		return a
	}
	if b.unknown != "" {
		return b
	}
	w := a.width
	m := mask(w)
	r := siValue{width: w}
	poison := func(why string) siValue {
		return unknownValue("%s %s: %s", op, flagList(flags), why)
	}
	sa, sb := a.signed(), b.signed()
	switch op {
	case "add":
		r.v = (a.v + b.v) & m
		if flags["nuw"] && r.v < a.v || flags["nsw"] && !fitsSigned(sa+sb, w) {
			return poison("overflow")
		}
	case "sub":
		r.v = (a.v - b.v) & m
		if flags["nuw"] && b.v > a.v || flags["nsw"] && !fitsSigned(sa-sb, w) {
			return poison("overflow")
		}
	case "mul":
		hi, lo := bits.Mul64(a.v, b.v)
		r.v = lo & m
		if flags["nuw"] && (hi != 0 || lo&^m != 0) {
			return poison("overflow")
		}
		if flags["nsw"] && (w > 32 || !fitsSigned(sa*sb, w)) {
			return poison("overflow (or not checked above 32 bits)")
		}
	case "and":
		r.v = a.v & b.v
	case "or":
		if flags["disjoint"] && a.v&b.v != 0 {
			return poison("common bits")
		}
		r.v = a.v | b.v
	case "xor":
		r.v = a.v ^ b.v
	case "shl", "lshr", "ashr":
		if b.v >= uint64(w) {
			return poison("shift by the width or more")
		}
		sh := uint(b.v)
		switch op {
		case "shl":
			r.v = (a.v << sh) & m
			if flags["nuw"] && r.v>>sh != a.v || flags["nsw"] && (siValue{v: r.v, width: w}).signed()>>sh != sa {
				return poison("overflow")
			}
		case "lshr":
			r.v = a.v >> sh
		default:
			r.v = uint64(sa>>sh) & m
		}
		if flags["exact"] && a.v&(1<<sh-1) != 0 {
			return poison("bits shifted out")
		}
	case "udiv", "urem":
		if b.v == 0 {
			return poison("division by zero")
		}
		if op == "udiv" {
			r.v = a.v / b.v
			if flags["exact"] && a.v%b.v != 0 {
				return poison("remainder")
			}
		} else {
			r.v = a.v % b.v
		}
	case "sdiv", "srem":
		if b.v == 0 || sb == -1 && sa == -1<<(w-1) {
			return poison("division by zero or overflow")
		}
		if op == "sdiv" {
			r.v = uint64(sa/sb) & m
			if flags["exact"] && sa%sb != 0 {
				return poison("remainder")
			}
		} else {
			r.v = uint64(sa%sb) & m
		}
	}
	return r
}

func fitsSigned(v int64, w int) bool {
	if w >= 64 {
		return true
	}
	return v >= -(1<<(w-1)) && v < 1<<(w-1)
}

func flagList(flags map[string]bool) string {
	var fs []string
	for f := range flags {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	return strings.Join(fs, " ")
}

// predicateExit is the exit status of a reference whose static initializers
// gave a predicate another value than runStaticInit computed.
const predicateExit = 11

// predicateDef matches a predicate global's definition: its address space and integer type.
var predicateDef = regexp.MustCompile(`= .*?(?:addrspace\(([0-9]+)\) )?(?:global|constant) (i[0-9]+) `)

// predicateCheck adds to the host module (lines: line number → its
// replacement, functionConstantGlobals' map, returned with the additions) a
// constructor that runs after the module's own and tests every predicate of
// k's conditional arguments (conditional.go) against the value
// runStaticInit gave it: a difference exits with predicateExit, naming the
// predicate, so the reference never binds arguments by an evaluation LLVM
// disagrees with.
func predicateCheck(t *textModule, k *Kernel, lines map[int]string) map[int]string {
	type check struct {
		ptr, global, ty, name string
		holds                 bool
	}
	var checks []check
	seen := map[string]bool{}
	for _, c := range k.Conditional {
		if seen[c.Global] {
			continue
		}
		seen[c.Global] = true
		for _, l := range t.lines {
			if !strings.HasPrefix(l, "@") {
				continue
			}
			name, rest, ok := symbolAt(l[1:])
			if !ok || name != c.Global || !strings.HasPrefix(rest, " = ") {
				continue
			}
			if m := predicateDef.FindStringSubmatch(l); m != nil {
				ptr := "ptr"
				if m[1] != "" && m[1] != "0" {
					ptr = "ptr addrspace(" + m[1] + ")"
				}
				checks = append(checks, check{ptr: ptr, global: "@" + strconv.Quote(c.Global), ty: m[2], name: c.Predicate, holds: c.Holds})
			}
			break
		}
	}
	if len(checks) == 0 {
		return lines
	}
	if lines == nil {
		lines = map[int]string{}
	}
	var b strings.Builder
	b.WriteString("\ndefine internal void @airpipe_check_predicates() {\nentry:\n")
	for i, c := range checks {
		ok, bad := fmt.Sprintf("%%ok%d", i), fmt.Sprintf("%%bad%d", i)
		if !c.holds {
			ok, bad = bad, ok
		}
		fmt.Fprintf(&b, "  %%p%d = load %s, %s %s\n  %%c%d = icmp ne %s %%p%d, 0\n  br i1 %%c%d, label %s, label %s\nbad%d:\n", i, c.ty, c.ptr, c.global, i, c.ty, i, i, ok, bad, i)
		fmt.Fprintf(&b, "  call i64 @write(i32 2, ptr @airpipe_predicate_msg%d, i64 %d)\n  call void @_exit(i32 %d)\n  unreachable\nok%d:\n", i, len(predicateMessage(c.name, c.holds)), predicateExit, i)
	}
	b.WriteString("  ret void\n}\ndeclare i64 @write(i32, ptr, i64)\ndeclare void @_exit(i32)\n")
	for i, c := range checks {
		m := predicateMessage(c.name, c.holds)
		fmt.Fprintf(&b, "@airpipe_predicate_msg%d = private constant [%d x i8] c\"%s\\0A\"\n", i, len(m), m[:len(m)-1])
	}
	entry := "{ i32, ptr, ptr } { i32 65535, ptr @airpipe_check_predicates, ptr null }"
	_, at := constructors(t)
	if at < 0 {
		// No constructor: the check alone, after the module's first global.
		for i, l := range t.lines {
			if strings.HasPrefix(l, "@") && lines[i] == "" {
				lines[i] = l + "\n@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [" + entry + "]" + b.String()
				break
			}
		}
		return lines
	}
	l := t.lines[at]
	m := ctorCount.FindStringSubmatchIndex(l)
	end := strings.LastIndex(l, "}]")
	if m == nil || end < 0 {
		return lines
	}
	n, _ := strconv.Atoi(l[m[2]:m[3]])
	lines[at] = l[:m[2]] + strconv.Itoa(n+1) + l[m[3]:end+1] + ", " + entry + l[end+1:] + b.String()
	return lines
}

// ctorCount matches the element count of llvm.global_ctors' array type.
var ctorCount = regexp.MustCompile(`^@llvm\.global_ctors = appending global \[([0-9]+) x `)

// predicateMessage is what the check prints when predicate name does not
// hold as the evaluation says (holds).
func predicateMessage(name string, holds bool) string {
	clean := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	return fmt.Sprintf("airpipe-cpuref: the static initializer makes predicate %s %t, the reference's evaluation %t\n", clean, !holds, holds)
}

package cpuref

import (
	"strconv"
	"strings"
)

// Dead undef bases. An insertelement or insertvalue whose base operand is undef (or, for
// insertelement, a constant vector with undef lanes) makes a value that still holds the
// undef lanes or members it does not overwrite (constant indices only). That undef reaches
// no value when every use of the value either reads only lanes or members that are set (an
// extractelement or extractvalue with a constant index into what is set, a shufflevector
// whose mask picks none of the undef lanes) or passes them on to a value that, in turn,
// does the same: the base of a further insertelement or insertvalue (less what it
// overwrites), a shufflevector's result (the lanes that pick them), and for vectors a phi,
// a select's chosen value or lane-wise arithmetic that cannot trap (the same lanes) — down
// to values that hold no undef (a loop's phi is followed once). Then undefVariant leaves
// the base as it is. Anything else — a variable index, any other use (a store, a call, a
// return, a cast, a division, metadata) of a value that still holds undef, a line that
// does not parse — keeps the undef replaced.

// deadUndefBases maps the index, in a module's lines, of each insertelement and insertvalue
// whose base operand holds undef that provably reaches no value to where on its line that
// base operand ends.
func deadUndefBases(lines []string, named map[string]string) map[int]int {
	dead := map[int]int{}
	for start := 0; start < len(lines); start++ {
		if !strings.HasPrefix(lines[start], "define ") {
			continue
		}
		end := start + 1
		for end < len(lines) && lines[end] != "}" {
			end++
		}
		f := indexBody(lines, start+1, end)
		for i := start + 1; i < end; i++ {
			if !strings.Contains(lines[i], "undef") {
				continue
			}
			if ins, ok := parseInsertion(lines[i]); ok && f.baseDead(ins, named) {
				dead[i] = ins.baseAt
			}
		}
		start = end
	}
	return dead
}

// body is one function's lines with the lines each local value is used on.
type body struct {
	lines []string
	// uses maps a local value's name ("%12") to the lines it appears on after its
	// definition's "=", once per appearance.
	uses map[string][]int
	// seen maps a vector value lanesDead has examined to the lanes it took as undef.
	seen map[string]map[int]bool
}

// indexBody indexes the uses of local values on lines[from:to].
func indexBody(lines []string, from, to int) *body {
	b := &body{lines: lines, uses: map[string][]int{}}
	for i := from; i < to; i++ {
		l := lines[i]
		if _, rhs, ok := strings.Cut(l, " = "); ok && strings.HasPrefix(strings.TrimSpace(l), "%") {
			l = rhs
		}
		for _, n := range localNames(l) {
			b.uses[n] = append(b.uses[n], i)
		}
	}
	return b
}

// localNames is every local value name ("%x", "%12", `%"a b"`) on l, in order, repeats kept.
func localNames(l string) []string {
	var ns []string
	for i := 0; i < len(l); i++ {
		if l[i] != '%' || i > 0 && isIdent(l[i-1]) {
			continue
		}
		j := i + 1
		if j < len(l) && l[j] == '"' {
			e := strings.IndexByte(l[j+1:], '"')
			if e < 0 {
				break
			}
			j += e + 2
		} else {
			for j < len(l) && isIdent(l[j]) {
				j++
			}
		}
		if j > i+1 {
			ns = append(ns, l[i:j])
		}
		i = j - 1
	}
	return ns
}

// insertion is one insertelement or insertvalue line, read.
type insertion struct {
	name   string // the value it defines
	vector bool   // insertelement
	ty     string // the vector or aggregate type
	base   string // the base operand's text ("undef", "%5", a constant)
	baseAt int    // where the base operand ends on the line
	path   []int  // insertvalue's indices; insertelement's one lane
	varIdx bool   // insertelement with a lane that is not a constant
}

// parseInsertion reads line l as an insertelement or insertvalue; ok is false for any other
// line or one it cannot read.
func parseInsertion(l string) (ins insertion, ok bool) {
	lhs, rhs, found := strings.Cut(l, " = ")
	name := strings.TrimSpace(lhs)
	if !found || !strings.HasPrefix(name, "%") {
		return ins, false
	}
	ins.name = name
	var op string
	switch {
	case strings.HasPrefix(rhs, "insertelement "):
		op, ins.vector = "insertelement ", true
	case strings.HasPrefix(rhs, "insertvalue "):
		op = "insertvalue "
	default:
		return ins, false
	}
	ops := rhs[len(op):]
	n := typeLen(ops)
	if n == 0 || n >= len(ops) || ops[n] != ' ' {
		return ins, false
	}
	ins.ty = ops[:n]
	parts := splitTop(ops[n+1:])
	if len(parts) < 3 {
		return ins, false
	}
	ins.base = parts[0]
	ins.baseAt = len(l) - len(rhs) + len(op) + n + 1 + len(parts[0])
	if !strings.HasPrefix(l[ins.baseAt-len(parts[0]):], parts[0]) {
		return ins, false
	}
	if ins.vector {
		if len(parts) > 3 && !strings.HasPrefix(parts[3], "!") {
			return ins, false
		}
		_, idx, _ := strings.Cut(parts[2], " ")
		lane, err := strconv.Atoi(idx)
		if err != nil {
			ins.varIdx = true
		} else {
			ins.path = []int{lane}
		}
		return ins, true
	}
	for _, p := range parts[2:] {
		if strings.HasPrefix(p, "!") {
			break
		}
		k, err := strconv.Atoi(p)
		if err != nil {
			return ins, false
		}
		ins.path = append(ins.path, k)
	}
	return ins, len(ins.path) > 0
}

// baseDead reports whether ins's base holds undef that reaches no value.
func (b *body) baseDead(ins insertion, named map[string]string) bool {
	b.seen = map[string]map[int]bool{}
	if ins.vector {
		holes := undefLanes(ins.ty, ins.base)
		return len(holes) > 0 && !ins.varIdx && b.lanesDead(ins.name, ins.ty, without(holes, ins.path[0]), 0)
	}
	return ins.base == "undef" && len(memberTypes(ins.ty, named)) > 0 && b.membersDead(ins, nil, named, 0)
}

// maxChain bounds how many instructions deep baseDead follows a value.
const maxChain = 64

// without is holes less lane.
func without(holes map[int]bool, lane int) map[int]bool {
	left := make(map[int]bool, len(holes))
	for k := range holes {
		if k != lane {
			left[k] = true
		}
	}
	return left
}

// lanesDead reports whether the lanes holes of the vector value name (of type ty), undef,
// reach no value: every use of it is an insertelement of a constant lane into it, a
// shufflevector or an extractelement, and what each makes of those lanes reaches no value
// the same way.
func (b *body) lanesDead(name, ty string, holes map[int]bool, depth int) bool {
	if len(holes) == 0 {
		return true
	}
	if depth > maxChain {
		return false
	}
	if seen, ok := b.seen[name]; ok && subset(holes, seen) {
		return true // its uses are being (or were) checked with these lanes undef
	}
	b.seen[name] = holes
	for _, u := range b.uses[name] {
		l := b.lines[u]
		if next, ok := parseInsertion(l); ok {
			if !next.vector || next.base != name || next.ty != ty || next.varIdx || count(localNames(l), name) != 1 ||
				!b.lanesDead(next.name, ty, without(holes, next.path[0]), depth+1) {
				return false
			}
			continue
		}
		if res, ok := passesLanes(l, name, ty); ok {
			if !b.lanesDead(res, ty, holes, depth+1) {
				return false
			}
			continue
		}
		res, rty, left, ok := readLanes(l, name, ty, holes)
		if !ok || res != "" && !b.lanesDead(res, rty, left, depth+1) {
			return false
		}
	}
	return true
}

// membersDead reports whether the members of ins's undef base that neither set (member
// paths overwritten before ins) nor ins overwrite reach no value: every use of ins's value
// is an insertvalue into it, itself dead the same way, or an extractvalue of a member
// overwritten.
func (b *body) membersDead(ins insertion, set [][]int, named map[string]string, depth int) bool {
	if depth > maxChain {
		return false
	}
	set = append(set[:len(set):len(set)], ins.path)
	if complete(ins.ty, set, named, 0) {
		return true
	}
	for _, u := range b.uses[ins.name] {
		next, ok := parseInsertion(b.lines[u])
		switch {
		case ok && !next.vector && next.base == ins.name && next.ty == ins.ty && count(localNames(b.lines[u]), ins.name) == 1:
			if !b.membersDead(next, set, named, depth+1) {
				return false
			}
		case !readsSetMember(b.lines[u], ins.name, ins.ty, set, named):
			return false
		}
	}
	return true
}

// undefLanes is the set of lanes of base (an operand of vector type ty: undef, or a constant
// vector) that are undef.
func undefLanes(ty, base string) map[int]bool {
	holes := map[int]bool{}
	if base == "undef" {
		for k := range atoiDefault(vecLen(ty)) {
			holes[k] = true
		}
		return holes
	}
	if !strings.HasPrefix(base, "<") || !strings.HasSuffix(base, ">") {
		return nil
	}
	for k, lane := range splitTop(base[1 : len(base)-1]) {
		if strings.HasSuffix(lane, " undef") {
			holes[k] = true
		}
	}
	return holes
}

// wrapFlag reports whether w is an integer arithmetic flag (nuw, nsw, exact, disjoint).
func wrapFlag(w string) bool {
	switch w {
	case "nuw", "nsw", "exact", "disjoint":
		return true
	}
	return false
}

// subset reports whether every lane of a is in b.
func subset(a, b map[int]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// passesLanes reports whether line l makes its value (res, of the same type ty) lane by
// lane from the vector value name, so that an undef lane of name may reach only the same
// lane of res: a phi's incoming value, a select's second or third operand (never its
// condition), an operand of lane-wise arithmetic that cannot trap (no integer division or
// remainder, whose undef divisor would be undefined behaviour, no shifts).
func passesLanes(l, name, ty string) (res string, ok bool) {
	lhs, rhs, found := strings.Cut(l, " = ")
	if !found {
		return "", false
	}
	op, rest, _ := strings.Cut(rhs, " ")
	for {
		w, r, _ := strings.Cut(rest, " ")
		if !fastMathFlag(w) && !wrapFlag(w) {
			break
		}
		rest = r
	}
	switch op {
	case "fadd", "fsub", "fmul", "fdiv", "add", "sub", "mul", "and", "or", "xor":
		parts := splitTop(rest)
		if len(parts) != 2 || !strings.HasPrefix(parts[0], ty+" ") {
			return "", false
		}
		return strings.TrimSpace(lhs), true
	case "phi":
		if !strings.HasPrefix(rest, ty+" [") {
			return "", false
		}
		return strings.TrimSpace(lhs), true
	case "select":
		parts := splitTop(rest)
		if len(parts) != 3 || count(localNames(parts[0]), name) > 0 {
			return "", false
		}
		for _, p := range parts[1:] {
			if !strings.HasPrefix(p, ty+" ") {
				return "", false
			}
		}
		return strings.TrimSpace(lhs), true
	}
	return "", false
}

// readLanes reads line l, a use of the vector value name (of type ty) whose lanes holes are
// undef: ok is false unless it is an extractelement of a constant lane outside holes or a
// shufflevector with a constant mask. For a shufflevector whose mask picks any of holes, res
// is the value it defines, of type rty, and left its lanes that hold them.
func readLanes(l, name, ty string, holes map[int]bool) (res, rty string, left map[int]bool, ok bool) {
	lhs, rhs, found := strings.Cut(l, " = ")
	if !found {
		return "", "", nil, false
	}
	switch {
	case strings.HasPrefix(rhs, "extractelement "):
		parts := splitTop(rhs[len("extractelement "):])
		if len(parts) < 2 || parts[0] != ty+" "+name || len(parts) > 2 && !strings.HasPrefix(parts[2], "!") {
			return "", "", nil, false
		}
		_, idx, _ := strings.Cut(parts[1], " ")
		lane, err := strconv.Atoi(idx)
		return "", "", nil, err == nil && !holes[lane] && count(localNames(l), name) == 1
	case strings.HasPrefix(rhs, "shufflevector "):
		parts := splitTop(rhs[len("shufflevector "):])
		if len(parts) < 3 || len(parts) > 3 && !strings.HasPrefix(parts[3], "!") {
			return "", "", nil, false
		}
		mask, ok := shuffleMask(parts[2])
		if !ok {
			return "", "", nil, false
		}
		n := atoiDefault(vecLen(ty))
		left = map[int]bool{}
		for op := range 2 {
			if parts[op] != ty+" "+name {
				if count(localNames(parts[op]), name) > 0 {
					return "", "", nil, false
				}
				continue
			}
			for j, m := range mask {
				if m >= op*n && m < (op+1)*n && holes[m-op*n] {
					left[j] = true
				}
			}
		}
		if len(left) == 0 {
			return "", "", nil, true
		}
		return strings.TrimSpace(lhs), "<" + strconv.Itoa(len(mask)) + " x " + elem(ty) + ">", left, true
	}
	return "", "", nil, false
}

// shuffleMask is the lanes a shufflevector mask operand picks (-1 for an undef or poison
// lane); ok is false for a mask it cannot read.
func shuffleMask(op string) (mask []int, ok bool) {
	n := typeLen(op)
	if n == 0 || n >= len(op) {
		return nil, false
	}
	ty, c := op[:n], strings.TrimSpace(op[n:])
	switch c {
	case "zeroinitializer":
		return make([]int, atoiDefault(vecLen(ty))), true
	case "undef", "poison":
		return nil, true
	}
	if !strings.HasPrefix(c, "<") || !strings.HasSuffix(c, ">") {
		return nil, false
	}
	for _, e := range splitTop(c[1 : len(c)-1]) {
		_, v, _ := strings.Cut(e, " ")
		if v == "undef" || v == "poison" {
			mask = append(mask, -1)
			continue
		}
		k, err := strconv.Atoi(v)
		if err != nil {
			return nil, false
		}
		mask = append(mask, k)
	}
	return mask, true
}

// readsSetMember reports whether line l uses the aggregate value name (of type ty) only as an
// extractvalue of a member that set overwrites wholly.
func readsSetMember(l, name, ty string, set [][]int, named map[string]string) bool {
	_, rhs, ok := strings.Cut(l, " = ")
	if !ok || !strings.HasPrefix(rhs, "extractvalue ") {
		return false
	}
	parts := splitTop(rhs[len("extractvalue "):])
	if len(parts) < 2 || parts[0] != ty+" "+name || count(localNames(l), name) != 1 {
		return false
	}
	var path []int
	for _, p := range parts[1:] {
		if strings.HasPrefix(p, "!") {
			break
		}
		k, err := strconv.Atoi(p)
		if err != nil {
			return false
		}
		path = append(path, k)
	}
	sub, within := ty, [][]int{}
	for _, k := range path {
		ms := memberTypes(sub, named)
		if k < 0 || k >= len(ms) {
			return false
		}
		sub = ms[k]
	}
	for _, s := range set {
		switch {
		case hasPrefix(path, s):
			return true
		case hasPrefix(s, path):
			within = append(within, s[len(path):])
		}
	}
	return complete(sub, within, named, 0)
}

// count is how many of ns are n.
func count(ns []string, n string) int {
	c := 0
	for _, m := range ns {
		if m == n {
			c++
		}
	}
	return c
}

// hasPrefix reports whether path p starts with path q.
func hasPrefix(p, q []int) bool {
	if len(q) > len(p) {
		return false
	}
	for i := range q {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// complete reports whether the member paths set overwrite every member of aggregate type ty.
func complete(ty string, set [][]int, named map[string]string, depth int) bool {
	for _, s := range set {
		if len(s) == 0 {
			return true
		}
	}
	ms := memberTypes(ty, named)
	if len(ms) == 0 || depth > 16 {
		return false
	}
	for k, m := range ms {
		var sub [][]int
		for _, s := range set {
			if s[0] == k {
				sub = append(sub, s[1:])
			}
		}
		if !complete(m, sub, named, depth+1) {
			return false
		}
	}
	return true
}

// memberTypes is the member types of struct, packed struct, array or identified struct type
// ty, in order; nil for any other type.
func memberTypes(ty string, named map[string]string) []string {
	ty = strings.TrimSpace(ty)
	for range 16 {
		body, ok := named[ty]
		if !ok {
			break
		}
		ty = body
	}
	switch {
	case strings.HasPrefix(ty, "<{") && strings.HasSuffix(ty, "}>"):
		return splitTop(ty[2 : len(ty)-2])
	case strings.HasPrefix(ty, "{") && strings.HasSuffix(ty, "}"):
		return splitTop(ty[1 : len(ty)-1])
	case strings.HasPrefix(ty, "[") && strings.HasSuffix(ty, "]"):
		n, et, found := strings.Cut(ty[1:len(ty)-1], " x ")
		count := atoiDefault(strings.TrimSpace(n))
		if !found || count == 0 || count > 1<<12 {
			return nil
		}
		ms := make([]string, count)
		for k := range ms {
			ms[k] = strings.TrimSpace(et)
		}
		return ms
	}
	return nil
}

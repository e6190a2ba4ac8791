package cpuref

import (
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"regexp"
	"sort"
	"strings"
)

// Screen-space derivatives of pixel-independent values.
//
// A GPU computes dfdx, dfdy and fwidth as differences of the operand between
// the pixels of a 2×2 quad. The reference runs one pixel at a time, so it has
// no neighbours; but on its draw every varying is the same constant on every
// pixel and every texture is uniform, so only air.position and the other
// per-pixel built-ins differ between pixels. When the operand provably does
// not depend on them (checkDerivatives, a conservative taint analysis of the
// entry point and every function it calls), every pixel of the quad holds the
// same v and the GPU's difference is v − v: +0 for a finite v, NaN for ±∞ or
// NaN. The reference defines exactly that (derivativeOp); anything it cannot
// prove stays set aside (KindDerivative).

// DerivativeOps are the derivative operation names (without air., fast_ and
// the type suffix) the reference defines for pixel-independent operands:
// dfdx(v) = dfdy(v) = v − v, fwidth(v) = |v − v| + |v − v|.
var DerivativeOps = []string{"dfdx", "dfdy", "fwidth"}

// isDerivative reports whether plain (an operation name without air., fast_
// and the type suffix) is one of DerivativeOps.
func isDerivative(plain string) bool {
	for _, d := range DerivativeOps {
		if plain == d {
			return true
		}
	}
	return false
}

// derivativeBase is the DerivativeOps name of air.* function name, or "".
func derivativeBase(name string) string {
	if !strings.HasPrefix(name, "air.") {
		return ""
	}
	base, _, _ := strings.Cut(strings.TrimPrefix(name, "air."), ".")
	if plain := strings.TrimPrefix(base, "fast_"); isDerivative(plain) {
		return plain
	}
	return ""
}

// derivativeOp defines derivative d (float or half, a scalar or a vector of
// up to 4 lanes, one operand of the result's type) as the quad difference of
// a value equal on every pixel: fsub without flags, per lane; fwidth adds the
// magnitudes of the x and y differences. It is only ever called with a
// pixel-independent operand: checkDerivatives sets the entry point aside
// otherwise.
func derivativeOp(d declaration) (string, error) {
	plain := derivativeBase(d.Name)
	t := d.Ret
	if e := elem(t); e != "float" && e != "half" || len(d.Params) != 1 || d.Params[0] != t || lanes(t) < 1 || lanes(t) > 4 || plain == "" {
		return "", notJudgeable(KindDerivative, d.Name, "%s in a form the reference does not define (%s(%s))", d.Name, d.Ret, strings.Join(d.Params, ", "))
	}
	body := fmt.Sprintf("  %%d = fsub %s %%a0, %%a0\n", t)
	if plain == "fwidth" {
		body += fmt.Sprintf("  %%m = call %s @llvm.fabs.%s(%s %%d)\n  %%r = fadd %s %%m, %%m\n  ret %s %%r\n", t, mangle(t), t, t, t)
	} else {
		body += fmt.Sprintf("  ret %s %%d\n", t)
	}
	return fmt.Sprintf("define internal %s @%q(%s %%a0) {\n%s}\n", t, d.Name, t, body), nil
}

// pixelUniformRoles are the parameter roles whose value is the same on every
// pixel of the reference's draw; every other role (air.position, sample_id,
// layer and viewport indices...) is treated as per-pixel.
var pixelUniformRoles = map[string]bool{"air.fragment_input": true, "air.buffer": true, "air.texture": true, "air.sampler": true}

// taintIgnores are opcodes the taint analysis does not propagate through.
// Always empty, except in the test that breaks the analysis on purpose to
// show its fixture depends on that opcode.
var taintIgnores = map[string]bool{}

var (
	// valueRef is a local value or block reference (%x, %12, %"a b"); type
	// names (%struct.S) match too, and are never tainted.
	valueRef = regexp.MustCompile(`%(?:"[^"]*"|[-a-zA-Z$._0-9]+)`)
	// derivativeRef is a reference to a derivative operation.
	derivativeRef = regexp.MustCompile(`@"?air\.(?:fast_)?(?:dfdx|dfdy|fwidth)\b`)
	// pointerCast makes a generic (address space 0) pointer out of another
	// address space or an integer, or loads one from memory: such a pointer
	// may reach device memory.
	pointerCast = regexp.MustCompile(`= (?:(?:addrspacecast|inttoptr) .* to ptr(?:,|$)|load [^,]*\bptr\b[^,]*,)`)
	// calleeRef is a symbol followed by its argument list.
	calleeRef = regexp.MustCompile(`([@%])("[^"]*"|[-a-zA-Z$._0-9]+)\(`)
)

// pureOps are the instructions whose result depends only on their operands
// (phi, which also depends on the path taken, is handled apart).
var pureOps = map[string]bool{
	"fneg": true, "add": true, "sub": true, "mul": true, "udiv": true, "sdiv": true, "urem": true, "srem": true,
	"shl": true, "lshr": true, "ashr": true, "and": true, "or": true, "xor": true,
	"fadd": true, "fsub": true, "fmul": true, "fdiv": true, "frem": true, "icmp": true, "fcmp": true,
	"trunc": true, "zext": true, "sext": true, "fptrunc": true, "fpext": true, "fptoui": true, "fptosi": true,
	"uitofp": true, "sitofp": true, "ptrtoint": true, "inttoptr": true, "bitcast": true, "addrspacecast": true,
	"getelementptr": true, "extractelement": true, "insertelement": true, "shufflevector": true,
	"extractvalue": true, "insertvalue": true, "select": true, "freeze": true, "alloca": true,
}

// taintFunc is one defined function as the analysis reads it.
type taintFunc struct {
	name   string
	params []string // parameter value names, in order
	body   []string // instruction lines, trimmed
}

// taintState is the analysis of one entry point.
type taintState struct {
	funcs map[string]*taintFunc
	// tainted maps function → value name → whether it may differ between pixels.
	tainted map[string]map[string]bool
	ret     map[string]bool   // functions whose return value may differ between pixels
	diverge map[string]string // functions with a branch on a per-pixel value → that branch
	memory  string            // why every load may differ between pixels ("" while none)
	// deviceSpace0 is set when a generic (address space 0) pointer may reach
	// device memory — a buffer parameter of that type, a pointer cast from
	// another address space or an integer, or one loaded from memory — so that
	// no store counts as private.
	deviceSpace0 bool
	sites        []derivativeSite
	changed      bool
}

// derivativeSite is one call of a derivative operation.
type derivativeSite struct {
	fn, op  string
	tainted bool
}

// maxTaintPasses bounds the analysis's passes over the code: each pass follows
// every instruction in order, so straight-line code settles in one or two and
// each loop or call level adds about one; a hostile module cannot make it run
// for long.
const maxTaintPasses = 64

// giveUp is the analysis meeting a construct it does not follow.
type giveUp struct{ why string }

// checkDerivatives decides whether the derivatives entry point k may reach
// are all of pixel-independent values, so that derivativeOp's v − v is what
// a GPU computes. It returns a note for Result.Derivatives ("" when the entry
// point takes no derivative) or a *NotJudgeableError (KindDerivative).
func checkDerivatives(t *textModule, k *Kernel) (string, error) {
	decls, err := declarations(t)
	if err != nil {
		return "", err
	}
	first := ""
	for _, d := range decls {
		if derivativeBase(d.Name) != "" {
			first = d.Name
			break
		}
	}
	if first == "" {
		return "", nil
	}
	s := &taintState{funcs: map[string]*taintFunc{}, tainted: map[string]map[string]bool{}, ret: map[string]bool{}, diverge: map[string]string{}}
	s.read(t)
	reach, g := s.reachable(k.Name)
	if g != nil {
		return "", notJudgeable(KindDerivative, first, "the module takes screen-space derivatives and the reference cannot follow its data flow to prove their operands independent of the pixel position: %s", g.why)
	}
	if len(s.sites) == 0 {
		return "", nil
	}
	op := s.sites[0].op
	if k.Stage != air.Fragment {
		return "", notJudgeable(KindDerivative, op, "a %s function reaches %s: derivatives exist only between the pixels of a fragment quad", stageName(k), op)
	}
	entry := s.funcs[k.Name]
	if entry == nil || len(entry.params) != len(k.Params) {
		return "", notJudgeable(KindDerivative, op, "the parameters of @%s cannot be matched with its AIR roles, so the reference cannot tell which values depend on the pixel position", k.Name)
	}
	s.changed = true
	for i, p := range k.Params {
		if !pixelUniformRoles[p.Role] {
			s.mark(k.Name, entry.params[i])
		}
		if p.Role == "air.buffer" && p.Type == "ptr" {
			s.deviceSpace0 = true
		}
	}
	for passes := 0; s.changed; passes++ {
		if passes == maxTaintPasses {
			return "", notJudgeable(KindDerivative, op, "the taint analysis did not settle within %d passes over the code, so the reference cannot tell whether the derivative's operand depends on the pixel position", maxTaintPasses)
		}
		s.changed = false
		s.sites = s.sites[:0]
		for _, fn := range reach {
			if g := s.pass(s.funcs[fn]); g != nil {
				return "", notJudgeable(KindDerivative, op, "the module takes screen-space derivatives and the reference cannot follow its data flow to prove their operands independent of the pixel position: %s", g.why)
			}
		}
	}
	for _, st := range s.sites {
		if st.tainted {
			why := "a value computed from it"
			if s.memory != "" {
				why = "a value computed from it or loaded from memory (" + s.memory + ")"
			}
			return "", notJudgeable(KindDerivative, st.op, "the operand of %s in @%s may differ between the pixels of a quad — it may depend on the pixel position (air.position or another per-pixel built-in, through %s) — so its quad differences are not known to a per-pixel run", st.op, st.fn, why)
		}
	}
	for _, fn := range reach {
		if br, ok := s.diverge[fn]; ok {
			return "", notJudgeable(KindDerivative, op, "@%s branches on a value that depends on the pixel position (%q), so a derivative may sit in non-uniform control flow, where a GPU leaves it undefined", fn, br)
		}
	}
	var names []string
	seen := map[string]bool{}
	for _, st := range s.sites {
		if base := derivativeBase(st.op); !seen[base] {
			seen[base] = true
			names = append(names, base)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ") + " of pixel-independent values: v − v", nil
}

// stageName is a kernel's stage for messages.
func stageName(k *Kernel) string {
	if k.Stage == "" {
		return "compute"
	}
	return string(k.Stage)
}

// read collects the module's defined functions.
func (s *taintState) read(t *textModule) {
	var cur *taintFunc
	cont := false // the previous instruction continues on indented lines (switch)
	for _, l := range t.lines {
		if cur == nil {
			if strings.HasPrefix(l, "define ") {
				cur = parseDefine(l)
			}
			continue
		}
		switch {
		case l == "}":
			if _, dup := s.funcs[cur.name]; !dup && cur.name != "" {
				s.funcs[cur.name] = cur
			}
			cur = nil
		case strings.HasPrefix(strings.TrimSpace(l), "#dbg_"):
			// A debug record (#dbg_value, #dbg_declare): no effect on values.
		case cont && (strings.HasPrefix(l, "    ") || strings.TrimSpace(l) == "]"):
			// A switch case (a constant and a label, never a per-pixel value)
			// or the end of the case list.
			cont = strings.TrimSpace(l) != "]"
		case strings.HasPrefix(l, "  "):
			ins := strings.TrimSpace(l)
			cur.body = append(cur.body, ins)
			cont = strings.HasSuffix(ins, "[")
		}
	}
}

// parseDefine reads a define line's function name and parameter names.
func parseDefine(l string) *taintFunc {
	f := &taintFunc{}
	at := strings.Index(l, "@")
	if at < 0 {
		return f
	}
	name, rest, ok := symbolAt(l[at+1:])
	if !ok || !strings.HasPrefix(rest, "(") {
		return f
	}
	end := matching(rest, 0)
	if end < 0 {
		return f
	}
	f.name = name
	for _, p := range splitTop(rest[1:end]) {
		if p == "" || p == "..." {
			continue
		}
		fs := strings.Fields(p)
		n := fs[len(fs)-1]
		if !strings.HasPrefix(n, "%") {
			n = "" // an unnamed parameter: nothing refers to it
		}
		f.params = append(f.params, n)
	}
	return f
}

// reachable lists the defined functions entry calls, directly or not,
// entry first, and records the derivative calls among them.
func (s *taintState) reachable(entry string) ([]string, *giveUp) {
	if s.funcs[entry] == nil {
		return nil, &giveUp{fmt.Sprintf("no definition of @%s", entry)}
	}
	seen := map[string]bool{entry: true}
	out := []string{entry}
	for i := 0; i < len(out); i++ {
		for _, ins := range s.funcs[out[i]].body {
			c, g := parseCall(ins)
			if g != nil {
				return nil, g
			}
			if pointerCast.MatchString(ins) {
				s.deviceSpace0 = true
			}
			if derivativeRef.MatchString(ins) && (c == nil || derivativeBase(c.callee) == "") {
				return nil, &giveUp{fmt.Sprintf("@%s uses a derivative other than by calling it: %q", out[i], ins)}
			}
			switch {
			case c == nil:
			case derivativeBase(c.callee) != "":
				s.sites = append(s.sites, derivativeSite{fn: out[i], op: c.callee})
			case s.funcs[c.callee] != nil:
				if !seen[c.callee] {
					seen[c.callee] = true
					out = append(out, c.callee)
				}
			case strings.HasPrefix(c.callee, "air.") || strings.HasPrefix(c.callee, "llvm."):
			default:
				return nil, &giveUp{fmt.Sprintf("@%s calls @%s, which the module does not define", out[i], c.callee)}
			}
		}
	}
	return out, nil
}

// call is a parsed call instruction.
type call struct {
	callee string
	args   []string // the arguments, as written ("<2 x float> %5")
}

// parseCall parses ins when it is a call (nil otherwise); an indirect call
// or inline assembly is a giveUp.
func parseCall(ins string) (*call, *giveUp) {
	op, _ := opcode(ins)
	if op != "call" {
		switch op {
		case "invoke", "callbr":
			return nil, &giveUp{fmt.Sprintf("an %s instruction: %q", op, ins)}
		}
		return nil, nil
	}
	if strings.Contains(ins, " asm ") {
		return nil, &giveUp{fmt.Sprintf("inline assembly: %q", ins)}
	}
	m := calleeRef.FindStringSubmatchIndex(ins)
	if m == nil {
		return nil, &giveUp{fmt.Sprintf("a call whose callee is unreadable: %q", ins)}
	}
	if ins[m[2]:m[3]] == "%" {
		return nil, &giveUp{fmt.Sprintf("an indirect call: %q", ins)}
	}
	name := strings.Trim(ins[m[4]:m[5]], `"`)
	open := m[1] - 1
	end := matching(ins, open)
	if end < 0 {
		return nil, &giveUp{fmt.Sprintf("a call whose arguments are unbalanced: %q", ins)}
	}
	return &call{callee: name, args: splitTop(ins[open+1 : end])}, nil
}

// opcode returns an instruction's opcode and the value it defines ("" when none).
func opcode(ins string) (string, string) {
	def := ""
	if strings.HasPrefix(ins, "%") {
		d, rest, ok := strings.Cut(ins, " = ")
		if !ok {
			return "", ""
		}
		def, ins = d, rest
	}
	fs := strings.Fields(ins)
	for len(fs) > 0 && (fs[0] == "tail" || fs[0] == "musttail" || fs[0] == "notail") {
		fs = fs[1:]
	}
	if len(fs) == 0 {
		return "", def
	}
	return fs[0], def
}

// mark taints value v of function fn.
func (s *taintState) mark(fn, v string) {
	if v == "" {
		return
	}
	m := s.tainted[fn]
	if m == nil {
		m = map[string]bool{}
		s.tainted[fn] = m
	}
	if !m[v] {
		m[v] = true
		s.changed = true
	}
}

// any reports whether any value referenced in text is tainted in fn.
func (s *taintState) any(fn, text string) bool {
	m := s.tainted[fn]
	for _, r := range valueRef.FindAllString(text, -1) {
		if m[r] {
			return true
		}
	}
	return false
}

// setMemory records that memory may hold per-pixel values (every load is then tainted).
func (s *taintState) setMemory(why string) {
	if s.memory == "" {
		s.memory = why
		s.changed = true
	}
}

// storeAddr is a store's address when it is a local pointer of address space 0.
var storeAddr = regexp.MustCompile(`, ptr (%)`)

// pass runs the transfer function over every instruction of f once.
func (s *taintState) pass(f *taintFunc) *giveUp {
	fn := f.name
	for _, ins := range f.body {
		op, def := opcode(ins)
		if taintIgnores[op] {
			continue
		}
		switch {
		case op == "phi":
			if s.any(fn, ins) || s.diverge[fn] != "" {
				s.mark(fn, def)
			}
		case pureOps[op]:
			if s.any(fn, ins) {
				s.mark(fn, def)
			}
		case op == "load":
			if s.memory != "" || s.any(fn, ins) {
				s.mark(fn, def)
			}
		case op == "store":
			if s.any(fn, ins) {
				s.setMemory(fmt.Sprintf("@%s stores a per-pixel value or at a per-pixel address: %q", fn, ins))
			}
			if !s.privateAddress(ins) {
				s.setMemory(fmt.Sprintf("@%s stores to memory other pixels can read: %q", fn, ins))
			}
		case op == "atomicrmw" || op == "cmpxchg":
			s.mark(fn, def)
			s.setMemory(fmt.Sprintf("@%s changes memory atomically: %q", fn, ins))
		case op == "br" || op == "switch":
			if s.any(fn, ins) && s.diverge[fn] == "" {
				s.diverge[fn] = ins
				s.changed = true
			}
		case op == "ret":
			if s.any(fn, ins) && !s.ret[fn] {
				s.ret[fn] = true
				s.changed = true
			}
		case op == "unreachable" || op == "fence":
		case op == "call":
			if g := s.call(fn, def, ins); g != nil {
				return g
			}
		default:
			return &giveUp{fmt.Sprintf("@%s has an instruction the analysis does not follow: %q", fn, ins)}
		}
	}
	return nil
}

// privateAddress reports whether a store's address is a local pointer of the
// private address space, which no other pixel reads.
func (s *taintState) privateAddress(ins string) bool {
	return !s.deviceSpace0 && storeAddr.MatchString(ins)
}

// call is the transfer function of a call instruction.
func (s *taintState) call(fn, def, ins string) *giveUp {
	c, g := parseCall(ins)
	if g != nil {
		return g
	}
	argsTainted := s.any(fn, strings.Join(c.args, ", "))
	name := c.callee
	switch {
	case strings.HasPrefix(name, "llvm.dbg.") || strings.HasPrefix(name, "llvm.lifetime.") || name == "llvm.assume" || strings.HasPrefix(name, "llvm.experimental.noalias.scope.decl"):
		return nil
	case strings.HasPrefix(name, "llvm.memcpy") || strings.HasPrefix(name, "llvm.memmove") || strings.HasPrefix(name, "llvm.memset"):
		if argsTainted {
			s.setMemory(fmt.Sprintf("@%s copies a per-pixel value or to a per-pixel address: %q", fn, ins))
		}
		if len(c.args) == 0 || s.deviceSpace0 || !strings.HasPrefix(c.args[0], "ptr ") || !strings.Contains(c.args[0], "%") || strings.HasPrefix(c.args[0], "ptr addrspace") {
			s.setMemory(fmt.Sprintf("@%s writes memory other pixels can read: %q", fn, ins))
		}
		return nil
	case strings.HasPrefix(name, "llvm."):
		if strings.Contains(name, "store") || strings.Contains(name, "scatter") || strings.Contains(name, "atomic") {
			return &giveUp{fmt.Sprintf("@%s calls @%s, which writes memory in a way the analysis does not follow", fn, name)}
		}
		if argsTainted {
			s.mark(fn, def)
		}
		return nil
	case derivativeBase(name) != "":
		s.sites = append(s.sites, derivativeSite{fn: fn, op: name, tainted: argsTainted})
		if argsTainted {
			s.mark(fn, def)
		}
		return nil
	case strings.HasPrefix(name, "air."):
		switch {
		case strings.Contains(name, "write") || strings.Contains(name, "atomic"):
			s.mark(fn, def)
			s.setMemory(fmt.Sprintf("@%s writes memory through @%s", fn, name))
		case uniformTextureRead(name):
			// A uniform texture gives the same texel wherever it is sampled,
			// unless something has written memory.
			if s.memory != "" {
				s.mark(fn, def)
			}
		case argsTainted:
			s.mark(fn, def)
			for _, a := range c.args {
				if strings.HasPrefix(a, "ptr") {
					s.setMemory(fmt.Sprintf("@%s passes a pointer and a per-pixel value to @%s", fn, name))
				}
			}
		}
		return nil
	}
	callee := s.funcs[name]
	if callee == nil {
		return &giveUp{fmt.Sprintf("@%s calls @%s, which the module does not define", fn, name)}
	}
	for i, a := range c.args {
		if i < len(callee.params) && s.any(fn, a) {
			s.mark(name, callee.params[i])
		} else if i >= len(callee.params) && s.any(fn, a) {
			return &giveUp{fmt.Sprintf("@%s passes a per-pixel value to a variadic parameter of @%s", fn, name)}
		}
	}
	if argsTainted || s.ret[name] {
		s.mark(fn, def)
	}
	return nil
}

// uniformTextureRead reports whether air.* operation name samples or reads a
// texture without comparing: on a uniform texture its result is the texel,
// whatever the coordinates, LOD, offsets or layer.
func uniformTextureRead(name string) bool {
	for _, p := range []string{"air.sample_texture_", "air.sample_depth_", "air.read_texture_", "air.read_depth_"} {
		if strings.HasPrefix(name, p) {
			return !strings.Contains(name, "compare")
		}
	}
	return false
}

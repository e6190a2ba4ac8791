package cpuref

import (
	"bytes"
	"context"
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Undefined values. LLVM's undef is any value, and llc picks one (whatever a register held):
// a function that returns or stores a value reaching it — e.g. a switch's default arm
// feeding a phi's undef, as in a texture-type dispatch where no case holds — computes
// nothing Metal defines, and the device's value would be compared with an arbitrary one.
// So when the host module's function bodies use undef scalars, vectors or aggregates of
// them, the function is built twice, each of them replaced by one of two fixed constants
// (undefFills; an aggregate's members each theirs): the first is the reference (its input
// families, its outputs), the second runs on the inputs the first chose; outputs on which
// the two differ are set aside as KindUndefined. An
// undef that provably reaches no value (undefdead.go: an insertelement or insertvalue base
// whose every undef lane or member is overwritten, or read by nothing, before it could reach
// one) is left as it is, so a module whose undefs are all such needs no more builds; one
// that may reach a value is e.g. a fragment function's returned struct whose [[color(n)]] member is never inserted.
// Shufflevector lines are left alone (a mask element must stay a constant index or undef),
// and so are aggregates holding pointers or opaque types, poison and undef in globals: an
// output reaching only those is not detected.

// KindUndefined sets aside a function whose outputs depend on an undef value.
const KindUndefined = "undefined-value"

// undefOperand matches an undef operand after its scalar or vector type.
var undefOperand = regexp.MustCompile(`(<(\d+) x (i\d+|half|bfloat|float|double)>|\b(i\d+|half|bfloat|float|double)) undef\b`)

// scalarOrVector matches a whole scalar or vector type that has an undefConstant.
var scalarOrVector = regexp.MustCompile(`^(<(\d+) x (i\d+|half|bfloat|float|double)>|(i\d+|half|bfloat|float|double))$`)

// phiType matches a phi's result type, whose incoming values carry no type of their own.
var phiType = regexp.MustCompile(`= phi (?:[a-z]+ )*(<\d+ x (?:i\d+|half|bfloat|float|double)>|i\d+|half|bfloat|float|double) \[`)

// undefFill is one choice of the constants that stand for undef: a float's (exact in half
// and bfloat), an integer's (truncated to its width) and an i1's.
type undefFill struct {
	float   float64
	integer int
	bit     bool
}

// undefFills are the two choices checkUndefined builds: a negative float far outside
// [0, 1] and a fraction inside it (so that a saturating conversion, which maps every
// negative value to 0, still tells them apart), two integers of opposite sign, and both i1
// values.
var undefFills = [2]undefFill{
	{float: -136, integer: -91, bit: true},
	{float: 0.25, integer: 77, bit: false},
}

// undefConstant is the LLVM constant that stands for undef of scalar type s.
func (f undefFill) undefConstant(s string) string {
	switch s {
	case "half", "bfloat", "float", "double":
		return fmt.Sprintf("%e", f.float)
	case "i1":
		return strconv.FormatBool(f.bit)
	}
	return strconv.Itoa(f.integer)
}

// String names the fill for a message: "float -136, integer -91, i1 true".
func (f undefFill) String() string {
	return fmt.Sprintf("float %g, integer %d, i1 %t", f.float, f.integer, f.bit)
}

// typedUndef is the constant of type ty (a scalar or vector type as the regexps match it)
// that stands for undef.
func (f undefFill) typedUndef(ty string) string {
	if !strings.HasPrefix(ty, "<") {
		return f.undefConstant(ty)
	}
	n, s := vecLen(ty), elem(ty)
	var lanes []string
	for range atoiDefault(n) {
		lanes = append(lanes, s+" "+f.undefConstant(s))
	}
	return "<" + strings.Join(lanes, ", ") + ">"
}

// atoiDefault is a decimal lane count (0 when it is none).
func atoiDefault(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// undefVariants is host once per undefFill, with every undef scalar, vector and aggregate
// operand in a function body replaced by the fill's constant, but for the insertion bases
// deadUndefBases proves reach no value; changed reports whether there was one (the same
// lines change under every fill).
func undefVariants(host string) (variants [len(undefFills)]string, changed bool) {
	lines := strings.Split(host, "\n")
	named := namedTypes(lines)
	dead := deadUndefBases(lines, named) // undefdead.go
	var out [len(undefFills)][]string
	for j := range out {
		out[j] = slices.Clone(lines)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, "  ") || !strings.Contains(l, "undef") || strings.Contains(l, "shufflevector") {
			continue
		}
		keep := ""
		if at, ok := dead[i]; ok {
			keep, l = l[:at], l[at:]
		}
		for j, f := range undefFills {
			if n := f.fillLine(l, named); n != l {
				out[j][i], changed = keep+n, true
			}
		}
	}
	for j := range out {
		variants[j] = strings.Join(out[j], "\n")
	}
	return variants, changed
}

// fillLine is line l with its undef operands replaced by f's constants.
func (f undefFill) fillLine(l string, named map[string]string) string {
	n := undefOperand.ReplaceAllStringFunc(l, func(m string) string {
		ty := strings.TrimSuffix(m, " undef")
		return ty + " " + f.typedUndef(ty)
	})
	if p := phiType.FindStringSubmatch(n); p != nil && strings.Contains(n, "[ undef,") {
		n = strings.ReplaceAll(n, "[ undef,", "[ "+f.typedUndef(p[1])+",")
	}
	return f.aggregateUndefs(n, named)
}

// namedTypes maps each identified struct type the module defines ("%struct.S = type { ... }")
// to its body.
func namedTypes(lines []string) map[string]string {
	named := map[string]string{}
	for _, l := range lines {
		if !strings.HasPrefix(l, "%") {
			continue
		}
		name, body, ok := strings.Cut(l, " = type ")
		if ok {
			named[name] = strings.TrimSpace(body)
		}
	}
	return named
}

// aggregateUndefs replaces, in one body line, every undef operand of a struct, packed struct,
// array or identified struct type (after its type, or as a phi's incoming value) by the
// aggregate of its members' undefConstants. An aggregate holding a member with no such
// constant (a pointer, an opaque type) is left as it is.
func (f undefFill) aggregateUndefs(l string, named map[string]string) string {
	var b strings.Builder
	rest := l
	for {
		i := undefWord(rest)
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		before := rest[:i]
		ty := trailingAggregateType(before)
		if ty == "" && strings.HasSuffix(before, "[ ") {
			ty = phiAggregateType(l)
		}
		c, ok := "", false
		if ty != "" {
			c, ok = f.aggregateConstant(ty, named, 0)
		}
		b.WriteString(before)
		if ok {
			b.WriteString(c)
		} else {
			b.WriteString("undef")
		}
		rest = rest[i+len("undef"):]
	}
}

// undefWord is the index of the first "undef" in s that stands as a word, or -1.
func undefWord(s string) int { return wordIndex(s, "undef") }

// wordIndex is the index of the first w in s that stands as a word (no
// identifier byte, %, or @ on either side: %4 is not in %45 or %4.x), or -1.
func wordIndex(s, w string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(w)
		if (i == 0 || !isIdentByte(s[i-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return i
		}
		off = end
	}
}

func isIdentByte(c byte) bool { return isIdent(c) || c == '%' || c == '@' }

// trailingAggregateType is the aggregate type that s (the text before an undef) ends with,
// then a space: a bracketed struct or array type, or an identified struct's name; "" when it
// ends with none.
func trailingAggregateType(s string) string {
	if !strings.HasSuffix(s, " ") {
		return ""
	}
	s = s[:len(s)-1]
	if s == "" {
		return ""
	}
	switch s[len(s)-1] {
	case '}', ']', '>':
		depth := 0
		for j := len(s) - 1; j >= 0; j-- {
			switch s[j] {
			case '}', ']', '>':
				depth++
			case '{', '[', '<':
				depth--
			}
			if depth == 0 {
				ty := s[j:]
				if ty[0] == '<' && !strings.HasPrefix(ty, "<{") {
					return "" // a vector: undefOperand's
				}
				return ty
			}
		}
		return ""
	}
	j := strings.LastIndexByte(s, ' ') + 1
	if strings.HasPrefix(s[j:], "%") {
		return s[j:]
	}
	return ""
}

// phiAggregateType is the result type of the phi on line l when it is an aggregate, else "".
func phiAggregateType(l string) string {
	_, after, ok := strings.Cut(l, "= phi ")
	if !ok {
		return ""
	}
	for {
		w, rest, _ := strings.Cut(after, " ")
		if !fastMathFlag(w) {
			break
		}
		after = rest
	}
	if n := typeLen(after); n > 0 {
		ty := after[:n]
		if strings.HasPrefix(ty, "{") || strings.HasPrefix(ty, "<{") || strings.HasPrefix(ty, "[") || strings.HasPrefix(ty, "%") {
			return ty
		}
	}
	return ""
}

func fastMathFlag(w string) bool {
	switch w {
	case "fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc":
		return true
	}
	return false
}

// aggregateConstant is the constant of type ty with every scalar undefConstant; ok is false
// for a type holding something else (a pointer, an opaque or unknown type).
func (f undefFill) aggregateConstant(ty string, named map[string]string, depth int) (c string, ok bool) {
	ty = strings.TrimSpace(ty)
	if depth > 16 {
		return "", false
	}
	switch {
	case strings.HasPrefix(ty, "%"):
		body, ok := named[ty]
		if !ok {
			return "", false
		}
		return f.aggregateConstant(body, named, depth+1)
	case strings.HasPrefix(ty, "<{") && strings.HasSuffix(ty, "}>"):
		return f.structConstant(ty[2:len(ty)-2], "<{ ", " }>", named, depth)
	case strings.HasPrefix(ty, "{") && strings.HasSuffix(ty, "}"):
		return f.structConstant(ty[1:len(ty)-1], "{ ", " }", named, depth)
	case strings.HasPrefix(ty, "[") && strings.HasSuffix(ty, "]"):
		n, et, found := strings.Cut(ty[1:len(ty)-1], " x ")
		count := atoiDefault(strings.TrimSpace(n))
		if !found || count == 0 {
			return "", false
		}
		ec, ok := f.aggregateConstant(et, named, depth+1)
		if !ok {
			return "", false
		}
		et = strings.TrimSpace(et)
		lanes := make([]string, count)
		for i := range lanes {
			lanes[i] = et + " " + ec
		}
		return "[" + strings.Join(lanes, ", ") + "]", true
	case scalarOrVector.MatchString(ty):
		return f.typedUndef(ty), true
	}
	return "", false
}

// structConstant is the constant of a struct whose member list is body, between open and close.
func (f undefFill) structConstant(body, open, close string, named map[string]string, depth int) (string, bool) {
	ms := splitTop(body)
	if len(ms) == 0 {
		return "", false
	}
	parts := make([]string, len(ms))
	for i, m := range ms {
		c, ok := f.aggregateConstant(m, named, depth+1)
		if !ok {
			return "", false
		}
		parts[i] = m + " " + c
	}
	return open + strings.Join(parts, ", ") + close, true
}

// checkUndefined builds the second undef variant, other, of a host whose first variant
// (undefFills[0]) gave the reference's outputs from inputs, and runs it on the same inputs:
// every output on which the two differ is KindUndefined, named in buffer order. The two
// fixed fills are compared with each other, never with the host as it is, whose undef is
// whatever a register or stack slot held: that can differ from one run to the next, and a
// verdict must not.
func checkUndefined(ctx context.Context, dir, other string, k *Kernel, inputs, outputs []Data, opts Options) error {
	vdir := filepath.Join(dir, "undef1")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	prog, err := build(ctx, vdir, other, opts.Timeout, opts.FuseMulAdd)
	if err != nil {
		return err
	}
	got, err := execute(ctx, vdir, prog, k, inputs, opts)
	if err != nil {
		// The second variant failing where the first ran (an undef index out of
		// bounds, an undef divisor) is the same dependence.
		return notJudgeable(KindUndefined, "undef", "with its undef values fixed to %s the function does not run as with %s (%v): it depends on a value LLVM and Metal leave undefined", undefFills[1], undefFills[0], err)
	}
	var differ []string
	for i, o := range outputs {
		if i < len(got) && !bytes.Equal(o.Bytes, got[i].Bytes) {
			differ = append(differ, bufferName(k, o.Index))
		}
	}
	switch len(differ) {
	case 0:
		return nil
	case 1:
		return notJudgeable(KindUndefined, "undef", "%s depends on an undef value (with undef fixed to %s and to %s it changes), which LLVM and Metal leave undefined", differ[0], undefFills[0], undefFills[1])
	}
	return notJudgeable(KindUndefined, "undef", "%s depend on an undef value (with undef fixed to %s and to %s they change), which LLVM and Metal leave undefined", strings.Join(differ, ", "), undefFills[0], undefFills[1])
}

// bufferName names a harness buffer for a message.
func bufferName(k *Kernel, index int) string {
	switch {
	case k.Stage == air.Vertex && index == OutputBuffer:
		return "the vertex outputs"
	case index == DepthBuffer:
		return "the depth output"
	case index == StencilBuffer:
		return "the stencil output"
	case index >= StorageTextureBase && index < StorageTextureBase+MaxStorageTextures:
		return fmt.Sprintf("writable texture %d", index-StorageTextureBase)
	case index >= RenderTargetBase && index < StorageTextureBase:
		return fmt.Sprintf("render target %d", index-RenderTargetBase)
	}
	return fmt.Sprintf("buffer %d", index)
}

package opcheck

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/mathbound"
)

// Op is one air.* math operation as a module declares it.
type Op struct {
	// Name is the declaration's name ("air.fast_pow.v3f32").
	Name string
	// Family is the operation without variant or type ("pow", "min.u",
	// "convert", "pack.unorm4x8.srgb").
	Family string
	// Fast is true for the fast_ variant (Metal's fast math).
	Fast bool
	// Ret and Args are the types of the result and the arguments; Outs are
	// results written through pointer arguments (sincos's cosine).
	Ret  Type
	Args []Type
	Outs []Type
	// Dst and Src are a conversion's signedness letters ('f', 's', 'u').
	Dst, Src byte
}

// family describes the operations of one name: how many arguments, and
// whether it takes floats or integers.
type family struct {
	arity int
	ints  bool
}

// families lists every operation opcheck evaluates (element-wise unless
// noted in reference.go).
var families = map[string]family{
	"fabs": {1, false}, "floor": {1, false}, "ceil": {1, false}, "trunc": {1, false}, "rint": {1, false},
	"round": {1, false}, "fract": {1, false}, "sqrt": {1, false}, "rsqrt": {1, false},
	"exp": {1, false}, "exp2": {1, false}, "exp10": {1, false}, "log": {1, false}, "log2": {1, false}, "log10": {1, false},
	"sin": {1, false}, "cos": {1, false}, "tan": {1, false}, "asin": {1, false}, "acos": {1, false}, "atan": {1, false},
	"sinh": {1, false}, "cosh": {1, false}, "tanh": {1, false}, "saturate": {1, false}, "sign": {1, false},
	"pow": {2, false}, "powr": {2, false}, "fmax": {2, false}, "fmin": {2, false}, "fmod": {2, false}, "atan2": {2, false},
	"clamp": {3, false}, "fma": {3, false}, "mix": {3, false}, "fmax3": {3, false}, "fmin3": {3, false},
	"abs.s": {1, true}, "min.s": {2, true}, "min.u": {2, true}, "max.s": {2, true}, "max.u": {2, true},
}

// ParseOp reads an operation from its declaration's name. It refuses, by
// name, any operation opcheck does not evaluate.
func ParseOp(name string) (*Op, error) {
	rest, ok := strings.CutPrefix(name, "air.")
	if !ok {
		return nil, fmt.Errorf("%s: not an air.* operation", name)
	}
	toks := strings.Split(rest, ".")
	bad := func() (*Op, error) { return nil, fmt.Errorf("%s: opcheck does not evaluate this operation", name) }
	op := &Op{Name: name}
	typ := func(s string) (Type, bool) { return parseType(s) }
	switch toks[0] {
	case "convert":
		if len(toks) != 5 {
			return bad()
		}
		d, ok1 := typ(toks[2])
		s, ok2 := typ(toks[4])
		if !ok1 || !ok2 || d.Lanes != s.Lanes || !validSign(toks[1], d) || !validSign(toks[3], s) {
			return bad()
		}
		op.Family, op.Ret, op.Args, op.Dst, op.Src = "convert", d, []Type{s}, toks[1][0], toks[3][0]
		return op, nil
	case "pack", "unpack":
		if len(toks) < 3 || (toks[1] != "unorm4x8" && toks[1] != "snorm4x8") || (len(toks) == 4 && toks[2] != "srgb") || len(toks) > 4 {
			return bad()
		}
		t, ok := typ(toks[len(toks)-1])
		if !ok || t.Lanes != 4 || !t.IsFloat() || t.Kind == 'b' || (len(toks) == 4 && toks[1] != "unorm4x8") {
			return bad()
		}
		op.Family = strings.Join(toks[:len(toks)-1], ".")
		word := Type{'i', 32, 1}
		if toks[0] == "pack" {
			if t.Bits != 32 {
				return bad()
			}
			op.Ret, op.Args = word, []Type{t}
		} else {
			op.Ret, op.Args = t, []Type{word}
		}
		return op, nil
	}
	base := toks[0]
	if b, ok := strings.CutPrefix(base, "fast_"); ok {
		op.Fast, base = true, b
	} else if b, ok := strings.CutPrefix(base, "precise_"); ok {
		base = b
	}
	tail := toks[1:]
	if len(tail) == 2 && (tail[0] == "s" || tail[0] == "u") {
		base += "." + tail[0]
		tail = tail[1:]
	}
	if len(tail) != 1 {
		return bad()
	}
	t, ok := typ(tail[0])
	if !ok {
		return bad()
	}
	switch base {
	case "dot":
		if !t.IsFloat() || t.Kind == 'b' || t.Lanes < 2 {
			return bad()
		}
		op.Family, op.Ret, op.Args = base, t.Elem(), []Type{t, t}
		return op, nil
	case "sincos":
		if t.Kind != 'f' {
			return bad()
		}
		op.Family, op.Ret, op.Args, op.Outs = base, t, []Type{t}, []Type{t}
		return op, nil
	}
	f, ok := families[base]
	if !ok || f.ints != (t.Kind == 'i') || t.Kind == 'b' || (f.ints && t.Bits == 1) || (op.Fast && (f.ints || t.Bits != 32)) {
		return bad()
	}
	op.Family, op.Ret = base, t
	for range f.arity {
		op.Args = append(op.Args, t)
	}
	return op, nil
}

func validSign(s string, t Type) bool {
	if t.IsFloat() {
		return s == "f"
	}
	return s == "s" || s == "u"
}

// Signature is the declaration's LLVM signature ("float (float, float)");
// a pointer output is a private (address space 0) pointer.
func (op *Op) Signature() string {
	var a []string
	for _, t := range op.Args {
		a = append(a, t.LLVM())
	}
	for range op.Outs {
		a = append(a, "ptr")
	}
	return op.Ret.LLVM() + " (" + strings.Join(a, ", ") + ")"
}

// BoundKind says how a bound judges a result (compiler/mathbound).
type BoundKind = mathbound.Kind

// The kinds of bound.
const (
	// BoundExact: the result is the defined value (NaN for NaN, the sign of
	// a zero included).
	BoundExact = mathbound.Exact
	// BoundULP: within ULP units in the last place of the exact value
	// (0.5 is "correctly rounded"); a row whose count depends on the
	// argument resolves to one through Bound.At.
	BoundULP = mathbound.ULP
	// BoundAbs: within an absolute error Abs (on a row's stated domain).
	BoundAbs = mathbound.Abs
	// BoundComposed: "Implemented as" a composition of other rows, judged
	// by the interval of results the composition admits.
	BoundComposed = mathbound.Composed
	// BoundUndefined: the table says the result is undefined.
	BoundUndefined = mathbound.Undefined
	// BoundNone: the specification states no error bound (no row, or a
	// composition compiler/mathbound does not evaluate).
	BoundNone = mathbound.None
)

// Bound is an operation's accuracy as the Metal Shading Language states it.
type Bound = mathbound.Bound

// The accuracy tables themselves (MSL §8.4, Tables 8.1, 8.2 and 8.3; the
// bfloat Tables 8.4 and 8.5 list no math function) are written once, in
// compiler/mathbound, each row citing its table. Functions no table lists
// take their definition from chapter 6 (clamp, saturate, sign and mix in
// "Common Functions"; fmax3/fmin3 as fmax/fmin twice; dot in "Geometric
// Functions", with no accuracy stated).
const (
	srcCommon  = "MSL §6.2 common functions (definition)"
	srcDefined = "definition (exact)"
	srcNone    = "no stated bound"
)

func exact(src string) Bound { return Bound{Kind: BoundExact, Text: "0 ulp", Source: src} }
func none(text string) Bound { return Bound{Kind: BoundNone, Text: text, Source: srcNone} }

// table is the accuracy table of op's result type and variant.
func (op *Op) table() mathbound.Table {
	return mathbound.TableFor(op.Ret.Bits, op.Ret.Kind == 'b', op.Fast)
}

// definedBounds are the operations defined by a formula of exact steps or
// exactly (chapter 6, conversions, integer functions, pack/unpack).
var definedBounds = map[string]Bound{
	"clamp": exact(srcCommon), "saturate": exact(srcCommon), "sign": exact(srcCommon),
	"fmax3": exact(srcCommon), "fmin3": exact(srcCommon),
	"mix": {Kind: BoundExact, Text: "x+(y-x)*a, fused or not", Source: srcCommon},
	"dot": none("no stated bound (sum of products)"),
}

// BoundOf is op's bound: from the table of its precision and variant.
func BoundOf(op *Op) Bound {
	if b, ok := definedBounds[op.Family]; ok {
		return b
	}
	switch {
	case op.Family == "convert":
		return Bound{Kind: BoundExact, Text: "0 ulp (round to nearest even; float to int toward zero, saturating)", Source: "MSL §2.13 conversions; ABI.md"}
	case op.Family == "pack.unorm4x8.srgb":
		return Bound{Kind: BoundExact, Text: "0 ulp, sRGB colour channels within one code", Source: "MSL §6.14 pack functions; §7.7 sRGB conversion"}
	case strings.HasPrefix(op.Family, "pack.") || strings.HasPrefix(op.Family, "unpack."):
		return Bound{Kind: BoundULP, ULP: 0.5, Text: "correctly rounded", Source: "MSL §7.7 normalized integer conversions"}
	case op.Ret.Kind == 'i':
		return exact("MSL §6.4 integer functions")
	case op.Ret.IsFloat():
		if b := mathbound.Of(op.Family, op.table()); b.Kind != BoundNone {
			return b
		}
	}
	return none("not in the accuracy tables")
}

package translate

import (
	"math"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// An air.* function's name is air.<op>[.<modifiers>].<type suffixes>:
// air.fast_pow.v3f32, air.min.u.i32, air.convert.f.f32.u.i32,
// air.sample_texture_2d.v4f32, air.atomic.global.add.u.i32. splitName
// returns the operation (fast_pow, min, convert, atomic.global.add) and the
// remaining tokens (modifiers and type suffixes).
func splitName(name string) (string, []string) {
	toks := strings.Split(strings.TrimPrefix(name, "air."), ".")
	i := 1
	for i < len(toks) && !isSuffixToken(toks[i]) {
		i++
	}
	return strings.Join(toks[:i], "."), toks[i:]
}

// isSuffixToken reports a type suffix (f32, v4f32, i1, v2i16) or a signedness/kind letter.
func isSuffixToken(s string) bool {
	if s == "u" || s == "s" || s == "f" {
		return true
	}
	s = strings.TrimLeft(s, "v0123456789")
	if len(s) < 2 || (s[0] != 'f' && s[0] != 'i') {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// mathKind says how a math operation's operands are typed.
type mathKind uint8

const (
	mathFloat mathKind = iota
	mathSigned
	mathUnsigned
	mathInt    // either signedness: the op is the same
	mathInt32  // a 32-bit integer operation (Vulkan's bit instructions)
	mathVector // float vector arguments, scalar result
	mathMixed  // a float first argument, integer others (ldexp)
)

// mathOp lowers an air math function: a GLSL.std.450 instruction or a core
// opcode, or a custom lowering (lower) that keeps Metal's semantics where
// they differ from GLSL's.
type mathOp struct {
	glsl  spirv.GLSLOp
	core  spirv.Op
	arity int
	kind  mathKind
	lower func(t *translator, ty air.Type, args []spirv.ID) spirv.ID
	// precise, when set, lowers the precise form (no fast_ prefix) of a
	// float operation where Table 8.1 asks more than GLSL's instruction
	// gives.
	precise func(t *translator, ty air.Type, args []spirv.ID) spirv.ID
	// fast, when set, lowers the fast form (fast_ prefix) of a float
	// operation that Table 8.2 defines as a composition GLSL's
	// instruction does not follow.
	fast func(t *translator, ty air.Type, args []spirv.ID) spirv.ID
}

// mathOps is the one table from air.* math names (without fast_/precise_
// prefix, signedness in the name for integer ones) to lowerings.
var mathOps = map[string]mathOp{
	"fabs": {glsl: spirv.GLSLFAbs, arity: 1}, "abs": {glsl: spirv.GLSLFAbs, arity: 1}, "floor": {glsl: spirv.GLSLFloor, arity: 1},
	"ceil": {glsl: spirv.GLSLCeil, arity: 1}, "trunc": {glsl: spirv.GLSLTrunc, arity: 1},
	"rint": {glsl: spirv.GLSLRoundEven, arity: 1}, "fract": {arity: 1, lower: lowerFract},
	"sqrt": {glsl: spirv.GLSLSqrt, arity: 1}, "rsqrt": {glsl: spirv.GLSLInverseSqrt, arity: 1, precise: lowerRsqrtRounded},
	"exp": {glsl: spirv.GLSLExp, arity: 1}, "exp2": {glsl: spirv.GLSLExp2, arity: 1},
	"log": {glsl: spirv.GLSLLog, arity: 1}, "log2": {glsl: spirv.GLSLLog2, arity: 1},
	"sin": {glsl: spirv.GLSLSin, arity: 1}, "cos": {glsl: spirv.GLSLCos, arity: 1}, "tan": {glsl: spirv.GLSLTan, arity: 1},
	"asin": {arity: 1, lower: lowerAsin}, "acos": {arity: 1, lower: lowerAcos}, "atan": {arity: 1, lower: lowerAtan},
	"sinh": {glsl: spirv.GLSLSinh, arity: 1}, "cosh": {glsl: spirv.GLSLCosh, arity: 1}, "tanh": {glsl: spirv.GLSLTanh, arity: 1},
	"asinh": {glsl: spirv.GLSLAsinh, arity: 1}, "acosh": {glsl: spirv.GLSLAcosh, arity: 1}, "atanh": {glsl: spirv.GLSLAtanh, arity: 1},
	"pow": {glsl: spirv.GLSLPow, arity: 2}, "powr": {glsl: spirv.GLSLPow, arity: 2},
	"fmax": {glsl: spirv.GLSLNMax, arity: 2}, "fmin": {glsl: spirv.GLSLNMin, arity: 2},
	"fma": {glsl: spirv.GLSLFma, arity: 3}, "mad": {glsl: spirv.GLSLFma, arity: 3},
	"clamp": {glsl: spirv.GLSLNClamp, arity: 3}, "mix": {arity: 3, lower: lowerMix},
	"fmax3": {arity: 3, lower: lowerFMax3}, "fmin3": {arity: 3, lower: lowerFMin3},
	"step": {glsl: spirv.GLSLStep, arity: 2}, "smoothstep": {glsl: spirv.GLSLSmoothStep, arity: 3},
	"fmod": {core: spirv.OpFRem, arity: 2},
	"dfdx": {core: spirv.OpDPdx, arity: 1}, "dfdy": {core: spirv.OpDPdy, arity: 1}, "fwidth": {core: spirv.OpFwidth, arity: 1},
	"saturate": {arity: 1, lower: lowerSaturate}, "round": {arity: 1, lower: lowerRound},
	"sign": {arity: 1, lower: lowerSign}, "atan2": {arity: 2, lower: lowerAtan2, fast: lowerFastAtan2},
	"exp10": {arity: 1, lower: lowerExp10}, "log10": {arity: 1, lower: lowerLog10},
	"min.u": {glsl: spirv.GLSLUMin, arity: 2, kind: mathUnsigned}, "min.s": {glsl: spirv.GLSLSMin, arity: 2, kind: mathSigned},
	"max.u": {glsl: spirv.GLSLUMax, arity: 2, kind: mathUnsigned}, "max.s": {glsl: spirv.GLSLSMax, arity: 2, kind: mathSigned},
	"clamp.u": {glsl: spirv.GLSLUClamp, arity: 3, kind: mathUnsigned}, "clamp.s": {glsl: spirv.GLSLSClamp, arity: 3, kind: mathSigned},
	"abs.s":        {glsl: spirv.GLSLSAbs, arity: 1, kind: mathSigned},
	"popcount":     {core: spirv.OpBitCount, arity: 1, kind: mathInt},
	"reverse_bits": {core: spirv.OpBitReverse, arity: 1, kind: mathInt},
	"length":       {glsl: spirv.GLSLLength, arity: 1, kind: mathVector},
	"distance":     {glsl: spirv.GLSLDistance, arity: 2, kind: mathVector},
	"normalize":    {glsl: spirv.GLSLNormalize, arity: 1},
	"cross":        {glsl: spirv.GLSLCross, arity: 2},
	"length_squared": {arity: 1, kind: mathVector, lower: func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		return t.f.Op(spirv.OpDot, t.typ(ty), a[0], a[0])
	}},
	"recip": {arity: 1, lower: func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		return t.f.Op(spirv.OpFDiv, t.typ(ty), t.floatConst(ty, 1), a[0])
	}},
	"divide": {arity: 2, lower: func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		return t.f.Op(spirv.OpFDiv, t.typ(ty), a[0], a[1])
	}},
	"sinpi":          {arity: 1, lower: lowerPi(spirv.GLSLSin)},
	"cospi":          {arity: 1, lower: lowerPi(spirv.GLSLCos)},
	"tanpi":          {arity: 1, lower: lowerPi(spirv.GLSLTan)},
	"ldexp":          {arity: 2, kind: mathMixed, lower: lowerLdexp},
	"abs.u":          {arity: 1, kind: mathUnsigned, lower: func(t *translator, ty air.Type, a []spirv.ID) spirv.ID { return a[0] }},
	"clz":            {arity: 1, kind: mathInt32, lower: lowerClz},
	"ctz":            {arity: 1, kind: mathInt32, lower: lowerCtz},
	"mul_hi.u":       {arity: 2, kind: mathUnsigned, lower: lowerMulHi(false)},
	"mul_hi.s":       {arity: 2, kind: mathSigned, lower: lowerMulHi(true)},
	"hadd.u":         {arity: 2, kind: mathUnsigned, lower: lowerHadd(false, false)},
	"hadd.s":         {arity: 2, kind: mathSigned, lower: lowerHadd(true, false)},
	"rhadd.u":        {arity: 2, kind: mathUnsigned, lower: lowerHadd(false, true)},
	"rhadd.s":        {arity: 2, kind: mathSigned, lower: lowerHadd(true, true)},
	"abs_diff.u":     {arity: 2, kind: mathUnsigned, lower: lowerAbsDiff(false)},
	"abs_diff.s":     {arity: 2, kind: mathSigned, lower: lowerAbsDiff(true)},
	"add_sat.u":      {arity: 2, kind: mathUnsigned, lower: lowerAddSat(false, false)},
	"add_sat.s":      {arity: 2, kind: mathSigned, lower: lowerAddSat(true, false)},
	"sub_sat.u":      {arity: 2, kind: mathUnsigned, lower: lowerAddSat(false, true)},
	"sub_sat.s":      {arity: 2, kind: mathSigned, lower: lowerAddSat(true, true)},
	"rotate":         {arity: 2, kind: mathInt, lower: lowerRotate},
	"extract_bits.u": {arity: 3, kind: mathInt32, lower: lowerExtractBits(false)},
	"extract_bits.s": {arity: 3, kind: mathInt32, lower: lowerExtractBits(true)},
	"insert_bits":    {arity: 4, kind: mathInt32, lower: lowerInsertBits},
}

// call lowers a call to a declared function: an air.* or llvm.* intrinsic.
func (t *translator) call(c *air.Call) {
	callee := c.Called()
	if callee == nil {
		t.miss.add(CodeUnhandledInstruction, "call (indirect)")
		t.undefCall(c)
		return
	}
	if !callee.IsDeclaration() {
		t.callDefined(c, callee)
		return
	}
	name := callee.Name
	intrinsic := t.intrinsic
	if touchesBFloat(c) {
		intrinsic = t.bfIntrinsic // only those that know bfloat's representation
	}
	id, ok := intrinsic(c, name)
	if ok {
		t.traceCall(c, name, id) // instrumentation mode only (trace.go)
	}
	if !ok {
		t.miss.add(CodeUnhandledIntrinsic, name)
		if air.HasResult(c) && !isPointer(c.Type()) {
			id = t.b.Undef(t.typ(c.Type()))
		}
	}
	if id != 0 {
		t.vals[c] = id
	}
}

// intrinsic lowers the call; false means the name has no lowering.
func (t *translator) intrinsic(c *air.Call, name string) (spirv.ID, bool) {
	if oddCall(c) {
		return 0, false // no lowering takes an odd-width integer (intwidth.go)
	}
	if strings.HasPrefix(name, "llvm.") {
		return t.llvmIntrinsic(c, name)
	}
	if !strings.HasPrefix(name, "air.") {
		return 0, false
	}
	op, rest := splitName(name)
	switch {
	case op == "is_function_constant_defined":
		return t.fnConstDefined(c) // fnconstdefined.go
	case strings.HasPrefix(op, "is_null_texture_"):
		return t.isNullTexture(c) // apple.go
	case op == "get_read_sampler":
		return t.getReadSampler(c) // texread.go
	case strings.HasPrefix(op, "sample_") || strings.HasPrefix(op, "read_texture") || strings.HasPrefix(op, "write_texture") || strings.HasPrefix(op, "get_") || strings.HasPrefix(op, "gather_texture_2d"):
		return t.texture(c, op, rest)
	case op == "convert":
		return t.convert(c, rest)
	case strings.HasPrefix(op, "pack.") || strings.HasPrefix(op, "unpack."):
		return t.pack(c, op)
	case op == "dot":
		if len(c.Args) != 2 || lanes(c.Args[0].Type()) < 2 {
			return 0, false
		}
		return t.f.Op(spirv.OpDot, t.typ(c.Type()), t.value(c.Args[0]), t.value(c.Args[1])), true
	case op == "normalize_function_constant_predicate":
		// A bool function constant as an i8 predicate: 1 when set, else 0.
		it, ok := c.Type().(*air.IntType)
		if len(c.Args) != 1 || !ok || it.Bits < 8 || it.Bits > 32 || c.Args[0].Type() != c.Type() {
			return 0, false
		}
		ty := t.typ(c.Type())
		zero := t.b.Constant(ty, 0)
		nz := t.f.Op(spirv.OpINotEqual, t.b.TypeBool(), t.value(c.Args[0]), zero)
		return t.f.Op(spirv.OpSelect, ty, nz, t.b.Constant(ty, 1), zero), true
	case op == "discard_fragment":
		if t.model != spirv.ExecutionModelFragment {
			return 0, false
		}
		t.b.Extension("SPV_EXT_demote_to_helper_invocation")
		t.b.Capability(spirv.CapabilityDemoteToHelperInvocationEXT)
		t.traceCount()
		t.f.Emit(spirv.OpDemoteToHelperInvocationEXT)
		return 0, true
	case strings.HasPrefix(op, "atomic."):
		return t.atomic(c, op, rest)
	case op == "sincos" || op == "fast_sincos":
		// sincos(x, ptr cos) returns sin(x) and stores cos(x).
		if len(c.Args) != 2 || !isFloat(c.Type()) || !isPointer(c.Args[1].Type()) {
			return 0, false
		}
		ty := t.typ(c.Type())
		x := t.value(c.Args[0])
		p := t.ptr(c.Args[1])
		if p.root != nil {
			t.store(p, 0, c.Type(), t.f.ExtInst(ty, spirv.GLSLCos, x), 4)
		}
		return t.f.ExtInst(ty, spirv.GLSLSin, x), true
	case op == "modf" || op == "fast_modf" || op == "frexp" || op == "fast_frexp":
		return t.outPointerMath(c, strings.TrimPrefix(op, "fast_"))
	case op == "any" || op == "all":
		if len(c.Args) != 1 || intBits(c.Args[0].Type()) != 1 {
			return 0, false
		}
		if lanes(c.Args[0].Type()) == 1 {
			return t.value(c.Args[0]), true
		}
		opc := spirv.OpAny
		if op == "all" {
			opc = spirv.OpAll
		}
		return t.f.Op(opc, t.b.TypeBool(), t.value(c.Args[0])), true
	case op == "wg.barrier" || op == "mem.barrier":
		return t.barrier(c, op)
	case isSIMDOp(op):
		return t.simd(c, op, rest)
	}
	base := strings.TrimPrefix(strings.TrimPrefix(op, "fast_"), "precise_")
	if len(rest) > 0 && (rest[0] == "u" || rest[0] == "s") {
		base += "." + rest[0]
	}
	m, ok := mathOps[base]
	if !ok || len(c.Args) != m.arity {
		return 0, false
	}
	ty := c.Type()
	switch m.kind {
	case mathFloat, mathMixed:
		if _, ok := air.Scalar(ty).(*air.FloatType); !ok {
			return 0, false
		}
	case mathVector:
		if !isFloat(ty) || !isFloat(c.Args[0].Type()) {
			return 0, false
		}
	case mathInt32:
		if intBits(ty) != 32 {
			return 0, false
		}
		if m.core == spirv.OpDPdx || m.core == spirv.OpDPdy || m.core == spirv.OpFwidth {
			if t.model != spirv.ExecutionModelFragment {
				return 0, false
			}
		}
	default:
		if intBits(ty) == 0 || intBits(ty) == 1 {
			return 0, false
		}
	}
	args := make([]spirv.ID, len(c.Args))
	for i, a := range c.Args {
		args[i] = t.value(a)
	}
	if m.precise != nil && !strings.HasPrefix(op, "fast_") && scalarBits(air.Scalar(ty)) == 32 {
		return m.precise(t, ty, args), true
	}
	if m.fast != nil && strings.HasPrefix(op, "fast_") && scalarBits(air.Scalar(ty)) == 32 {
		return m.fast(t, ty, args), true
	}
	if wide, ok := halfInFloat(base, ty); ok {
		// Evaluated in float and rounded once to half.
		for i := range args {
			args[i] = t.f.Op(spirv.OpFConvert, t.typ(wide), args[i])
		}
		return t.f.Op(spirv.OpFConvert, t.typ(ty), t.lowerMath(m, wide, args)), true
	}
	return t.lowerMath(m, ty, args), true
}

// lowerMath emits math operation m of type ty on args.
func (t *translator) lowerMath(m mathOp, ty air.Type, args []spirv.ID) spirv.ID {
	switch {
	case m.lower != nil:
		return m.lower(t, ty, args)
	case m.core != 0:
		return t.f.Op(m.core, t.typ(ty), args...)
	}
	return t.f.ExtInst(t.typ(ty), m.glsl, args...)
}

// halfTranscendentals are the math operations a half (or half vector) call
// of is evaluated in float and rounded once to half: the float result is
// within a few float ULPs, so the half is within one half ULP of the
// correctly rounded value, inside every half row of MSL §8.4 — and drivers
// that mishandle 16-bit transcendentals (lavapipe 22.3 crashes on a half
// Exp, Exp2 or Sin) are not asked for them.
var halfTranscendentals = map[string]bool{
	"exp": true, "exp2": true, "exp10": true, "log": true, "log2": true, "log10": true,
	"sin": true, "cos": true, "tan": true, "asin": true, "acos": true, "atan": true, "atan2": true,
	"sinh": true, "cosh": true, "tanh": true, "asinh": true, "acosh": true, "atanh": true,
	"pow": true, "powr": true, "sinpi": true, "cospi": true, "tanpi": true,
}

// halfInFloat reports whether operation base of type ty is evaluated in
// float (halfTranscendentals), and that float type.
func halfInFloat(base string, ty air.Type) (air.Type, bool) {
	f, ok := air.Scalar(ty).(*air.FloatType)
	if !ok || f.Kind != air.Half || !halfTranscendentals[base] {
		return nil, false
	}
	wide := air.Type(&air.FloatType{Kind: air.Float})
	if v, ok := ty.(*air.VectorType); ok {
		wide = &air.VectorType{Len: v.Len, Elem: wide}
	}
	return wide, true
}

func lowerSaturate(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return t.f.ExtInst(t.typ(ty), spirv.GLSLNClamp, a[0], t.floatConst(ty, 0), t.floatConst(ty, 1))
}

// lowerFract is Metal's fract, fmin(x − floor(x), the largest value below
// 1): GLSL's Fract alone gives 1.0 for a tiny negative x, where Metal gives
// 0x1.fffffep-1 (float). A NaN stays NaN (the comparison is false).
func lowerFract(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	r := t.f.ExtInst(fty, spirv.GLSLFract, a[0])
	below := 1 - math.Pow(2, -24) // float
	switch air.Scalar(ty).(*air.FloatType).Kind {
	case air.Half:
		below = 1 - math.Pow(2, -11)
	case air.Double:
		below = 1 - math.Pow(2, -53)
	}
	c := t.floatConst(ty, below)
	over := t.f.Op(spirv.OpFOrdGreaterThan, t.boolType(ty), r, c)
	return t.f.Op(spirv.OpSelect, fty, over, c, r)
}

// lowerRound is Metal's round: half-way cases away from zero, computed as
// trunc(x) stepped one away from zero when |x - trunc(x)| >= 0.5 (exact for
// every float, and it keeps the sign of -0).
func lowerRound(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	bty := t.boolType(ty)
	tr := t.f.ExtInst(fty, spirv.GLSLTrunc, a[0])
	d := t.f.ExtInst(fty, spirv.GLSLFAbs, t.f.Op(spirv.OpFSub, fty, a[0], tr))
	far := t.f.Op(spirv.OpFOrdGreaterThanEqual, bty, d, t.floatConst(ty, 0.5))
	step := t.f.Op(spirv.OpFAdd, fty, tr, t.f.ExtInst(fty, spirv.GLSLFSign, a[0]))
	return t.f.Op(spirv.OpSelect, fty, far, step, tr)
}

// lowerSign is Metal's sign: 1 or -1 away from zero, x itself for ±0, 0 for NaN.
func lowerSign(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	bty := t.boolType(ty)
	x := a[0]
	pos := t.f.Op(spirv.OpFOrdGreaterThan, bty, x, t.floatConst(ty, 0))
	neg := t.f.Op(spirv.OpFOrdLessThan, bty, x, t.floatConst(ty, 0))
	nan := t.f.Op(spirv.OpIsNan, bty, x)
	z := t.f.Op(spirv.OpSelect, fty, nan, t.floatConst(ty, 0), x)
	z = t.f.Op(spirv.OpSelect, fty, neg, t.floatConst(ty, -1), z)
	return t.f.Op(spirv.OpSelect, fty, pos, t.floatConst(ty, 1), z)
}

// lowerFMax3 is Metal's fmax3(x, y, z), fmax(fmax(x, y), z): NMax keeps
// fmax's rule that a NaN operand yields the other.
func lowerFMax3(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	return t.f.ExtInst(fty, spirv.GLSLNMax, t.f.ExtInst(fty, spirv.GLSLNMax, a[0], a[1]), a[2])
}

// lowerFMin3 is Metal's fmin3(x, y, z), fmin(fmin(x, y), z).
func lowerFMin3(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	return t.f.ExtInst(fty, spirv.GLSLNMin, t.f.ExtInst(fty, spirv.GLSLNMin, a[0], a[1]), a[2])
}

// lowerMix is Metal's mix(x, y, a) = x + (y − x)·a (the Metal Shading
// Language's definition), not GLSL's FMix, x·(1 − a) + y·a, which rounds
// differently: mix(2^31, 1.5·2^54, 2^-46) is 0x4f000001 by Metal's formula
// and 0x4f000002 by GLSL's (airpipe opcheck found it on lavapipe).
func lowerMix(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	d := t.f.Op(spirv.OpFSub, fty, a[1], a[0])
	return t.f.Op(spirv.OpFAdd, fty, a[0], t.f.Op(spirv.OpFMul, fty, d, a[2]))
}

// lowerAtan2 is atan2 with C's values at the origin (GLSL leaves them
// undefined): atan2(±0, +0) = ±0 and atan2(±0, -0) = ±π.
func lowerAtan2(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	bty := t.boolType(ty)
	y, x := a[0], a[1]
	r := t.f.ExtInst(fty, spirv.GLSLAtan2, y, x)
	zero := t.floatConst(ty, 0)
	origin := t.f.Op(spirv.OpLogicalAnd, bty, t.f.Op(spirv.OpFOrdEqual, bty, y, zero), t.f.Op(spirv.OpFOrdEqual, bty, x, zero))
	// x's sign bit: 1/x is -inf for -0.
	negX := t.f.Op(spirv.OpFOrdLessThan, bty, t.f.Op(spirv.OpFDiv, fty, t.floatConst(ty, 1), x), zero)
	pi := t.f.Op(spirv.OpFMul, fty, t.f.ExtInst(fty, spirv.GLSLFSign, t.f.Op(spirv.OpFDiv, fty, t.floatConst(ty, 1), y)), t.floatConst(ty, 3.14159265358979323846))
	atOrigin := t.f.Op(spirv.OpSelect, fty, negX, pi, y)
	return t.f.Op(spirv.OpSelect, fty, origin, atOrigin, r)
}

func lowerExp10(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	return t.f.ExtInst(fty, spirv.GLSLExp2, t.f.Op(spirv.OpFMul, fty, a[0], t.floatConst(ty, 3.321928094887362)))
}

func lowerLog10(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	return t.f.Op(spirv.OpFMul, fty, t.f.ExtInst(fty, spirv.GLSLLog2, a[0]), t.floatConst(ty, 0.30102999566398120))
}

// boolType is the bool (or bool vector) type with ty's lanes.
func (t *translator) boolType(ty air.Type) spirv.ID {
	if n := lanes(ty); n > 1 {
		return t.b.TypeVector(t.b.TypeBool(), uint32(n))
	}
	return t.b.TypeBool()
}

// convert lowers air.convert.<dst kind>.<dst type>.<src kind>.<src type>.
func (t *translator) convert(c *air.Call, rest []string) (spirv.ID, bool) {
	if len(rest) != 4 || len(c.Args) != 1 {
		return 0, false
	}
	dk, sk := rest[0], rest[2]
	src, dst := c.Args[0].Type(), c.Type()
	x := t.value(c.Args[0])
	ty := t.typ(dst)
	db, sb := intBits(dst), intBits(src)
	switch {
	case dk == "f" && sk == "f":
		if scalarBits(air.Scalar(src)) == scalarBits(air.Scalar(dst)) {
			return x, true
		}
		return t.f.Op(spirv.OpFConvert, ty, x), true
	case dk == "f" && (sk == "u" || sk == "s"):
		if sb == 1 {
			return t.f.Op(spirv.OpSelect, ty, x, t.floatConst(dst, 1), t.zeroOf(dst)), true
		}
		if sk == "u" {
			return t.f.Op(spirv.OpConvertUToF, ty, x), true
		}
		return t.f.Op(spirv.OpConvertSToF, ty, x), true
	case (dk == "u" || dk == "s") && sk == "f":
		if db == 1 {
			return t.f.Op(spirv.OpFUnordNotEqual, ty, x, t.zeroOf(src)), true
		}
		return t.saturatingFToI(x, src, dst, dk == "s"), true
	case (dk == "u" || dk == "s") && (sk == "u" || sk == "s"):
		switch {
		case db == sb:
			return x, true
		case db == 1:
			return t.f.Op(spirv.OpINotEqual, ty, x, t.intConst(src, 0)), true
		case sb == 1:
			return t.f.Op(spirv.OpSelect, ty, x, t.intConst(dst, 1), t.intConst(dst, 0)), true
		case sk == "s":
			return t.f.Op(spirv.OpSConvert, ty, x), true
		}
		return t.f.Op(spirv.OpUConvert, ty, x), true
	}
	return 0, false
}

// saturatingFToI is Metal's float-to-integer conversion: toward zero,
// clamped to the destination's range, NaN to 0 (SPIR-V leaves out-of-range
// conversions undefined, so the clamp comes first and NaN is selected away).
func (t *translator) saturatingFToI(x spirv.ID, src, dst air.Type, signed bool) spirv.ID {
	bits := intBits(dst)
	var lo, hi float64
	if signed {
		lo, hi = -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)-1
	} else {
		lo, hi = 0, math.Ldexp(1, bits)-1
	}
	// The largest value of the source type at or below hi (2^31-1 is not a
	// float: 2^31-128 is).
	fhi := hi
	switch scalarBits(air.Scalar(src)) {
	case 32:
		if f := float32(hi); float64(f) > hi {
			fhi = float64(math.Nextafter32(f, 0))
		} else {
			fhi = float64(f)
		}
	case 16:
		fhi = math.Min(hi, 65504)
	}
	fty := t.typ(src)
	c := t.f.ExtInst(fty, spirv.GLSLFClamp, x, t.floatConst(src, lo), t.floatConst(src, fhi))
	op := spirv.OpConvertFToU
	if signed {
		op = spirv.OpConvertFToS
	}
	r := t.f.Op(op, t.typ(dst), c)
	if fhi < hi {
		// Values at or above 2^bits(-1) saturate to the integer maximum itself.
		big := t.f.Op(spirv.OpFOrdGreaterThanEqual, t.boolType(src), x, t.floatConst(src, hi+1))
		r = t.f.Op(spirv.OpSelect, t.typ(dst), big, t.intConst(dst, uint64(int64(hi))), r)
	}
	nan := t.f.Op(spirv.OpIsNan, t.boolType(src), x)
	return t.f.Op(spirv.OpSelect, t.typ(dst), nan, t.intConst(dst, 0), r)
}

// llvmIntrinsic lowers the llvm.* intrinsics the corpus uses.
func (t *translator) llvmIntrinsic(c *air.Call, name string) (spirv.ID, bool) {
	switch {
	case strings.HasPrefix(name, "llvm.lifetime."), strings.HasPrefix(name, "llvm.dbg."),
		strings.HasPrefix(name, "llvm.assume"), strings.HasPrefix(name, "llvm.experimental.noalias"):
		return 0, true
	case strings.HasPrefix(name, "llvm.memcpy."), strings.HasPrefix(name, "llvm.memmove."):
		return 0, t.memcpy(c)
	case strings.HasPrefix(name, "llvm.memset."):
		return 0, t.memset(c)
	}
	if id, ok, handled := t.llvmBits(c, name); handled { // llvmbits.go
		return id, ok
	}
	base := strings.TrimPrefix(name, "llvm.")
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	m, ok := mathOps[llvmMath[base]]
	if !ok || len(c.Args) < m.arity {
		return 0, false
	}
	args := make([]spirv.ID, m.arity)
	for i := range args {
		args[i] = t.value(c.Args[i])
	}
	m.lower, m.precise, m.fast = nil, nil, nil // only glsl, core and arity (llvmMath)
	if wide, ok := halfInFloat(llvmMath[base], c.Type()); ok {
		for i := range args {
			args[i] = t.f.Op(spirv.OpFConvert, t.typ(wide), args[i])
		}
		return t.f.Op(spirv.OpFConvert, t.typ(c.Type()), t.lowerMath(m, wide, args)), true
	}
	return t.lowerMath(m, c.Type(), args), true
}

// llvmMath names, for each llvm.* math intrinsic the corpus uses, the
// mathOps entry it lowers like (only its glsl, core and arity are used).
var llvmMath = map[string]string{
	"fabs": "fabs", "abs": "abs", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
	"sqrt": "sqrt", "fma": "fma", "fmuladd": "fma", "maxnum": "fmax", "minnum": "fmin",
	"exp2": "exp2", "log2": "log2", "pow": "pow", "sin": "sin", "cos": "cos",
	"umin": "min.u", "umax": "max.u", "smin": "min.s", "smax": "max.s",
	"ctpop": "popcount", "bitreverse": "reverse_bits",
}

// memcpy copies a constant number of bytes word by word (both pointers word aligned).
func (t *translator) memcpy(c *air.Call) bool {
	if len(c.Args) < 3 {
		return false
	}
	n, ok := c.Args[2].(*air.ConstInt)
	if !ok || n.Bits%4 != 0 || n.Bits > 4096 {
		t.miss.add(CodeUnhandledInstruction, "memcpy of a variable or unaligned length")
		return true
	}
	dst, src := t.ptr(c.Args[0]), t.ptr(c.Args[1])
	if dst.root == nil || src.root == nil {
		return true
	}
	u32 := &air.IntType{Bits: 32}
	for k := uint64(0); k < n.Bits; k += 4 {
		w := t.load(src, k, u32, 4)
		t.store(dst, k, u32, w, 4)
	}
	return true
}

// memset stores a byte over a constant number of bytes (memset.go).
func (t *translator) memset(c *air.Call) bool { return t.memsetBytes(c) }

package cpuref

import (
	"fmt"
	"strconv"
	"strings"
)

// The air.* operations the reference defines, and why each may be defined
// here without putting this package's reading on both sides of the
// comparison (seed 003 §4, item 4): every one is either an LLVM instruction
// or intrinsic whose result IEEE 754 or two's-complement arithmetic fixes bit
// for bit, with Metal's meaning for the name taken from the Metal Shading
// Language specification (which follows C and OpenCL), not from airpipe's
// translator. Operations whose result Metal does not fix to the bit are
// listed in ApproximateOps and never judged, or, when only the order of
// their sums and products is open, in OrderOnlyOps (orderonly.go).
//
// ExactOps names the families; the type suffix is read from the module's own
// declaration.
var ExactOps = []string{
	"air.convert.* (to bool: x != 0, a NaN true; from bool: 0 or 1; integer↔integer: zext/sext/trunc; integer→float: uitofp/sitofp, round to nearest even; float→float: fpext/fptrunc; float→integer: round toward zero, saturating, NaN→0 — llvm.fpto[su]i.sat)",
	"air.min.[su].* / air.max.[su].* (integer compare and select)",
	"air.fmin/fmax (and fast_): llvm.minnum/maxnum (C fminf/fmaxf: a NaN operand yields the other); fmin3/fmax3 as two of them, fmax(fmax(x, y), z)",
	"air.fabs, floor, ceil, trunc, rint, round (and fast_): llvm.fabs/floor/ceil/trunc/rint/round (C fabsf, floorf, ceilf, truncf, rintf, roundf)",
	"air.fract (and fast_): fmin(x − floor(x), the largest value below 1), one IEEE subtraction (Metal lists fract as correctly rounded; OpenCL defines the formula)",
	"air.saturate / clamp (and fast_): minnum(maxnum(x, lo), hi)",
	"air.fma (and fast_): llvm.fma (C fmaf, one rounding)",
	"air.sign: 1.0 for x > 0, -1.0 for x < 0, ±0 kept, 0.0 for a NaN (the Metal Shading Language's definition)",
	"air.any / air.all of bool vectors: llvm.vector.reduce.or / and",
	"air.abs.[su] of integers: llvm.abs (the most negative signed value is itself)",
	"air.pack.{unorm,snorm}{4x8,2x16}.*, air.unpack.* (packops.go): Metal's normalized-integer conversions, c / (2^n − 1) and max(−1, c / (2^(n−1) − 1)) correctly rounded, intRTNE(clamp(x) · (2^n − 1)) with NaN → 0; the sRGB forms are approximate (powr)",
	"air.convert.f.f16.f.bf16 / air.convert.f.bf16.f.f16 (packops.go): widen exactly to float, round once (fptrunc)",
	"air.atomic.global.{add,sub,and,or,xor,min,max,xchg}.[su].i32, load, store: atomicrmw / load / store on the word (threads run one after another, so each is trivially atomic); air.atomic.local.* alike on threadgroup memory (threads switch only at barriers)",
	"air.atomic.{global,local}.{add,sub,xchg,load,store}.f32 (atomicf.go): atomicrmw fadd / fsub / xchg, load / store atomic of the float; a module adding floats atomically has its float outputs compared within the ULP bound (the threads' order is open)",
	"air.simd_*, air.is_uniform.*, air.simdgroup.barrier (simd.go): the lanes of a simdgroup meet at each call (Options.SIMDWidth); shuffles, broadcasts, reductions, prefix scans, ballots and votes with Metal's meaning (float sums and products are order-only)",
	"air.wg.barrier (threadgroup.go): every thread of the group waits until all reach the same barrier; mem_flags order device (1), threadgroup (2) and texture (4) memory for the write-conflict check",
	"air.sample_texture_*, air.sample_depth_*, air.read_texture_* (textures.go): the uniform texture's texel, TexelWords (a read outside the texture is out of bounds; residency is 1)",
	"air.get_{width,height,depth}_texture_* at LOD 0, air.get_array_size_texture_*, air.get_num_mip_levels_texture_* (textures.go): TextureExtent, 1 layer, 1 mip level — the textures the device binds (another LOD is out of bounds)",
}

// ApproximateOps are the operation names (without air., fast_ and the type
// suffix) that Metal does not define to the bit and the reference does not
// define at all: transcendental functions, square roots and divisions have
// ULP bounds, not exact results, and length/normalize/distance combine an
// unspecified order of sums with a square root. A module calling one is set
// aside (KindApproximate), never compared. The approximate operations whose
// only freedom is the order and fusing of additions and multiplications
// (dot, mix, cross, length_squared, distance_squared) are OrderOnlyOps: they
// are defined in one canonical order and reported in Result.Approximate.
var ApproximateOps = []string{
	"sqrt", "rsqrt", "sin", "cos", "tan", "sincos", "asin", "acos", "atan", "atan2",
	"sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp", "exp2", "exp10",
	"log", "log2", "log10", "pow", "powr", "length", "distance",
	"normalize", "divide", "recip", "smoothstep", "fmod",
	"cospi", "sinpi", "tanpi", "ldexp", "frexp", "modf", "hypot", "cbrt",
}

// declaration is an air.* function the module declares.
type declaration struct {
	Name   string
	Ret    string
	Params []string
	Line   int
}

// declarations lists the module's "declare" lines of air.* functions.
func declarations(t *textModule) ([]declaration, error) {
	var out []declaration
	for i, l := range t.lines {
		if !strings.HasPrefix(l, "declare ") {
			continue
		}
		at := strings.Index(l, " @")
		if at < 0 {
			continue
		}
		name, rest, ok := symbolAt(l[at+2:])
		if !ok || !strings.HasPrefix(name, "air.") {
			continue
		}
		end := matching(rest, 0)
		if !strings.HasPrefix(rest, "(") || end < 0 {
			return nil, fmt.Errorf("cpuref: declare line %d: unbalanced parameter list", i+1)
		}
		out = append(out, declaration{Name: name, Ret: returnType(l[len("declare "):at]), Params: paramTypes(rest[1:end]), Line: i})
	}
	return out, nil
}

// returnType drops attributes before a declaration's return type.
func returnType(s string) string {
	for _, f := range []string{"dso_local", "noundef", "zeroext", "signext", "inreg", "noalias", "nonnull"} {
		s = strings.ReplaceAll(" "+s+" ", " "+f+" ", " ")
	}
	return strings.TrimSpace(s)
}

// defineOp returns the LLVM IR definition of an air.* operation, or a
// *NotJudgeableError saying why the reference will not define it.
func defineOp(d declaration) (string, error) {
	n := d.Name
	op := strings.TrimPrefix(n, "air.")
	base, _, _ := strings.Cut(op, ".")
	plain := strings.TrimPrefix(base, "fast_")
	switch {
	case n == "air.get_read_sampler":
		return getReadSamplerOp(d) // readsampler.go
	case isReadSamplerRead(d):
		return readSamplerRead(d) // readsampler.go
	case n == "air.discard_fragment":
		return discardOp(d) // discard.go
	case isTextureOp(n):
		return textureOp(d)
	case n == "air.wg.barrier":
		return barrierOp(d) // threadgroup.go
	case isSIMDName(n):
		return simdOp(d) // simd.go
	case strings.Contains(n, "barrier") || strings.HasPrefix(n, "air.fence"):
		return "", notJudgeable(KindBarrier, n, "%s synchronises threads at a granularity the reference does not run (only air.wg.barrier, a threadgroup barrier, is defined)", n)
	case strings.HasPrefix(n, "air.simd") || strings.HasPrefix(n, "air.quad") || strings.HasPrefix(n, "air.is_uniform"):
		return "", notJudgeable(KindSIMDGroup, n, "%s works across a SIMD-group in a way the reference does not run (simdgroup matrices, async copies)", n)
	case strings.HasPrefix(n, "air.normalize_function_constant"):
		return normalizePredicate(d)
	case n == "air.is_function_constant_defined":
		return isDefinedOp(d) // fcdefined.go
	case isPackOp(n):
		return packOp(d) // packops.go
	}
	if def, ok := bfloatHalfConvert(d); ok {
		return def, nil
	}
	if isOrderOnly(plain) {
		return orderOnlyOp(d, plain)
	}
	if isDerivative(plain) {
		return derivativeOp(d) // run only after checkDerivatives proved the operands pixel-independent
	}
	for _, a := range ApproximateOps {
		if plain == a {
			return "", notJudgeable(KindApproximate, n, "%s has no bit-exact definition in Metal (a ULP bound or an unspecified order of operations)", n)
		}
	}
	def, ok := "", sane(d.Ret) && allSane(d.Params)
	if ok {
		def, ok = exactOp(d, op, base, plain)
	}
	if !ok {
		return "", notJudgeable(KindUnknownOp, n, "%s is not among the operations the reference defines", n)
	}
	return def, nil
}

// exactOp builds the body of an exactly specified operation.
func exactOp(d declaration, op, base, plain string) (string, bool) {
	parts := strings.Split(op, ".")
	arg := func(i int) string { return fmt.Sprintf("%%a%d", i) }
	var body string
	switch {
	case base == "convert" && len(d.Params) == 1 && len(parts) == 5:
		body = convertBody(d.Ret, d.Params[0], parts[1], parts[3])
	case (base == "min" || base == "max") && len(d.Params) == 2 && len(parts) >= 2 && (parts[1] == "s" || parts[1] == "u"):
		pred := map[string]string{"mins": "slt", "minu": "ult", "maxs": "sgt", "maxu": "ugt"}[base+parts[1]]
		body = fmt.Sprintf("  %%c = icmp %s %s %s, %s\n  %%r = select %s %%c, %s %s, %s %s\n  ret %s %%r\n",
			pred, d.Ret, arg(0), arg(1), boolOf(d.Ret), d.Ret, arg(0), d.Ret, arg(1), d.Ret)
	case (base == "any" || base == "all") && d.Ret == "i1" && len(d.Params) == 1 && elem(d.Params[0]) == "i1":
		body = reduceBoolBody(d.Params[0], base)
	case base == "abs" && len(parts) >= 2 && (parts[1] == "s" || parts[1] == "u") && len(d.Params) == 1 && d.Params[0] == d.Ret &&
		!isFloatType(d.Ret) && elemBits(d.Ret) > 0:
		body = intAbsBody(d.Ret, parts[1] == "s")
	case isFloatType(d.Ret) && allEqual(d.Ret, d.Params):
		body = floatBody(d.Ret, plain, len(d.Params))
	case strings.HasPrefix(op, "atomic.") && strings.HasSuffix(op, ".f32"):
		body = floatAtomicBody(d, parts) // atomicf.go
	case (strings.HasPrefix(op, "atomic.global.") || strings.HasPrefix(op, "atomic.local.")) && d.Ret == "i32",
		strings.HasPrefix(op, "atomic.global.store."), strings.HasPrefix(op, "atomic.local.store."):
		body = atomicBody(d, parts)
	}
	if body == "" {
		return "", false
	}
	var ps []string
	for i, p := range d.Params {
		ps = append(ps, p+" "+arg(i))
	}
	return fmt.Sprintf("define internal %s @%q(%s) {\n%s}\n", d.Ret, d.Name, strings.Join(ps, ", "), body), true
}

// sane reports whether t is a type the definitions may be built for: a
// scalar or a vector of at most 16 elements (Metal's are at most 4), so a
// hostile declaration cannot make splat build a billion-element constant.
func sane(t string) bool {
	var n int
	if _, err := fmt.Sscanf(vecLen(t), "%d", &n); err != nil {
		return false
	}
	return n >= 1 && n <= 16
}

func allSane(ts []string) bool {
	for _, t := range ts {
		if !sane(t) {
			return false
		}
	}
	return true
}

func allEqual(t string, ps []string) bool {
	for _, p := range ps {
		if p != t {
			return false
		}
	}
	return len(ps) > 0
}

// floatBody defines the float operations of ExactOps on type t.
func floatBody(t, op string, n int) string {
	m := mangle(t)
	call := func(name, args string) string { return fmt.Sprintf("call %s @llvm.%s.%s(%s)", t, name, m, args) }
	a := func(i int) string { return fmt.Sprintf("%s %%a%d", t, i) }
	var s string
	switch {
	case n == 1 && (op == "fabs" || op == "floor" || op == "ceil" || op == "trunc" || op == "rint" || op == "round"):
		s = "  %r = " + call(op, a(0)) + "\n"
	case n == 2 && (op == "fmin" || op == "fmax"):
		s = "  %r = " + call(map[string]string{"fmin": "minnum", "fmax": "maxnum"}[op], a(0)+", "+a(1)) + "\n"
	case n == 3 && (op == "fmin3" || op == "fmax3"):
		// Metal: fmax3(x, y, z) = fmax(fmax(x, y), z), likewise fmin3.
		f := map[string]string{"fmin3": "minnum", "fmax3": "maxnum"}[op]
		s = "  %l = " + call(f, a(0)+", "+a(1)) + "\n  %r = " + call(f, t+" %l, "+a(2)) + "\n"
	case n == 1 && op == "saturate":
		s = "  %l = " + call("maxnum", a(0)+", "+t+" "+splat(t, "0.0")) + "\n  %r = " + call("minnum", t+" %l, "+t+" "+splat(t, "1.0")) + "\n"
	case n == 3 && op == "clamp":
		s = "  %l = " + call("maxnum", a(0)+", "+a(1)) + "\n  %r = " + call("minnum", t+" %l, "+a(2)) + "\n"
	case n == 1 && op == "sign":
		// Metal: 1.0 if x > 0, -1.0 if x < 0, x itself for ±0 (the sign of
		// zero kept), 0.0 for a NaN.
		s = "  %gt = fcmp ogt " + a(0) + ", " + splat(t, "0.0") + "\n  %lt = fcmp olt " + a(0) + ", " + splat(t, "0.0") +
			"\n  %nan = fcmp uno " + a(0) + ", %a0\n  %z = select " + boolOf(t) + " %nan, " + t + " " + splat(t, "0.0") + ", " + a(0) +
			"\n  %n = select " + boolOf(t) + " %lt, " + t + " " + splat(t, "-1.0") + ", " + t + " %z" +
			"\n  %r = select " + boolOf(t) + " %gt, " + t + " " + splat(t, "1.0") + ", " + t + " %n\n"
	case n == 3 && op == "fma":
		s = "  %r = " + call("fma", a(0)+", "+a(1)+", "+a(2)) + "\n"
	case n == 1 && op == "fract":
		// Metal (and OpenCL): fmin(x − floor(x), the largest value below 1);
		// one IEEE subtraction, so correctly rounded. A NaN stays NaN.
		below := map[string]string{"float": "0x3FEFFFFFE0000000", "half": "0xH3BFF", "double": "0x3FEFFFFFFFFFFFFF"}[elem(t)]
		if below == "" {
			return ""
		}
		c := below
		if strings.HasPrefix(t, "<") {
			c = "<" + strings.TrimSuffix(strings.Repeat(elem(t)+" "+below+", ", mustAtoi(vecLen(t))), ", ") + ">"
		}
		s = "  %fl = " + call("floor", a(0)) + "\n  %d = fsub " + t + " %a0, %fl\n" +
			"  %over = fcmp ogt " + t + " %d, " + c + "\n  %r = select " + boolOf(t) + " %over, " + t + " " + c + ", " + t + " %d\n"
	default:
		return ""
	}
	return s + "  ret " + t + " %r\n"
}

// reduceBoolBody defines air.any / air.all of a bool or bool vector: true
// when any (all) of its components is true.
func reduceBoolBody(t, op string) string {
	if !strings.HasPrefix(t, "<") {
		return "  ret i1 %a0\n"
	}
	red := map[string]string{"any": "or", "all": "and"}[op]
	return fmt.Sprintf("  %%r = call i1 @llvm.vector.reduce.%s.%s(%s %%a0)\n  ret i1 %%r\n", red, mangle(t), t)
}

// intAbsBody defines air.abs.[su] of an integer: the magnitude for signed
// operands (two's complement, so the most negative value is itself),
// the operand for unsigned ones.
func intAbsBody(t string, signed bool) string {
	if !signed {
		return fmt.Sprintf("  ret %s %%a0\n", t)
	}
	return fmt.Sprintf("  %%r = call %s @llvm.abs.%s(%s %%a0, i1 false)\n  ret %s %%r\n", t, mangle(t), t, t)
}

// convertBody defines air.convert.<dk>.<dt>.<sk>.<st>. A conversion to
// i1 is C++'s conversion to bool, which the Metal front end lowers to it
// (SDL's `if (scRGB_output)` on a float is air.convert.u.i1.f.f32): true
// for every non-zero value, a NaN included (x != 0), never a truncation
// (which would make 0.5 or 2 false). A conversion from i1 is bool's
// promotion: false 0, true 1, whatever kind the name gives the source.
func convertBody(dst, src, dk, sk string) string {
	df, sf := isFloatType(dst), isFloatType(src)
	db, sb := elemBits(dst), elemBits(src)
	if db == 0 || sb == 0 || vecLen(dst) != vecLen(src) || dk == "b" || sk == "b" {
		return ""
	}
	if db == 1 && !df && sb > 1 {
		cmp := "icmp ne"
		if sf {
			cmp = "fcmp une"
		}
		return fmt.Sprintf("  %%r = %s %s %%a0, zeroinitializer\n  ret %s %%r\n", cmp, src, dst)
	}
	if sb == 1 && !sf {
		sk = "u"
	}
	var inst string
	switch {
	case !df && !sf && db > sb && sk == "u":
		inst = "zext"
	case !df && !sf && db > sb:
		inst = "sext"
	case !df && !sf && db < sb:
		inst = "trunc"
	case !df && !sf || df && sf && db == sb:
		return fmt.Sprintf("  ret %s %%a0\n", dst)
	case df && !sf && sk == "u":
		inst = "uitofp"
	case df && !sf:
		inst = "sitofp"
	case df && sf && db > sb:
		inst = "fpext"
	case df && sf:
		inst = "fptrunc"
	default: // float → integer
		sat := "fptosi.sat"
		if dk == "u" {
			sat = "fptoui.sat"
		}
		return fmt.Sprintf("  %%r = call %s @llvm.%s.%s.%s(%s %%a0)\n  ret %s %%r\n", dst, sat, mangle(dst), mangle(src), src, dst)
	}
	return fmt.Sprintf("  %%r = %s %s %%a0 to %s\n  ret %s %%r\n", inst, src, dst, dst)
}

// atomicBody defines air.atomic.global.<op>.[su].i32(ptr, i32 v, order,
// scope, volatile) as an atomicrmw, and load/store; air.atomic.local.* alike
// on a threadgroup (addrspace(3)) pointer.
func atomicBody(d declaration, parts []string) string {
	if len(parts) < 4 {
		return ""
	}
	space := map[string]string{"global": "ptr addrspace(1)", "local": "ptr addrspace(3)"}[parts[1]]
	if len(d.Params) < 1 || space == "" || d.Params[0] != space {
		return ""
	}
	op := parts[2]
	// airpipe_atomic tells the harness the word is accessed atomically, so
	// that several threads changing it is not a write conflict.
	mark := "  call void @airpipe_atomic(ptr addrspace(1) %a0)\n"
	if parts[1] == "local" {
		mark = "  %w = addrspacecast ptr addrspace(3) %a0 to ptr addrspace(1)\n  call void @airpipe_atomic(ptr addrspace(1) %w)\n"
	}
	if op == "load" {
		return mark + "  %r = load atomic i32, " + space + " %a0 seq_cst, align 4\n  ret i32 %r\n"
	}
	if op == "store" && len(d.Params) >= 2 && d.Params[1] == "i32" {
		return mark + "  store atomic i32 %a1, " + space + " %a0 seq_cst, align 4\n  ret void\n"
	}
	signed := parts[3] == "s"
	rmw := map[string]string{"add": "add", "sub": "sub", "and": "and", "or": "or", "xor": "xor", "xchg": "xchg"}[op]
	switch {
	case op == "min" && signed:
		rmw = "min"
	case op == "min":
		rmw = "umin"
	case op == "max" && signed:
		rmw = "max"
	case op == "max":
		rmw = "umax"
	}
	if rmw == "" || len(d.Params) < 2 || d.Params[1] != "i32" {
		return ""
	}
	return mark + fmt.Sprintf("  %%r = atomicrmw %s %s %%a0, i32 %%a1 seq_cst, align 4\n  ret i32 %%r\n", rmw, space)
}

// elem returns a type's element type ("<2 x float>" → "float").
func elem(t string) string {
	if strings.HasPrefix(t, "<") {
		if _, e, ok := strings.Cut(strings.Trim(t, "<>"), " x "); ok {
			return e
		}
	}
	return t
}

func vecLen(t string) string {
	if strings.HasPrefix(t, "<") {
		n, _, _ := strings.Cut(strings.Trim(t, "<>"), " x ")
		return n
	}
	return "1"
}

func isFloatType(t string) bool {
	e := elem(t)
	return e == "float" || e == "half" || e == "double"
}

func elemBits(t string) int {
	switch e := elem(t); e {
	case "half":
		return 16
	case "float":
		return 32
	case "double":
		return 64
	case "i1", "i8", "i16", "i32", "i64":
		var n int
		fmt.Sscanf(e[1:], "%d", &n)
		return n
	}
	return 0
}

// mangle is LLVM's overloaded-intrinsic suffix of a type.
func mangle(t string) string {
	m := map[string]string{"float": "f32", "half": "f16", "double": "f64"}
	e := elem(t)
	s, ok := m[e]
	if !ok {
		s = e
	}
	if strings.HasPrefix(t, "<") {
		return "v" + vecLen(t) + s
	}
	return s
}

// boolOf is the i1 type matching t's shape.
func boolOf(t string) string {
	if strings.HasPrefix(t, "<") {
		return "<" + vecLen(t) + " x i1>"
	}
	return "i1"
}

// mustAtoi is a vector length from vecLen (digits by construction; 0 otherwise).
func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// splat writes the constant v ("0.0", "1.0") of type t.
func splat(t, v string) string {
	e := elem(t)
	c := v
	if e == "half" {
		c = map[string]string{"0.0": "0xH0000", "1.0": "0xH3C00", "-1.0": "0xHBC00"}[v]
	}
	if !strings.HasPrefix(t, "<") {
		return c
	}
	var b strings.Builder
	b.WriteString("<")
	var n int
	fmt.Sscanf(vecLen(t), "%d", &n)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e + " " + c)
	}
	b.WriteString(">")
	return b.String()
}

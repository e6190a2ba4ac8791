package translate

import (
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// LLVM's bit-manipulation intrinsics that GLSL.std.450 has no instruction
// for, lowered as the LLVM Language Reference defines them, on scalar and
// vector integers of 8, 16, 32 and 64 bits:
//
//   - llvm.fshl.iN(a, b, c): the high N bits of the 2N-bit a:b shifted left
//     by c mod N; llvm.fshr.iN(a, b, c): the low N bits of a:b shifted right
//     by c mod N. Written so that no SPIR-V shift reaches the width (which
//     SPIR-V leaves undefined): fshl = (a << s) | ((b >> 1) >> (N-1-s)),
//     fshr = (b >> s) | ((a << 1) << (N-1-s)), s = c & (N-1); at s = 0 the
//     second term is 0, so fshl gives a and fshr gives b, as LLVM says.
//   - llvm.{u,s}{add,sub}.sat: the sum or difference clamped to the type's
//     range (Metal's add_sat/sub_sat lowering, intmath.go).

// llvmBitOps maps the intrinsic's base name to its lowering and arity.
var llvmBitOps = map[string]struct {
	arity int
	lower func(t *translator, ty air.Type, a []spirv.ID) spirv.ID
}{
	"fshl":     {3, lowerFunnel(true)},
	"fshr":     {3, lowerFunnel(false)},
	"uadd.sat": {2, lowerAddSat(false, false)},
	"usub.sat": {2, lowerAddSat(false, true)},
	"sadd.sat": {2, lowerAddSat(true, false)},
	"ssub.sat": {2, lowerAddSat(true, true)},
}

// llvmBits lowers the intrinsics of llvmBitOps; handled is false for any other name.
func (t *translator) llvmBits(c *air.Call, name string) (id spirv.ID, ok, handled bool) {
	base := strings.TrimPrefix(name, "llvm.")
	dot := strings.LastIndexByte(base, '.')
	if dot < 0 {
		return 0, false, false
	}
	op, ok := llvmBitOps[base[:dot]]
	if !ok {
		return 0, false, false
	}
	ty := c.Type()
	switch intBits(ty) {
	case 8, 16, 32, 64:
	default:
		return 0, false, true
	}
	if len(c.Args) != op.arity {
		return 0, false, true
	}
	args := make([]spirv.ID, len(c.Args))
	for i, a := range c.Args {
		if !sameType(a.Type(), ty) {
			return 0, false, true
		}
		args[i] = t.value(a)
	}
	return op.lower(t, ty, args), true, true
}

// sameType compares two integer scalar or vector types by shape.
func sameType(a, b air.Type) bool {
	return intBits(a) == intBits(b) && intBits(a) > 0 && lanes(a) == lanes(b)
}

// lowerFunnel is llvm.fshl (left) or llvm.fshr on (a, b, c).
func lowerFunnel(left bool) func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		ity := t.typ(ty)
		n := uint64(intBits(ty))
		s := t.f.Op(spirv.OpBitwiseAnd, ity, a[2], t.intConst(ty, n-1))
		back := t.f.Op(spirv.OpISub, ity, t.intConst(ty, n-1), s)
		one := t.intConst(ty, 1)
		shl := func(x, k spirv.ID) spirv.ID { return t.f.Op(spirv.OpShiftLeftLogical, ity, x, k) }
		shr := func(x, k spirv.ID) spirv.ID { return t.f.Op(spirv.OpShiftRightLogical, ity, x, k) }
		var hi, lo spirv.ID
		if left {
			hi, lo = shl(a[0], s), shr(shr(a[1], one), back)
		} else {
			hi, lo = shl(shl(a[0], one), back), shr(a[1], s)
		}
		return t.f.Op(spirv.OpBitwiseOr, ity, hi, lo)
	}
}

package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// lowerRsqrtRounded is Metal's precise rsqrt of float, which the Metal
// Shading Language's Table 8.1 requires correctly rounded, where GLSL's
// InverseSqrt is only within 2 ULP (Vulkan's precision table). Fast rsqrt
// (Table 8.2: <= 2 ulp) keeps InverseSqrt.
//
// The argument is split into an integer significand and an exponent
// (denormals normalised from their bits, so a driver that flushes
// denormals still sees the value): x = Mi·2^-23·4^k with Mi in [2^23,
// 2^25), so rsqrt(x) = rsqrt(m)·2^-k with m = Mi·2^-23 in [1, 4) and
// rsqrt(m) in (0.5, 1], where floats are spaced 2^-24. InverseSqrt(m),
// clamped to [0.5, 1], gives a first Y·2^-24; each of three steps then
// moves Y one place towards the correctly rounded value by deciding
// exactly, in 32-bit integers, on which side of the midpoints
// (2Y±1)·2^-25 the exact result lies: rsqrt(m) > t ⇔ m·t² < 1 ⇔
// Mi·(2Y+1)² < 2^73, a product of at most 75 bits of which only the word
// above bit 64 decides (the product is never 2^73: (2Y±1)² is odd). Three
// steps correct a first value up to 3 ULP away. The result, Y·2^-24 with
// k taken off its exponent, is always a normal float (2^-64 to 2^75).
// Metal's special values: NaN for NaN and negative arguments, ±inf for
// ±0, +0 for +inf.
func lowerRsqrtRounded(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	bty := t.boolType(ty)
	uty := withBits(ty, 32)
	u := t.typ(uty)
	pair := t.b.TypeStruct(u, u)
	c := func(v uint64) spirv.ID { return t.intConst(uty, v) }
	op := func(o spirv.Op, ty spirv.ID, args ...spirv.ID) spirv.ID { return t.f.Op(o, ty, args...) }
	part := func(v spirv.ID, i uint32) spirv.ID { return t.f.OpWords(spirv.OpCompositeExtract, u, uint32(v), i) }

	x := a[0]
	bits := op(spirv.OpBitcast, u, x)
	e := op(spirv.OpBitwiseAnd, u, op(spirv.OpShiftRightLogical, u, bits, c(23)), c(0xff))
	f := op(spirv.OpBitwiseAnd, u, bits, c(0x7fffff))
	// A denormal: shift its highest set bit to bit 23.
	s := op(spirv.OpISub, u, c(23), t.f.ExtInst(u, spirv.GLSLFindUMsb, f))
	den := op(spirv.OpIEqual, bty, e, c(0))
	X := op(spirv.OpSelect, u, den, op(spirv.OpShiftLeftLogical, u, f, s), op(spirv.OpBitwiseOr, u, f, c(0x800000)))
	E := op(spirv.OpSelect, u, den, op(spirv.OpISub, u, c(negU64(126)), s), op(spirv.OpISub, u, e, c(127)))
	k := op(spirv.OpShiftRightArithmetic, u, E, c(1))
	odd := op(spirv.OpBitwiseAnd, u, E, c(1))
	Mi := op(spirv.OpShiftLeftLogical, u, X, odd)
	mbits := op(spirv.OpBitwiseOr, u, op(spirv.OpShiftLeftLogical, u, op(spirv.OpIAdd, u, odd, c(127)), c(23)), op(spirv.OpBitwiseAnd, u, X, c(0x7fffff)))
	y0 := t.f.ExtInst(fty, spirv.GLSLInverseSqrt, op(spirv.OpBitcast, fty, mbits))
	y0 = t.f.ExtInst(fty, spirv.GLSLNClamp, y0, t.floatConst(ty, 0.5), t.floatConst(ty, 1))
	Y := op(spirv.OpConvertFToU, u, op(spirv.OpFMul, fty, y0, t.floatConst(ty, 1<<24)))

	// above reports whether Mi·T² >= 2^73 (the exact result is below T·2^-25).
	above := func(T spirv.ID) spirv.ID {
		sq := op(spirv.OpUMulExtended, pair, T, T)
		lo := op(spirv.OpUMulExtended, pair, Mi, part(sq, 0))
		hi := op(spirv.OpUMulExtended, pair, Mi, part(sq, 1))
		mid := op(spirv.OpIAddCarry, pair, part(lo, 1), part(hi, 0))
		w2 := op(spirv.OpIAdd, u, part(hi, 1), part(mid, 1))
		return op(spirv.OpUGreaterThanEqual, bty, w2, c(1<<9))
	}
	one, zero := c(1), c(0)
	for range 3 {
		twoY := op(spirv.OpShiftLeftLogical, u, Y, one)
		up := op(spirv.OpLogicalAnd, bty, op(spirv.OpLogicalNot, bty, above(op(spirv.OpIAdd, u, twoY, one))), op(spirv.OpULessThan, bty, Y, c(1<<24)))
		down := op(spirv.OpLogicalAnd, bty, above(op(spirv.OpISub, u, twoY, one)), op(spirv.OpUGreaterThan, bty, Y, c(1<<23)))
		Y = op(spirv.OpIAdd, u, Y, op(spirv.OpSelect, u, up, one, zero))
		Y = op(spirv.OpISub, u, Y, op(spirv.OpSelect, u, down, one, zero))
	}
	y := op(spirv.OpFMul, fty, op(spirv.OpConvertUToF, fty, Y), t.floatConst(ty, 1.0/(1<<24)))
	r := op(spirv.OpBitcast, fty, op(spirv.OpISub, u, op(spirv.OpBitcast, u, y), op(spirv.OpShiftLeftLogical, u, k, c(23))))

	mag := op(spirv.OpBitwiseAnd, u, bits, c(0x7fffffff))
	r = op(spirv.OpSelect, fty, op(spirv.OpIEqual, bty, bits, c(0x7f800000)), t.floatConst(ty, 0), r)
	r = op(spirv.OpSelect, fty, op(spirv.OpIEqual, bty, mag, zero), op(spirv.OpBitcast, fty, op(spirv.OpBitwiseOr, u, bits, c(0x7f800000))), r)
	r = op(spirv.OpSelect, fty, op(spirv.OpUGreaterThan, bty, bits, c(0x80000000)), op(spirv.OpBitcast, fty, c(0x7fc00000)), r)
	return op(spirv.OpSelect, fty, op(spirv.OpUGreaterThan, bty, mag, c(0x7f800000)), x, r)
}

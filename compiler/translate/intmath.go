package translate

import (
	"math"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Lowerings of the air.* functions GLSL.std.450 has no single instruction for.

// lowerPi is sin/cos/tan of π·x.
func lowerPi(op spirv.GLSLOp) func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		fty := t.typ(ty)
		return t.f.ExtInst(fty, op, t.f.Op(spirv.OpFMul, fty, a[0], t.floatConst(ty, math.Pi)))
	}
}

// lowerLdexp is x·2^e with Metal's overflow and underflow (±inf, ±0), which
// GLSL's Ldexp leaves undefined: x is split into mantissa and exponent
// (Frexp, exact), the exponents are added, and only a result exponent in
// range reaches Ldexp; zero, inf and NaN pass through.
func lowerLdexp(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	fty := t.typ(ty)
	bty := t.boolType(ty)
	ity := t.typ(withBits(ty, 32))
	ity32 := withBits(ty, 32)
	e := a[1]
	fr := t.f.ExtInst(t.b.TypeStruct(fty, ity), spirv.GLSLFrexpStruct, a[0])
	m := t.f.OpWords(spirv.OpCompositeExtract, fty, uint32(fr), 0)
	ex := t.f.OpWords(spirv.OpCompositeExtract, ity, uint32(fr), 1)
	maxExp, minExp := int64(128), int64(-149)
	switch scalarBits(air.Scalar(ty)) {
	case 16:
		maxExp, minExp = 16, -24
	case 64:
		maxExp, minExp = 1024, -1074
	}
	// Clamp e first so that ex + e cannot wrap.
	e = t.f.ExtInst(ity, spirv.GLSLSClamp, e, t.intConst(ity32, negU64(4096)), t.intConst(ity32, 4096))
	sum := t.f.Op(spirv.OpIAdd, ity, ex, e)
	big := t.f.Op(spirv.OpSGreaterThan, bty, sum, t.intConst(ity32, uint64(maxExp)))
	small := t.f.Op(spirv.OpSLessThan, bty, sum, t.intConst(ity32, negU64(-minExp)))
	r := t.f.ExtInst(fty, spirv.GLSLLdexp, m, t.f.ExtInst(ity, spirv.GLSLSClamp, sum, t.intConst(ity32, negU64(-minExp)), t.intConst(ity32, uint64(maxExp))))
	// ±inf and ±0 with x's sign, built from its bits (a multiplication by
	// zero may be folded to +0 by a driver).
	w := scalarBits(air.Scalar(ty))
	uty := withBits(ty, w)
	ubits := t.typ(uty)
	sign := t.f.Op(spirv.OpBitwiseAnd, ubits, t.f.Op(spirv.OpBitcast, ubits, a[0]), t.intConst(uty, 1<<uint(w-1)))
	expMask := uint64(0x7f800000)
	switch w {
	case 16:
		expMask = 0x7c00
	case 64:
		expMask = 0x7ff0000000000000
	}
	inf := t.f.Op(spirv.OpBitcast, fty, t.f.Op(spirv.OpBitwiseOr, ubits, sign, t.intConst(uty, expMask)))
	zero := t.f.Op(spirv.OpBitcast, fty, sign)
	r = t.f.Op(spirv.OpSelect, fty, big, inf, r)
	r = t.f.Op(spirv.OpSelect, fty, small, zero, r)
	special := t.f.Op(spirv.OpLogicalOr, bty, t.f.Op(spirv.OpIsInf, bty, a[0]), t.f.Op(spirv.OpIsNan, bty, a[0]))
	special = t.f.Op(spirv.OpLogicalOr, bty, special, t.f.Op(spirv.OpFOrdEqual, bty, a[0], t.floatConst(ty, 0)))
	return t.f.Op(spirv.OpSelect, fty, special, a[0], r)
}

// lowerClz counts leading zeros (32 for 0): 31 - FindUMsb.
func lowerClz(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	ity := t.typ(ty)
	msb := t.f.ExtInst(ity, spirv.GLSLFindUMsb, a[0])
	return t.f.Op(spirv.OpISub, ity, t.intConst(ty, 31), msb)
}

// lowerCtz counts trailing zeros (32 for 0; FindILsb gives -1 there).
func lowerCtz(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	ity := t.typ(ty)
	lsb := t.f.ExtInst(ity, spirv.GLSLFindILsb, a[0])
	zero := t.f.Op(spirv.OpIEqual, t.boolType(ty), a[0], t.intConst(ty, 0))
	return t.f.Op(spirv.OpSelect, ity, zero, t.intConst(ty, 32), lsb)
}

// lowerMulHi is the high half of the double-width product.
func lowerMulHi(signed bool) func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		ity := t.typ(ty)
		op := spirv.OpUMulExtended
		if signed {
			op = spirv.OpSMulExtended
		}
		pair := t.f.Op(op, t.b.TypeStruct(ity, ity), a[0], a[1])
		return t.f.OpWords(spirv.OpCompositeExtract, ity, uint32(pair), 1)
	}
}

// lowerHadd is (x + y) >> 1 (rounded up for rhadd) without overflow:
// (x & y) + ((x ^ y) >> 1), or (x | y) - ((x ^ y) >> 1).
func lowerHadd(signed, round bool) func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		ity := t.typ(ty)
		shift := spirv.OpShiftRightLogical
		if signed {
			shift = spirv.OpShiftRightArithmetic
		}
		half := t.f.Op(shift, ity, t.f.Op(spirv.OpBitwiseXor, ity, a[0], a[1]), t.intConst(ty, 1))
		if round {
			return t.f.Op(spirv.OpISub, ity, t.f.Op(spirv.OpBitwiseOr, ity, a[0], a[1]), half)
		}
		return t.f.Op(spirv.OpIAdd, ity, t.f.Op(spirv.OpBitwiseAnd, ity, a[0], a[1]), half)
	}
}

// lowerAbsDiff is |x - y| as an unsigned value: max - min.
func lowerAbsDiff(signed bool) func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		ity := t.typ(ty)
		mx, mn := spirv.GLSLUMax, spirv.GLSLUMin
		if signed {
			mx, mn = spirv.GLSLSMax, spirv.GLSLSMin
		}
		return t.f.Op(spirv.OpISub, ity, t.f.ExtInst(ity, mx, a[0], a[1]), t.f.ExtInst(ity, mn, a[0], a[1]))
	}
}

// lowerAddSat is x + y (or x - y) clamped to the type's range. The
// overflow test works on the wrapped result: unsigned addition overflowed
// when the sum is below x; signed when x and y agree in sign and the sum
// does not.
func lowerAddSat(signed, sub bool) func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		ity := t.typ(ty)
		bty := t.boolType(ty)
		bits := intBits(ty)
		x, y := a[0], a[1]
		op := spirv.OpIAdd
		if sub {
			op = spirv.OpISub
		}
		r := t.f.Op(op, ity, x, y)
		if !signed {
			if sub {
				under := t.f.Op(spirv.OpULessThan, bty, x, y)
				return t.f.Op(spirv.OpSelect, ity, under, t.intConst(ty, 0), r)
			}
			over := t.f.Op(spirv.OpULessThan, bty, r, x)
			return t.f.Op(spirv.OpSelect, ity, over, t.intConst(ty, ^uint64(0)), r)
		}
		// Signed: overflow when (x ^ r) & (y' ^ r) < 0, y' = y for add, ~y for sub.
		yy := y
		if sub {
			yy = t.f.Op(spirv.OpNot, ity, y)
		}
		ov := t.f.Op(spirv.OpBitwiseAnd, ity, t.f.Op(spirv.OpBitwiseXor, ity, x, r), t.f.Op(spirv.OpBitwiseXor, ity, yy, r))
		over := t.f.Op(spirv.OpSLessThan, bty, ov, t.intConst(ty, 0))
		neg := t.f.Op(spirv.OpSLessThan, bty, x, t.intConst(ty, 0))
		minV := uint64(1) << uint(bits-1)
		sat := t.f.Op(spirv.OpSelect, ity, neg, t.intConst(ty, minV), t.intConst(ty, minV-1))
		return t.f.Op(spirv.OpSelect, ity, over, sat, r)
	}
}

// lowerRotate rotates x left by n (mod the width).
func lowerRotate(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	ity := t.typ(ty)
	bits := uint64(intBits(ty))
	n := t.f.Op(spirv.OpBitwiseAnd, ity, a[1], t.intConst(ty, bits-1))
	back := t.f.Op(spirv.OpBitwiseAnd, ity, t.f.Op(spirv.OpISub, ity, t.intConst(ty, bits), n), t.intConst(ty, bits-1))
	return t.f.Op(spirv.OpBitwiseOr, ity, t.f.Op(spirv.OpShiftLeftLogical, ity, a[0], n), t.f.Op(spirv.OpShiftRightLogical, ity, a[0], back))
}

// lowerExtractBits is Vulkan's bit-field extract (32-bit only).
func lowerExtractBits(signed bool) func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return func(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
		op := spirv.OpBitFieldUExtract
		if signed {
			op = spirv.OpBitFieldSExtract
		}
		return t.f.Op(op, t.typ(ty), a[0], a[1], a[2])
	}
}

// lowerInsertBits is Vulkan's bit-field insert (32-bit only).
func lowerInsertBits(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	return t.f.Op(spirv.OpBitFieldInsert, t.typ(ty), a[0], a[1], a[2], a[3])
}

// outPointerMath lowers modf(x, &ipart) and frexp(x, &exp): the second
// result goes through the pointer with the ordinary store.
func (t *translator) outPointerMath(c *air.Call, op string) (spirv.ID, bool) {
	if len(c.Args) != 2 || !isFloat(c.Type()) || !isPointer(c.Args[1].Type()) {
		return 0, false
	}
	ty := c.Type()
	fty := t.typ(ty)
	p := t.ptr(c.Args[1])
	x := t.value(c.Args[0])
	var second air.Type = ty
	glsl := spirv.GLSLModfStruct
	if op == "frexp" {
		second = withBits(ty, 32)
		glsl = spirv.GLSLFrexpStruct
	}
	st := t.f.ExtInst(t.b.TypeStruct(fty, t.typ(second)), glsl, x)
	v0 := t.f.OpWords(spirv.OpCompositeExtract, fty, uint32(st), 0)
	v1 := t.f.OpWords(spirv.OpCompositeExtract, t.typ(second), uint32(st), 1)
	if p.root != nil {
		a, _ := air.AlignOf(second)
		t.store(p, 0, second, v1, a)
	}
	return v0, true
}

// negU64 is -v as the two's-complement bits intConst takes.
func negU64(v int64) uint64 { return uint64(-v) }

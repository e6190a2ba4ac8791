package translate

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// bfloat. Metal's bfloat is the high half of an IEEE float: a sign, the
// float's 8-bit exponent and a 7-bit fraction. Vulkan 1.2 has no bfloat
// type, so a bfloat value is its 16 bits in a ushort (a uint16 lane of a
// vector), which is also how it is stored in memory. Arithmetic widens the
// operands to float, which is exact (bits << 16), computes in float, and
// rounds the result back, as LLVM's own lowering of bfloat does on targets
// without bfloat arithmetic. Comparisons and conversions to wider types are
// exact on the widened values.
//
// Rounding float to bfloat is to nearest, ties to even, on the bit pattern:
// (bits + 0x7fff + (bits>>16 & 1)) >> 16, so that values above the largest
// bfloat's rounding boundary become infinity, infinities stay infinities
// and subnormals round like every other value (no flush). A NaN stays a NaN
// with its sign: its high half with the quiet bit (0x0040) set, since the
// payload may lie only in the low half that is dropped.

// isBFloat reports whether ty's scalar is bfloat.
func isBFloat(ty air.Type) bool {
	f, ok := air.Scalar(ty).(*air.FloatType)
	return ok && f.Kind == air.BFloat
}

// bfWide is ty (bfloat or a vector of bfloat) with float lanes.
func bfWide(ty air.Type) air.Type {
	if v, ok := ty.(*air.VectorType); ok {
		return &air.VectorType{Len: v.Len, Elem: air.FloatTy}
	}
	return air.FloatTy
}

// bfU32 is ty's shape with u32 lanes.
func (t *translator) bfU32(ty air.Type) spirv.ID {
	if v, ok := ty.(*air.VectorType); ok {
		return t.b.TypeVector(t.u32, uint32(v.Len))
	}
	return t.u32
}

// bfU32Const is the u32 constant c splatted over ty's shape.
func (t *translator) bfU32Const(ty air.Type, c uint32) spirv.ID {
	if v, ok := ty.(*air.VectorType); ok {
		parts := make([]spirv.ID, v.Len)
		for i := range parts {
			parts[i] = t.b.ConstantU32(c)
		}
		return t.b.ConstantComposite(t.bfU32(ty), parts...)
	}
	return t.b.ConstantU32(c)
}

// bfToFloat widens x, a bfloat value of type ty, to float: exact.
func (t *translator) bfToFloat(x spirv.ID, ty air.Type) spirv.ID {
	u := t.f.Op(spirv.OpUConvert, t.bfU32(ty), x)
	u = t.f.Op(spirv.OpShiftLeftLogical, t.bfU32(ty), u, t.bfU32Const(ty, 16))
	return t.f.Op(spirv.OpBitcast, t.typ(bfWide(ty)), u)
}

// floatToBF rounds x, a float value of ty's shape, to bfloat type ty
// (nearest, ties to even; NaN stays NaN).
func (t *translator) floatToBF(x spirv.ID, ty air.Type) spirv.ID {
	u32 := t.bfU32(ty)
	bits := t.f.Op(spirv.OpBitcast, u32, x)
	hi := t.f.Op(spirv.OpShiftRightLogical, u32, bits, t.bfU32Const(ty, 16))
	odd := t.f.Op(spirv.OpBitwiseAnd, u32, hi, t.bfU32Const(ty, 1))
	r := t.f.Op(spirv.OpIAdd, u32, bits, t.bfU32Const(ty, 0x7fff))
	r = t.f.Op(spirv.OpIAdd, u32, r, odd)
	r = t.f.Op(spirv.OpShiftRightLogical, u32, r, t.bfU32Const(ty, 16))
	nan := t.f.Op(spirv.OpBitwiseOr, u32, hi, t.bfU32Const(ty, 0x40))
	boolTy := t.b.TypeBool()
	if v, ok := ty.(*air.VectorType); ok {
		boolTy = t.b.TypeVector(boolTy, uint32(v.Len))
	}
	isNaN := t.f.Op(spirv.OpIsNan, boolTy, x)
	r = t.f.Op(spirv.OpSelect, u32, isNaN, nan, r)
	return t.f.Op(spirv.OpUConvert, t.typ(ty), r)
}

// bfBinop is a float arithmetic instruction on bfloat operands.
func (t *translator) bfBinop(op spirv.Op, in *air.BinOp) spirv.ID {
	ty := in.Type()
	x, y := t.bfToFloat(t.value(in.X), ty), t.bfToFloat(t.value(in.Y), ty)
	return t.floatToBF(t.f.Op(op, t.typ(bfWide(ty)), x, y), ty)
}

// bfCast lowers a cast from or to bfloat; false when it is not one.
func (t *translator) bfCast(in *air.Cast) bool {
	src, dst := in.X.Type(), in.Type()
	if !isBFloat(src) && !isBFloat(dst) {
		return false
	}
	x := t.value(in.X)
	var id spirv.ID
	switch {
	case in.Op == air.OpBitCast && scalarBits(air.Scalar(src)) == 16 && scalarBits(air.Scalar(dst)) == 16 && lanes(src) == lanes(dst):
		// A bfloat and a 16-bit integer (or half) share their bits.
		id = x
		if !isBFloat(src) || !isBFloat(dst) {
			if f, ok := air.Scalar(src).(*air.FloatType); ok && f.Kind == air.Half {
				id = t.f.Op(spirv.OpBitcast, t.typ(dst), x)
			} else if f, ok := air.Scalar(dst).(*air.FloatType); ok && f.Kind == air.Half {
				id = t.f.Op(spirv.OpBitcast, t.typ(dst), x)
			}
		}
	case in.Op == air.OpBitCast:
		id = t.f.Op(spirv.OpBitcast, t.typ(dst), x)
	case in.Op == air.OpFPExt && isBFloat(src):
		id = t.bfToFloat(x, src)
		if s, ok := air.Scalar(dst).(*air.FloatType); ok && s.Kind == air.Double {
			id = t.f.Op(spirv.OpFConvert, t.typ(dst), id)
		}
	case in.Op == air.OpFPTrunc && isBFloat(dst) && isFloatKind(src, air.Float):
		id = t.floatToBF(x, dst)
	case (in.Op == air.OpFPToUI || in.Op == air.OpFPToSI) && isBFloat(src) && intBits(dst) > 1:
		op := spirv.OpConvertFToU
		if in.Op == air.OpFPToSI {
			op = spirv.OpConvertFToS
		}
		id = t.f.Op(op, t.typ(dst), t.bfToFloat(x, src))
	default:
		// Double to bfloat and integers to bfloat would round twice
		// through float: refused rather than rounded differently.
		t.miss.addf(CodeUnhandledInstruction, "%s %s to %s", in.Op, src, dst)
		id = t.b.Undef(t.typ(dst))
	}
	t.vals[in] = id
	return true
}

// isFloatKind reports whether ty's scalar is the float type of kind k.
func isFloatKind(ty air.Type, k air.FloatKind) bool {
	f, ok := air.Scalar(ty).(*air.FloatType)
	return ok && f.Kind == k
}

// touchesBFloat reports whether a call passes or returns bfloat.
func touchesBFloat(c *air.Call) bool {
	if isBFloat(c.Type()) {
		return true
	}
	for _, a := range c.Args {
		if isBFloat(a.Type()) {
			return true
		}
	}
	return false
}

// bfIntrinsic lowers an intrinsic that passes or returns bfloat: the
// multiply-adds (llvm.fma computed in float and rounded to bfloat,
// llvm.fmuladd unfused) and the
// conversions between bfloat, half and float. Any other is refused by name.
func (t *translator) bfIntrinsic(c *air.Call, name string) (spirv.ID, bool) {
	ty := c.Type()
	switch name {
	case "llvm.fmuladd.bf16", "llvm.fma.bf16", "llvm.fmuladd.v2bf16", "llvm.fmuladd.v4bf16":
		if len(c.Args) != 3 || !isBFloat(ty) {
			return 0, false
		}
		w := t.typ(bfWide(ty))
		a, b, d := t.bfToFloat(t.value(c.Args[0]), ty), t.bfToFloat(t.value(c.Args[1]), ty), t.bfToFloat(t.value(c.Args[2]), ty)
		if name == "llvm.fma.bf16" {
			return t.floatToBF(t.f.ExtInst(w, spirv.GLSLFma, a, b, d), ty), true
		}
		// llvm.fmuladd, unfused: the product rounded to bfloat, then the
		// sum. Each float result rounded to bfloat is the correctly rounded
		// bfloat one (float's 24 bits are at least 2·8+2), so both steps are
		// bfloat's own. Rounding a*b+d once through float would round twice,
		// neither the fused nor the unfused value where the float sum lands
		// on a bfloat midpoint.
		p := t.bfToFloat(t.floatToBF(t.f.Op(spirv.OpFMul, w, a, b), ty), ty)
		return t.floatToBF(t.f.Op(spirv.OpFAdd, w, p, d), ty), true
	}
	if len(c.Args) != 1 {
		return 0, false
	}
	src := c.Args[0].Type()
	if lanes(src) != lanes(ty) {
		return 0, false
	}
	x := t.value(c.Args[0])
	switch {
	case name == "air.convert.f.f32.f.bf16" && isBFloat(src) && isFloatKind(ty, air.Float),
		lanes(ty) > 1 && isBFloat(src) && isFloatKind(ty, air.Float) && name == fmt.Sprintf("air.convert.f.v%df32.f.v%dbf16", lanes(ty), lanes(ty)):
		return t.bfToFloat(x, src), true
	case name == "air.convert.f.f16.f.bf16" && isBFloat(src) && isFloatKind(ty, air.Half):
		// Exact to float, then float to half rounds once.
		return t.f.Op(spirv.OpFConvert, t.typ(ty), t.bfToFloat(x, src)), true
	case name == "air.convert.f.bf16.f.f32" && isBFloat(ty) && isFloatKind(src, air.Float):
		return t.floatToBF(x, ty), true
	case name == "air.convert.f.bf16.f.f16" && isBFloat(ty) && isFloatKind(src, air.Half):
		// Half to float is exact, so this rounds once.
		return t.floatToBF(t.f.Op(spirv.OpFConvert, t.typ(bfWide(ty)), x), ty), true
	}
	return 0, false
}

package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Forms Apple's own libraries use (issue 16). What is carried here, and
// what the translator refuses elsewhere by its exact name (ABI.md,
// "Apple's forms"):
//
//	air.pack.unorm.rgb565.v3f16/.v3f32  pack_half_to_unorm565 / pack_float_to_unorm565
//	air.is_null_texture_*              is_null_texture on a bound texture: false

// rgb565Bits are the widths of the three lanes of a unorm565 word, lane 0
// in the least significant bits (the pack family's order, pack.go).
var rgb565Bits = [3]int{5, 6, 5}

// packRGB565 lowers pack_{float,half}_to_unorm565: each lane by MSL's
// float → unorm n rule (NaN → 0, else round to nearest even of
// clamp(x, 0, 1) × (2^n − 1)) with n = 5, 6, 5, lane 0 in bits 0..4, lane 1
// in bits 5..10, lane 2 in bits 11..15; the result is the 16-bit word
// (ushort) or, when the declaration returns i32, the word zero-extended.
// A half lane converts to float exactly before the rule applies.
func (t *translator) packRGB565(c *air.Call) (spirv.ID, bool) {
	if len(c.Args) != 1 || !isFloat(c.Args[0].Type()) || lanes(c.Args[0].Type()) != 3 {
		return 0, false
	}
	if b := intBits(c.Type()); b != 16 && b != 32 {
		return 0, false
	}
	fv := &air.VectorType{Len: 3, Elem: air.FloatTy}
	fty := t.typ(fv)
	x := t.value(c.Args[0])
	if scalarBits(air.Scalar(c.Args[0].Type())) != 32 {
		x = t.f.Op(spirv.OpFConvert, fty, x)
	}
	zero := t.floatConst(fv, 0)
	nan := t.f.Op(spirv.OpIsNan, t.boolType(fv), x)
	x = t.f.Op(spirv.OpSelect, fty, nan, zero, x)
	x = t.f.ExtInst(fty, spirv.GLSLFClamp, x, zero, t.floatConst(fv, 1))
	scale := make([]spirv.ID, 3)
	for i, n := range rgb565Bits {
		scale[i] = t.b.ConstantF32(float32(uint32(1)<<uint(n) - 1))
	}
	r := t.f.ExtInst(fty, spirv.GLSLRoundEven, t.f.Op(spirv.OpFMul, fty, x, t.b.ConstantComposite(fty, scale...)))
	u := t.f.Op(spirv.OpConvertFToU, t.typ(&air.VectorType{Len: 3, Elem: &air.IntType{Bits: 32}}), r)
	var word spirv.ID
	shift := 0
	for i, n := range rgb565Bits {
		lane := t.f.OpWords(spirv.OpCompositeExtract, t.u32, uint32(u), uint32(i))
		if i == 0 {
			word = lane
		} else {
			lane = t.f.Op(spirv.OpShiftLeftLogical, t.u32, lane, t.b.ConstantU32(uint32(shift)))
			word = t.f.Op(spirv.OpBitwiseOr, t.u32, word, lane)
		}
		shift += n
	}
	if intBits(c.Type()) == 16 {
		word = t.f.Op(spirv.OpUConvert, t.typ(c.Type()), word)
	}
	return word, true
}

// isNullTexture lowers is_null_texture(t) for a texture the entry point
// binds (an argument, or a handle read from an argument's struct): the
// harness binds every texture an entry point declares, so none is null and
// the answer is false. A handle of any other origin (a null texture from
// air.get_null_texture_*, a select between handles) has no lowering and is
// refused by the operation's name.
func (t *translator) isNullTexture(c *air.Call) (spirv.ID, bool) {
	if len(c.Args) != 1 || intBits(c.Type()) != 1 {
		return 0, false
	}
	r := t.resource(c.Args[0])
	if r == nil || r.sampler {
		return 0, false
	}
	return t.b.ConstantBool(false), true
}

package translate

import (
	"math"
	"math/big"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Metal's pack and unpack functions (MSL "Pack and Unpack Functions",
// following "Conversion Rules for Normalized Integer Pixel Data Types" and
// "Conversion Rules for sRGBA and sBGRA Textures"):
//
//	air.pack.unorm4x8[.srgb].v4f32/.v4f16   pack_float_to_[srgb_]unorm4x8
//	air.pack.snorm4x8.v4f32/.v4f16          pack_float_to_snorm4x8
//	air.pack.{unorm,snorm}2x16.v2f32/.v2f16 pack_float_to_{unorm,snorm}2x16
//	air.unpack.… (i32) → v4f32/v4f16/v2f32/v2f16, the inverses
//
// Lane i takes bits [n*i, n*(i+1)) of the word (the first lane the least
// significant). The rules, and how they are lowered:
//
//   - float → unorm n: NaN → 0, else round to nearest even of
//     clamp(x, 0, 1) * (2^n − 1) — FClamp, one correctly rounded FMul and
//     RoundEven. GLSL.std.450's PackUnorm4x8 is not used: it rounds with
//     round(), whose halfway direction is the implementation's.
//   - float → snorm n: NaN → 0, else round to nearest even of
//     clamp(x, −1, 1) * (2^(n−1) − 1), as two's complement.
//   - unorm n → float: c / (2^n − 1); snorm n → float: max(−1, c / (2^(n−1) − 1)).
//     Both are correctly rounded (Vulkan's OpFDiv is not, and c * (1/255)
//     is not: it differs for 126 of the 256 bytes), so the 8-bit ones read a
//     256-entry table of correctly rounded values; half results convert the
//     float (exact: no byte's quotient rounds differently through float).
//     16-bit lanes divide with OpFDiv (2.5 ULP in Vulkan: documented, not exact).
//   - sRGB (rgb lanes; alpha is plain unorm): linear → sRGB is NaN → 0,
//     clamp to [0, 1], 12.92 * c below 0.0031308, else
//     1.055 * powr(c, 1/2.4) − 0.055, then unorm 8. powr is approximate in
//     Metal and in Vulkan alike, so a value next to a code boundary may land
//     on either code. sRGB → linear reads a 256-entry table of the
//     correctly rounded c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4
//     of c = byte / 255.
func (t *translator) pack(c *air.Call, op string) (spirv.ID, bool) {
	name := strings.TrimPrefix(strings.TrimPrefix(op, "pack."), "unpack.")
	srgb := strings.HasSuffix(name, ".srgb")
	name = strings.TrimSuffix(name, ".srgb")
	if name == "unorm.rgb565" && !srgb && strings.HasPrefix(op, "pack.") {
		return t.packRGB565(c) // apple.go
	}
	var lanesN, bits int
	var signed bool
	switch name {
	case "unorm4x8":
		lanesN, bits = 4, 8
	case "snorm4x8":
		lanesN, bits, signed = 4, 8, true
	case "unorm2x16":
		lanesN, bits = 2, 16
	case "snorm2x16":
		lanesN, bits, signed = 2, 16, true
	default:
		return 0, false
	}
	if srgb && (signed || bits != 8) {
		return 0, false
	}
	if strings.HasPrefix(op, "pack.") {
		if len(c.Args) != 1 || !isFloat(c.Args[0].Type()) || lanes(c.Args[0].Type()) != lanesN || intBits(c.Type()) != 32 {
			return 0, false
		}
		return t.packFloats(c.Args[0], bits, signed, srgb), true
	}
	if len(c.Args) != 1 || intBits(c.Args[0].Type()) != 32 || !isFloat(c.Type()) || lanes(c.Type()) != lanesN {
		return 0, false
	}
	return t.unpackFloats(c.Args[0], c.Type(), bits, signed, srgb), true
}

// packFloats lowers pack_float_to_{unorm,snorm}NxB: see pack.
func (t *translator) packFloats(arg air.Value, bits int, signed, srgb bool) spirv.ID {
	n := lanes(arg.Type())
	fv := &air.VectorType{Len: n, Elem: air.FloatTy}
	fty := t.typ(fv)
	x := t.value(arg)
	if scalarBits(air.Scalar(arg.Type())) != 32 {
		x = t.f.Op(spirv.OpFConvert, fty, x)
	}
	zero := t.floatConst(fv, 0)
	nan := t.f.Op(spirv.OpIsNan, t.boolType(fv), x)
	x = t.f.Op(spirv.OpSelect, fty, nan, zero, x)
	lo := 0.0
	if signed {
		lo = -1
	}
	x = t.f.ExtInst(fty, spirv.GLSLFClamp, x, t.floatConst(fv, lo), t.floatConst(fv, 1))
	if srgb {
		x = t.linearToSRGB(x, fv)
	}
	scale := math.Ldexp(1, bits) - 1
	if signed {
		scale = math.Ldexp(1, bits-1) - 1
	}
	r := t.f.ExtInst(fty, spirv.GLSLRoundEven, t.f.Op(spirv.OpFMul, fty, x, t.floatConst(fv, scale)))
	uv := &air.VectorType{Len: n, Elem: &air.IntType{Bits: 32}}
	var u spirv.ID
	if signed {
		// ConvertFToS to a signed vector, then its bits as unsigned.
		s := t.f.Op(spirv.OpConvertFToS, t.b.TypeVector(t.b.TypeInt(32, true), uint32(n)), r)
		u = t.f.Op(spirv.OpBitcast, t.typ(uv), s)
	} else {
		u = t.f.Op(spirv.OpConvertFToU, t.typ(uv), r)
	}
	mask := t.b.ConstantU32(uint32(1)<<uint(bits) - 1)
	var word spirv.ID
	for i := 0; i < n; i++ {
		lane := t.f.OpWords(spirv.OpCompositeExtract, t.u32, uint32(u), uint32(i))
		if signed {
			lane = t.f.Op(spirv.OpBitwiseAnd, t.u32, lane, mask)
		}
		if i > 0 {
			lane = t.f.Op(spirv.OpShiftLeftLogical, t.u32, lane, t.b.ConstantU32(uint32(bits*i)))
			word = t.f.Op(spirv.OpBitwiseOr, t.u32, word, lane)
		} else {
			word = lane
		}
	}
	return word
}

// linearToSRGB applies MSL's linear-to-sRGB rule to the rgb lanes of x
// (already NaN-free and clamped to [0, 1]); the alpha lane stays linear.
func (t *translator) linearToSRGB(x spirv.ID, fv *air.VectorType) spirv.ID {
	fty := t.typ(fv)
	bty := t.boolType(fv)
	low := t.f.Op(spirv.OpFMul, fty, x, t.floatConst(fv, 12.92))
	pw := t.f.ExtInst(fty, spirv.GLSLPow, x, t.floatConst(fv, 1/2.4))
	high := t.f.Op(spirv.OpFSub, fty, t.f.Op(spirv.OpFMul, fty, pw, t.floatConst(fv, 1.055)), t.floatConst(fv, 0.055))
	below := t.f.Op(spirv.OpFOrdLessThan, bty, x, t.floatConst(fv, 0.0031308))
	s := t.f.Op(spirv.OpSelect, fty, below, low, high)
	// Lanes 0..2 take s, lane 3 keeps x.
	ops := []uint32{uint32(s), uint32(x)}
	for i := 0; i < fv.Len; i++ {
		if i < 3 {
			ops = append(ops, uint32(i))
		} else {
			ops = append(ops, uint32(fv.Len+i))
		}
	}
	return t.f.OpWords(spirv.OpVectorShuffle, fty, ops...)
}

// unpackFloats lowers unpack_{unorm,snorm}NxB_to_float/half: see pack.
func (t *translator) unpackFloats(arg air.Value, ty air.Type, bits int, signed, srgb bool) spirv.ID {
	n := lanes(ty)
	f32 := t.b.TypeFloat(32)
	w := t.value(arg)
	mask := t.b.ConstantU32(uint32(1)<<uint(bits) - 1)
	parts := make([]spirv.ID, n)
	var table spirv.ID
	var alpha spirv.ID
	if bits == 8 {
		table = t.byteTable(normTable(signed, false))
		if srgb {
			alpha = table
			table = t.byteTable(normTable(false, true))
		}
	}
	for i := 0; i < n; i++ {
		lane := w
		if i > 0 {
			lane = t.f.Op(spirv.OpShiftRightLogical, t.u32, w, t.b.ConstantU32(uint32(bits*i)))
		}
		lane = t.f.Op(spirv.OpBitwiseAnd, t.u32, lane, mask)
		if bits == 8 {
			tb := table
			if srgb && i == 3 {
				tb = alpha
			}
			p := t.f.Op(spirv.OpAccessChain, t.b.TypePointer(spirv.StorageClassPrivate, f32), tb, lane)
			parts[i] = t.f.Op(spirv.OpLoad, f32, p)
			continue
		}
		// 16-bit lanes: OpFDiv (see pack).
		var v spirv.ID
		if signed {
			s := t.f.Op(spirv.OpShiftRightArithmetic, t.b.TypeInt(32, true),
				t.f.Op(spirv.OpShiftLeftLogical, t.b.TypeInt(32, true), t.f.Op(spirv.OpBitcast, t.b.TypeInt(32, true), lane), t.b.ConstantU32(uint32(32-bits))),
				t.b.ConstantU32(uint32(32-bits)))
			v = t.f.Op(spirv.OpConvertSToF, f32, s)
			v = t.f.Op(spirv.OpFDiv, f32, v, t.b.ConstantF32(float32(math.Ldexp(1, bits-1)-1)))
			v = t.f.ExtInst(f32, spirv.GLSLFMax, v, t.b.ConstantF32(-1))
		} else {
			v = t.f.Op(spirv.OpConvertUToF, f32, lane)
			v = t.f.Op(spirv.OpFDiv, f32, v, t.b.ConstantF32(float32(math.Ldexp(1, bits)-1)))
		}
		parts[i] = v
	}
	fv := &air.VectorType{Len: n, Elem: air.FloatTy}
	r := t.f.Op(spirv.OpCompositeConstruct, t.typ(fv), parts...)
	if scalarBits(air.Scalar(ty)) != 32 {
		r = t.f.Op(spirv.OpFConvert, t.typ(ty), r)
	}
	return r
}

// byteTable declares a Private float[256] holding vals and returns it (one
// variable per call site: the constants themselves are shared).
func (t *translator) byteTable(vals [256]float32) spirv.ID {
	f32 := t.b.TypeFloat(32)
	parts := make([]spirv.ID, len(vals))
	for i, v := range vals {
		parts[i] = t.b.ConstantF32(v)
	}
	arr := t.b.TypeArray(f32, t.b.ConstantU32(uint32(len(vals))), 0)
	init := t.b.ConstantComposite(arr, parts...)
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassPrivate, arr), spirv.StorageClassPrivate, init)
	t.iface = append(t.iface, v)
	return v
}

// normTable is the correctly rounded float of every byte c: c/255 (unorm),
// max(-1, int8(c)/127) (snorm) or the sRGB-to-linear value of c/255 (srgb).
func normTable(signed, srgb bool) [256]float32 {
	var out [256]float32
	const prec = 256
	for c := 0; c < 256; c++ {
		var q *big.Float
		switch {
		case signed:
			q = new(big.Float).SetPrec(prec).Quo(big.NewFloat(float64(int8(uint8(c)))), big.NewFloat(127))
			if q.Cmp(big.NewFloat(-1)) < 0 {
				q = big.NewFloat(-1)
			}
		case srgb:
			out[c] = srgbToLinear(c)
			continue
		default:
			q = new(big.Float).SetPrec(prec).Quo(big.NewFloat(float64(c)), big.NewFloat(255))
		}
		out[c], _ = q.Float32()
	}
	return out
}

// srgbToLinear is MSL's sRGB-to-linear value of the byte c, correctly
// rounded to float: computed in float64 (whose error, a few units of 2^-53,
// decides the float32 rounding unless the value lies that close to a float32
// midpoint; none of the 256 does, which the table test checks).
func srgbToLinear(c int) float32 {
	x := float64(c) / 255
	if x <= 0.04045 {
		return float32(x / 12.92)
	}
	return float32(math.Pow((x+0.055)/1.055, 2.4))
}

package cpuref

import (
	"fmt"
	"strings"
)

// Metal's pack and unpack functions (MSL "Pack and Unpack Functions", whose
// conversions are the "Conversion Rules for Normalized Integer Pixel Data
// Types"), defined from the Metal Shading Language's formulas, not from the
// translator's lowering (compiler/translate/pack.go):
//
//	air.unpack.unorm4x8.v4f32/.v4f16, unorm2x16.v2f32/.v2f16:  c / (2^n − 1)
//	air.unpack.snorm4x8.v4f32/.v4f16, snorm2x16.v2f32/.v2f16:  max(−1, c / (2^(n−1) − 1)), c two's complement
//	air.pack.unorm4x8.v4f32/.v4f16, unorm2x16.v2f32/.v2f16:    intRTNE(clamp(x, 0, 1) · (2^n − 1)), NaN → 0
//	air.pack.snorm4x8.v4f32/.v4f16, snorm2x16.v2f32/.v2f16:    intRTNE(clamp(x, −1, 1) · (2^(n−1) − 1)), NaN → 0
//
// Lane i is bits [n·i, n·(i+1)) of the word, the first lane the least
// significant. Unpacking is the quotient correctly rounded to the result's
// type: LLVM divides in double (c and 2^n − 1 exact, the quotient rounded
// once) and fptrunc rounds that to float or half. Rounding twice gives the
// correctly rounded value here because c / (2^n − 1) is a repeating binary
// fraction of period n (n − 1 for snorm's 127 and 32767), so the double
// quotient never lies on or next to a float or half rounding midpoint (the
// table test checks all 256 bytes and the 16-bit boundaries against
// math/big). Packing multiplies in float, as the formula is written (a half
// operand widened exactly first, so its product is exact), rounds to
// nearest even (llvm.roundeven) and converts exactly. These are LLVM
// instructions and intrinsics whose results IEEE 754 fixes to the bit.
//
// The sRGB forms (air.pack.unorm4x8.srgb.*, air.unpack.unorm4x8.srgb.*) are
// not defined: linear → sRGB is 1.055·powr(c, 1/2.4) − 0.055 and sRGB →
// linear ((c + 0.055)/1.055)^2.4, and Metal gives powr a ULP bound, not a
// bit-exact result, so a value next to a code boundary may land on either
// side on a conforming GPU. They are set aside as KindApproximate, naming
// the operation, like every other operation without a bit-exact definition.
//
// bfloat ↔ half (air.convert.f.f16.f.bf16, air.convert.f.bf16.f.f16): both
// widen exactly to float (fpext), then round once to the destination
// (fptrunc: float → half by IEEE round to nearest even; float → bfloat by the
// harness's __truncsfbf2, the rounding compiler/translate/ABI.md gives
// bfloat), so each is one correctly rounded conversion.

// isPackOp reports whether n is one of Metal's pack or unpack operations.
func isPackOp(n string) bool {
	return strings.HasPrefix(n, "air.pack.") || strings.HasPrefix(n, "air.unpack.")
}

// packLayout is a pack family's lane count, lane width and signedness.
func packLayout(family string) (lanes, bits int, signed, ok bool) {
	switch family {
	case "unorm4x8":
		return 4, 8, false, true
	case "snorm4x8":
		return 4, 8, true, true
	case "unorm2x16":
		return 2, 16, false, true
	case "snorm2x16":
		return 2, 16, true, true
	}
	return 0, 0, false, false
}

// packOp defines air.pack.* and air.unpack.* from the declaration d, or says
// why not (KindApproximate for sRGB, KindUnknownOp for a form or type it
// does not know).
func packOp(d declaration) (string, error) {
	n := d.Name
	rest := strings.TrimPrefix(strings.TrimPrefix(n, "air.pack."), "air.unpack.")
	unpack := strings.HasPrefix(n, "air.unpack.")
	family, suffix, _ := strings.Cut(rest, ".")
	if family == "unorm" && strings.HasPrefix(suffix, "rgb565.") && !unpack {
		return pack565Def(d) // pack565.go
	}
	if strings.HasPrefix(suffix, "srgb.") {
		return "", notJudgeable(KindApproximate, n, "%s converts through sRGB's powr(c, 2.4) or powr(c, 1/2.4), which Metal bounds in ULP rather than defines to the bit", n)
	}
	lanes, bits, signed, ok := packLayout(family)
	unknown := notJudgeable(KindUnknownOp, n, "%s is not among the operations the reference defines", n)
	if !ok || len(d.Params) != 1 {
		return "", unknown
	}
	vec := d.Ret
	if !unpack {
		vec = d.Params[0]
	}
	if e := elem(vec); !strings.HasPrefix(vec, "<") || vecLen(vec) != fmt.Sprint(lanes) || (e != "float" && e != "half") {
		return "", unknown
	}
	if unpack {
		if d.Params[0] != "i32" {
			return "", unknown
		}
		return unpackDef(n, vec, lanes, bits, signed), nil
	}
	if d.Ret != "i32" {
		return "", unknown
	}
	return packDef(n, vec, lanes, bits, signed), nil
}

// normScale is 2^n − 1 (unorm) or 2^(n−1) − 1 (snorm).
func normScale(bits int, signed bool) int {
	if signed {
		return 1<<(bits-1) - 1
	}
	return 1<<bits - 1
}

// unpackDef is the definition of air.unpack.<family>.<vec>(i32).
func unpackDef(name, vec string, lanes, bits int, signed bool) string {
	e := elem(vec)
	var b strings.Builder
	fmt.Fprintf(&b, "define internal %s @%q(i32 %%a0) {\n", vec, name)
	prev := "undef"
	for i := range lanes {
		fmt.Fprintf(&b, "  %%s%d = lshr i32 %%a0, %d\n  %%c%d = trunc i32 %%s%d to i%d\n", i, bits*i, i, i, bits)
		conv := "uitofp"
		if signed {
			conv = "sitofp"
		}
		fmt.Fprintf(&b, "  %%d%d = %s i%d %%c%d to double\n  %%q%d = fdiv double %%d%d, %d.0\n", i, conv, bits, i, i, i, normScale(bits, signed))
		q := fmt.Sprintf("%%q%d", i)
		if signed {
			// max(−1, c / 127): only the most negative code is below −1.
			fmt.Fprintf(&b, "  %%m%d = call double @llvm.maxnum.f64(double %%q%d, double -1.0)\n", i, i)
			q = fmt.Sprintf("%%m%d", i)
		}
		fmt.Fprintf(&b, "  %%f%d = fptrunc double %s to %s\n", i, q, e)
		fmt.Fprintf(&b, "  %%v%d = insertelement %s %s, %s %%f%d, i32 %d\n", i, vec, prev, e, i, i)
		prev = fmt.Sprintf("%%v%d", i)
	}
	fmt.Fprintf(&b, "  ret %s %s\n}\n", vec, prev)
	return b.String()
}

// packDef is the definition of air.pack.<family>.<vec>(vec).
func packDef(name, vec string, lanes, bits int, signed bool) string {
	lo := "0.0"
	if signed {
		lo = "-1.0"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "define internal i32 @%q(%s %%a0) {\n", name, vec)
	x := "%a0"
	if elem(vec) == "half" {
		// half → float is exact, and so is the product of a half and 2^n − 1.
		fmt.Fprintf(&b, "  %%w = fpext %s %%a0 to <%d x float>\n", vec, lanes)
		x = "%w"
	}
	word := ""
	for i := range lanes {
		fmt.Fprintf(&b, "  %%x%d = extractelement <%d x float> %s, i32 %d\n", i, lanes, x, i)
		fmt.Fprintf(&b, "  %%n%d = fcmp uno float %%x%d, %%x%d\n  %%z%d = select i1 %%n%d, float 0.0, float %%x%d\n", i, i, i, i, i, i)
		fmt.Fprintf(&b, "  %%l%d = call float @llvm.maxnum.f32(float %%z%d, float %s)\n", i, i, lo)
		fmt.Fprintf(&b, "  %%h%d = call float @llvm.minnum.f32(float %%l%d, float 1.0)\n", i, i)
		fmt.Fprintf(&b, "  %%p%d = fmul float %%h%d, %d.0\n", i, i, normScale(bits, signed))
		fmt.Fprintf(&b, "  %%r%d = call float @llvm.roundeven.f32(float %%p%d)\n", i, i)
		fmt.Fprintf(&b, "  %%i%d = fptosi float %%r%d to i32\n", i, i)
		fmt.Fprintf(&b, "  %%k%d = and i32 %%i%d, %d\n", i, i, 1<<bits-1)
		fmt.Fprintf(&b, "  %%t%d = shl i32 %%k%d, %d\n", i, i, bits*i)
		if i == 0 {
			word = "%t0"
			continue
		}
		fmt.Fprintf(&b, "  %%o%d = or i32 %s, %%t%d\n", i, word, i)
		word = fmt.Sprintf("%%o%d", i)
	}
	fmt.Fprintf(&b, "  ret i32 %s\n}\n", word)
	return b.String()
}

// bfloatHalfConvert defines air.convert.f.f16.f.bf16 (bfloat → half) and
// air.convert.f.bf16.f.f16 (half → bfloat): fpext to float, then one
// fptrunc. ok is false for any other declaration.
func bfloatHalfConvert(d declaration) (string, bool) {
	var src, dst string
	switch d.Name {
	case "air.convert.f.f16.f.bf16":
		src, dst = "bfloat", "half"
	case "air.convert.f.bf16.f.f16":
		src, dst = "half", "bfloat"
	default:
		return "", false
	}
	if len(d.Params) != 1 || d.Params[0] != src || d.Ret != dst {
		return "", false
	}
	return fmt.Sprintf("define internal %s @%q(%s %%a0) {\n  %%w = fpext %s %%a0 to float\n  %%r = fptrunc float %%w to %s\n  ret %s %%r\n}\n",
		dst, d.Name, src, src, dst, dst), true
}

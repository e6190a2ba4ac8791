package cpuref

import (
	"fmt"
	"strings"
)

// rgb565 lane widths, lane 0 in the least significant bits (the order of
// every pack function, packops.go).
var rgb565Bits = [3]int{5, 6, 5}

// pack565Def defines air.pack.unorm.rgb565.<v3f16|v3f32> (MSL's
// pack_half_to_unorm565 / pack_float_to_unorm565): lane i by the unorm
// rule of packDef with n = 5, 6, 5 — intRTNE(clamp(x, 0, 1) · (2^n − 1)),
// NaN → 0, the product in float — at bits 0..4, 5..10 and 11..15 of the
// ushort (i16), or of an i32 result zero-extended.
func pack565Def(d declaration) (string, error) {
	n := d.Name
	unknown := notJudgeable(KindUnknownOp, n, "%s is not among the operations the reference defines", n)
	if len(d.Params) != 1 || (d.Ret != "i16" && d.Ret != "i32") {
		return "", unknown
	}
	vec := d.Params[0]
	if e := elem(vec); vecLen(vec) != "3" || (e != "float" && e != "half") {
		return "", unknown
	}
	var b strings.Builder
	fmt.Fprintf(&b, "define internal %s @%q(%s %%a0) {\n", d.Ret, n, vec)
	x := "%a0"
	if elem(vec) == "half" {
		fmt.Fprintf(&b, "  %%w = fpext %s %%a0 to <3 x float>\n", vec)
		x = "%w"
	}
	word, shift := "", 0
	for i, bits := range rgb565Bits {
		fmt.Fprintf(&b, "  %%x%d = extractelement <3 x float> %s, i32 %d\n", i, x, i)
		fmt.Fprintf(&b, "  %%n%d = fcmp uno float %%x%d, %%x%d\n  %%z%d = select i1 %%n%d, float 0.0, float %%x%d\n", i, i, i, i, i, i)
		fmt.Fprintf(&b, "  %%l%d = call float @llvm.maxnum.f32(float %%z%d, float 0.0)\n", i, i)
		fmt.Fprintf(&b, "  %%h%d = call float @llvm.minnum.f32(float %%l%d, float 1.0)\n", i, i)
		fmt.Fprintf(&b, "  %%p%d = fmul float %%h%d, %d.0\n", i, i, 1<<bits-1)
		fmt.Fprintf(&b, "  %%r%d = call float @llvm.roundeven.f32(float %%p%d)\n", i, i)
		fmt.Fprintf(&b, "  %%i%d = fptosi float %%r%d to i32\n", i, i)
		fmt.Fprintf(&b, "  %%t%d = shl i32 %%i%d, %d\n", i, i, shift)
		shift += bits
		if i == 0 {
			word = "%t0"
			continue
		}
		fmt.Fprintf(&b, "  %%o%d = or i32 %s, %%t%d\n", i, word, i)
		word = fmt.Sprintf("%%o%d", i)
	}
	if d.Ret == "i16" {
		fmt.Fprintf(&b, "  %%u = trunc i32 %s to i16\n", word)
		word = "%u"
	}
	fmt.Fprintf(&b, "  ret %s %s\n}\n", d.Ret, word)
	return b.String(), nil
}

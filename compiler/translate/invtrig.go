package translate

import (
	"math"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Inverse trigonometric functions of float within MSL §8.4's bounds
// (Table 8.1: asin and acos <= 4 ulp, atan <= 5; Table 8.2, fast math:
// asin and acos <= 5 ulp for x in [-1, 1], atan <= 5, atan2 "implemented
// as" atan(y/x) ± M_PI_F). Vulkan bounds GLSL's Asin and Acos by nothing
// comparable ("inherited from atan2(...)") and Atan by 4096 ulp, and
// lavapipe's are far off: fast_acos 3357 ulp and fast_asin 3630 at 0.5,
// atan 55.6 ulp at 1 (airpipe opcheck --seed 1). So all three are computed
// here from operations Vulkan bounds tightly — OpFAdd, OpFSub and OpFMul
// (correctly rounded), OpFDiv (2.5 ulp) and Sqrt — by the textbook
// reductions, with π/2 and π each as a float plus its remainder (…lo):
//
//	asin, acos, |x| <= 0.5: asin(x) = x + x·z·P(z), z = x²;  acos(x) = π/2 − asin(x)
//	            |x| >  0.5: z = (1 − |x|)/2 (exact), s = √z, asin(s) = s + (s·z·P(z) + c):
//	            asin(|x|) = π/2 − 2·asin(s);  acos(x) = 2·asin(s), or π − 2·asin(s) for x < 0
//	atan,       |x| <= 1:   atan(x) = x + x·z·Q(z), z = x²
//	            |x| >  1:   atan(|x|) = π/2 − atan(1/|x|)
//
// P and Q approximate (asin(√z)/√z − 1)/z on [0, 1/4] and (atan(√z)/√z −
// 1)/z on [0, 1] (asinPoly, atanPoly). c = (z − s·s)/(2s) corrects s by one
// Newton step without rounding it first, and 1/|x| takes one Newton step
// (t + t·(1 − |x|·t)), so neither result depends on the driver's Sqrt or
// OpFDiv being correctly rounded (Vulkan: a few ulp). Evaluated in Go with
// float32 operations (2026-12-02) over every float of ±[2^-20, 1] (asin,
// acos; every third for the perturbed runs) and every third float of
// [2^-14, 2^26] (atan; below, atan is x to within rounding, above π/2): the
// worst errors are asin 2.08 ulp (near 0.506, where 2·asin(s) has twice
// the result's ulp), acos 0.96 ulp, atan 1.63 ulp; with the square root
// off by ±3 ulp or the quotient by ±2, at most 2.23, 1.0 and 1.82. Outside
// [-1, 1] and for NaN asin and acos are NaN, as C's (Metal leaves fast
// math's undefined; the precise rows keep C's); atan of ±inf is ±π/2, of
// NaN NaN. A zero keeps its sign in asin and atan.

// asinPoly are P's coefficients, constant term first: a minimax fit of
// (asin(√z)/√z − 1)/z on [0, 1/4], relative error 2.1e-8, by iteratively
// reweighted least squares on 4,000 Chebyshev nodes (Lawson's algorithm) in
// float64, each then rounded to float.
var asinPoly = [...]float32{0.16666666, 0.07500099, 0.044598144, 0.031114973, 0.017083067, 0.033797625}

// atanPoly are Q's coefficients, constant term first: the same kind of fit
// of (atan(√z)/√z − 1)/z on [0, 1] (relative error 6.4e-8 with the
// coefficients rounded to float), in the Chebyshev basis and then expanded.
var atanPoly = [...]float32{-0.3333333, 0.19999756, -0.14278908, 0.11036396, -0.08666957, 0.06271217, -0.03611594, 0.013655942, -0.002423568}

// lowerAsin is Metal's asin of float (and its vectors); other widths keep
// GLSL's Asin.
func lowerAsin(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	if scalarBits(air.Scalar(ty)) != 32 {
		return t.f.ExtInst(t.typ(ty), spirv.GLSLAsin, a...)
	}
	return t.inverseTrig(ty, a[0], false)
}

// lowerAcos is Metal's acos of float (and its vectors); other widths keep
// GLSL's Acos.
func lowerAcos(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	if scalarBits(air.Scalar(ty)) != 32 {
		return t.f.ExtInst(t.typ(ty), spirv.GLSLAcos, a...)
	}
	return t.inverseTrig(ty, a[0], true)
}

// lowerAtan is Metal's atan of float (and its vectors); other widths keep
// GLSL's Atan.
func lowerAtan(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	if scalarBits(air.Scalar(ty)) != 32 {
		return t.f.ExtInst(t.typ(ty), spirv.GLSLAtan, a...)
	}
	return t.atan(ty, a[0])
}

// floatOps are the float arithmetic emitters of type ty the lowerings above
// are written in.
type floatOps struct {
	t   *translator
	ty  air.Type
	fty spirv.ID
	bty spirv.ID
}

func (t *translator) floatOps(ty air.Type) floatOps {
	return floatOps{t: t, ty: ty, fty: t.typ(ty), bty: t.boolType(ty)}
}

func (o floatOps) c(v float64) spirv.ID { return o.t.floatConst(o.ty, v) }
func (o floatOps) add(p, q spirv.ID) spirv.ID {
	return o.t.f.Op(spirv.OpFAdd, o.fty, p, q)
}
func (o floatOps) sub(p, q spirv.ID) spirv.ID {
	return o.t.f.Op(spirv.OpFSub, o.fty, p, q)
}
func (o floatOps) mul(p, q spirv.ID) spirv.ID {
	return o.t.f.Op(spirv.OpFMul, o.fty, p, q)
}
func (o floatOps) div(p, q spirv.ID) spirv.ID {
	return o.t.f.Op(spirv.OpFDiv, o.fty, p, q)
}
func (o floatOps) neg(p spirv.ID) spirv.ID { return o.t.f.Op(spirv.OpFNegate, o.fty, p) }
func (o floatOps) sel(cond, p, q spirv.ID) spirv.ID {
	return o.t.f.Op(spirv.OpSelect, o.fty, cond, p, q)
}
func (o floatOps) cmp(op spirv.Op, p, q spirv.ID) spirv.ID { return o.t.f.Op(op, o.bty, p, q) }
func (o floatOps) glsl(op spirv.GLSLOp, args ...spirv.ID) spirv.ID {
	return o.t.f.ExtInst(o.fty, op, args...)
}

// horner is the polynomial with coefficients cs (constant term first) at z.
func (o floatOps) horner(cs []float32, z spirv.ID) spirv.ID {
	r := o.c(float64(cs[len(cs)-1]))
	for i := len(cs) - 2; i >= 0; i-- {
		r = o.add(o.mul(r, z), o.c(float64(cs[i])))
	}
	return r
}

// minus is hi − v taken as hi + lo (a constant split in two floats):
// hi − (v − lo).
func (o floatOps) minus(exact float64, v spirv.ID) spirv.ID {
	hi := float32(exact)
	lo := float32(exact - float64(hi))
	return o.sub(o.c(float64(hi)), o.sub(v, o.c(float64(lo))))
}

// inverseTrig emits asin(x), or acos(x) when cos is set, as the comment
// above derives them.
func (t *translator) inverseTrig(ty air.Type, x spirv.ID, cos bool) spirv.ID {
	o := t.floatOps(ty)
	ax := o.glsl(spirv.GLSLFAbs, x)

	z1 := o.mul(x, x)
	asin1 := o.add(x, o.mul(o.mul(x, z1), o.horner(asinPoly[:], z1)))

	z2 := o.mul(o.sub(o.c(1), ax), o.c(0.5))
	s := o.glsl(spirv.GLSLSqrt, z2)
	corr := o.div(o.sub(z2, o.mul(s, s)), o.add(s, s))
	corr = o.sel(o.cmp(spirv.OpFOrdGreaterThan, z2, o.c(0)), corr, o.c(0)) // |x| = 1: s = 0
	w := o.add(s, o.add(o.mul(o.mul(s, z2), o.horner(asinPoly[:], z2)), corr))
	w2 := o.add(w, w)

	small := o.cmp(spirv.OpFOrdLessThanEqual, ax, o.c(0.5))
	neg := o.cmp(spirv.OpFOrdLessThan, x, o.c(0))
	var r spirv.ID
	if cos {
		r = o.sel(small, o.minus(math.Pi/2, asin1), o.sel(neg, o.minus(math.Pi, w2), w2))
	} else {
		big := o.minus(math.Pi/2, w2)
		r = o.sel(small, asin1, o.sel(neg, o.neg(big), big))
	}
	outside := o.cmp(spirv.OpFUnordGreaterThan, ax, o.c(1)) // |x| > 1 or NaN
	return o.sel(outside, o.c(math.NaN()), r)
}

// atan emits atan(x) as the comment above derives it. The reciprocal is
// taken of |x| clamped to 2^100 (atan is π/2 in float from 2^25 on), so
// that its Newton step sees no infinity.
func (t *translator) atan(ty air.Type, x spirv.ID) spirv.ID {
	o := t.floatOps(ty)
	ax := o.glsl(spirv.GLSLFAbs, x)
	big := o.cmp(spirv.OpFOrdGreaterThan, ax, o.c(1))
	ac := o.glsl(spirv.GLSLNMin, ax, o.c(0x1p100))
	r0 := o.div(o.c(1), ac)
	r1 := o.add(r0, o.mul(r0, o.sub(o.c(1), o.mul(ac, r0))))
	v := o.sel(big, r1, ax)
	z := o.mul(v, v)
	r := o.add(v, o.mul(o.mul(v, z), o.horner(atanPoly[:], z)))
	r = o.sel(big, o.minus(math.Pi/2, r), r)
	return o.sel(o.cmp(spirv.OpFOrdLessThan, x, o.c(0)), o.neg(r), r)
}

// lowerFastAtan2 is Metal's fast atan2 as Table 8.2 defines it: atan(y/x),
// plus M_PI_F when x < 0 and y > 0, minus it when x < 0 and y < 0 (undefined
// where x or y is 0), with atan as lowerAtan's. GLSL's Atan2 is not that
// composition: lavapipe's is 347 ulp off at (2^-126, 2^-126), where y/x is 1
// (airpipe opcheck --seed 1).
func lowerFastAtan2(t *translator, ty air.Type, a []spirv.ID) spirv.ID {
	if scalarBits(air.Scalar(ty)) != 32 {
		return lowerAtan2(t, ty, a)
	}
	o := t.floatOps(ty)
	y, x := a[0], a[1]
	zero := o.c(0)
	r := t.atan(ty, o.div(y, x))
	negX := o.cmp(spirv.OpFOrdLessThan, x, zero)
	up := t.f.Op(spirv.OpLogicalAnd, o.bty, negX, o.cmp(spirv.OpFOrdGreaterThan, y, zero))
	down := t.f.Op(spirv.OpLogicalAnd, o.bty, negX, o.cmp(spirv.OpFOrdLessThan, y, zero))
	pi := o.c(math.Pi) // M_PI_F
	r = o.sel(up, o.add(r, pi), r)
	return o.sel(down, o.sub(r, pi), r)
}

package cpuref

import (
	"fmt"
	"sort"
	"strings"
)

// OrderOnlyOps are the operation names (without air., fast_ and the type
// suffix) that Metal does not define to the bit only because it leaves open
// the order and fusing of their IEEE additions and multiplications; the
// Metal Shading Language specification gives each as a formula:
//
//	dot(a, b)              = Σ a[i]·b[i]
//	mix(x, y, a)           = x + (y − x)·a
//	cross(a, b)            = (a.y·b.z − a.z·b.y, a.z·b.x − a.x·b.z, a.x·b.y − a.y·b.x)
//	length_squared(x)      = dot(x, x)
//	distance_squared(a, b) = length_squared(a − b)
//
// The reference defines each in one canonical order (orderOnlyBody): plain
// fmul, fadd and fsub without fast-math flags, one rounding per operation,
// sums left to right starting from the first product (Σ = ((p0 + p1) + p2)
// + p3, never 0 + p0, so a −0 product survives), nothing fused. A GPU may sum
// in another order or fuse a multiply-add, so a module declaring one is run,
// but its float results are only approximately fixed: Result.Approximate
// names the operations, and the stage compares such a module's float outputs
// within a ULP bound rather than bit for bit. Integer words and words the
// shader never computes stay exact.
var OrderOnlyOps = []string{"dot", "mix", "cross", "length_squared", "distance_squared"}

// isOrderOnly reports whether plain (an operation name without air., fast_
// and the type suffix) is one of OrderOnlyOps.
func isOrderOnly(plain string) bool {
	for _, o := range OrderOnlyOps {
		if plain == o {
			return true
		}
	}
	return false
}

// orderOnlyNames returns the sorted names of the order-only operations among
// decls, as declared ("air.dot.v3f32").
func orderOnlyNames(decls []declaration) []string {
	var out []string
	for _, d := range decls {
		base, _, _ := strings.Cut(strings.TrimPrefix(d.Name, "air."), ".")
		if isOrderOnly(strings.TrimPrefix(base, "fast_")) || simdOrderOnly(d) || floatAtomicOrderOnly(d) {
			out = append(out, d.Name)
		}
	}
	sort.Strings(out)
	return out
}

// orderOnlyOp defines order-only operation plain (one of OrderOnlyOps) on the
// declaration's own types, float or half, scalars and vectors of 2 to 4. A
// form outside those is set aside (KindApproximate), as every order-only
// operation was before it was defined.
func orderOnlyOp(d declaration, plain string) (string, error) {
	body, ok := orderOnlyBody(d, plain)
	if !ok {
		return "", notJudgeable(KindApproximate, d.Name, "%s is an order-only operation in a form the reference does not define (%s(%s))", d.Name, d.Ret, strings.Join(d.Params, ", "))
	}
	var ps []string
	for i, p := range d.Params {
		ps = append(ps, fmt.Sprintf("%s %%a%d", p, i))
	}
	return fmt.Sprintf("define internal %s @%q(%s) {\n%s}\n", d.Ret, d.Name, strings.Join(ps, ", "), body), nil
}

// orderOnlyBody writes the canonical body of plain, or reports that the
// declaration's types are not a form it defines.
func orderOnlyBody(d declaration, plain string) (string, bool) {
	t, ps := d.Ret, d.Params
	e := elem(t)
	if e != "float" && e != "half" {
		return "", false
	}
	n := lanes(t)
	for _, x := range append([]string{t}, ps...) {
		if l := lanes(x); l < 1 || l > 4 { // Metal's vectors have at most 4 lanes
			return "", false
		}
	}
	var b strings.Builder
	switch {
	case plain == "dot" && len(ps) == 2 && ps[0] == ps[1] && elem(ps[0]) == e && !isVector(t) && lanes(ps[0]) >= 2:
		fmt.Fprintf(&b, "  ret %s %s\n", e, sumOfProducts(&b, ps[0], "%a0", "%a1"))
	case plain == "length_squared" && len(ps) == 1 && elem(ps[0]) == e && !isVector(t):
		fmt.Fprintf(&b, "  ret %s %s\n", e, sumOfProducts(&b, ps[0], "%a0", "%a0"))
	case plain == "distance_squared" && len(ps) == 2 && ps[0] == ps[1] && elem(ps[0]) == e && !isVector(t):
		fmt.Fprintf(&b, "  %%d = fsub %s %%a0, %%a1\n", ps[0])
		fmt.Fprintf(&b, "  ret %s %s\n", e, sumOfProducts(&b, ps[0], "%d", "%d"))
	case plain == "mix" && len(ps) == 3 && ps[0] == t && ps[1] == t && (ps[2] == t || isVector(t) && ps[2] == e):
		w := "%a2"
		if ps[2] != t { // a vector blend by one scalar weight: splat it
			fmt.Fprintf(&b, "  %%w0 = insertelement %s poison, %s %%a2, i32 0\n", t, e)
			fmt.Fprintf(&b, "  %%w = shufflevector %s %%w0, %s poison, <%d x i32> zeroinitializer\n", t, t, n)
			w = "%w"
		}
		fmt.Fprintf(&b, "  %%d = fsub %s %%a1, %%a0\n  %%m = fmul %s %%d, %s\n  %%r = fadd %s %%a0, %%m\n  ret %s %%r\n", t, t, w, t, t)
	case plain == "cross" && n == 3 && isVector(t) && len(ps) == 2 && ps[0] == t && ps[1] == t:
		// Lane i: a[i+1]·b[i+2] − a[i+2]·b[i+1] (indices mod 3); each
		// product and the difference rounded once.
		const yzx, zxy = "<3 x i32> <i32 1, i32 2, i32 0>", "<3 x i32> <i32 2, i32 0, i32 1>"
		fmt.Fprintf(&b, "  %%a_yzx = shufflevector %s %%a0, %s poison, %s\n", t, t, yzx)
		fmt.Fprintf(&b, "  %%b_zxy = shufflevector %s %%a1, %s poison, %s\n", t, t, zxy)
		fmt.Fprintf(&b, "  %%a_zxy = shufflevector %s %%a0, %s poison, %s\n", t, t, zxy)
		fmt.Fprintf(&b, "  %%b_yzx = shufflevector %s %%a1, %s poison, %s\n", t, t, yzx)
		fmt.Fprintf(&b, "  %%p = fmul %s %%a_yzx, %%b_zxy\n  %%q = fmul %s %%a_zxy, %%b_yzx\n  %%r = fsub %s %%p, %%q\n  ret %s %%r\n", t, t, t, t)
	default:
		return "", false
	}
	return b.String(), true
}

// sumOfProducts writes Σ x[i]·y[i] over the lanes of type t (a scalar: x·y),
// each product rounded, summed left to right from the first product, and
// returns the name of the sum.
func sumOfProducts(b *strings.Builder, t, x, y string) string {
	n, e := lanes(t), elem(t)
	if !isVector(t) {
		fmt.Fprintf(b, "  %%p0 = fmul %s %s, %s\n", e, x, y)
		return "%p0"
	}
	sum := ""
	for i := range n {
		fmt.Fprintf(b, "  %%x%d = extractelement %s %s, i32 %d\n  %%y%d = extractelement %s %s, i32 %d\n", i, t, x, i, i, t, y, i)
		fmt.Fprintf(b, "  %%p%d = fmul %s %%x%d, %%y%d\n", i, e, i, i)
		if i == 0 {
			sum = "%p0"
			continue
		}
		fmt.Fprintf(b, "  %%s%d = fadd %s %s, %%p%d\n", i, e, sum, i)
		sum = fmt.Sprintf("%%s%d", i)
	}
	return sum
}

// isVector reports whether t is a vector type.
func isVector(t string) bool { return strings.HasPrefix(t, "<") }

// lanes is t's element count (1 for a scalar, 0 when unreadable).
func lanes(t string) int {
	var n int
	if _, err := fmt.Sscanf(vecLen(t), "%d", &n); err != nil {
		return 0
	}
	return n
}

package opcheck

import (
	"math"
	"math/rand/v2"
	"sort"
)

// floatEdges are the edge values of a float format: signed zeros,
// infinities, NaNs, the least and greatest denormals, normals and finite
// values, powers of two across the exponent range, ties at every
// rounding boundary, values next to 1 and the integer limits a
// conversion saturates at.
func floatEdges(t Type) []uint64 {
	f := fmtOf(t)
	var v []float64
	add := func(xs ...float64) {
		for _, x := range xs {
			v = append(v, x, -x)
		}
	}
	add(0, math.Inf(1), math.Ldexp(1, f.emin-(f.p-1)), f.minNormal()-math.Ldexp(1, f.emin-(f.p-1)), f.minNormal(), f.maxFinite(),
		1, 0.5, 1.5, 2.5, 3.5, 2, 3, math.Pi, math.Pi/2, math.Pi/4, 1+math.Ldexp(1, 1-f.p), 1-math.Ldexp(1, -f.p),
		0.25, 0.75, 10, 100, 0.1, 1e-3, 0.0031308, 0.04045)
	for e := f.emin; e <= f.emax; e += max(1, (f.emax-f.emin)/24) {
		add(math.Ldexp(1, e), math.Ldexp(1.5, e))
	}
	for _, b := range []int{7, 8, 15, 16, 31, 32, 63} {
		p := math.Ldexp(1, b)
		add(p, p-1, p+1, p-0.5)
	}
	if f == binary32 || f == bfloat16 {
		add(88.72, 89, 127.9, 128, -149.5, 1e10, 1e30)
	} else {
		add(11.09, 15.9, 16, 24, 65504)
	}
	seen := map[uint64]bool{}
	var out []uint64
	for _, x := range v {
		b := encodeFloat(t, f.round(x))
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	// A quiet NaN of each sign and one with another payload.
	nans := map[Type][]uint64{}
	switch {
	case t.Kind == 'b':
		nans[t] = []uint64{0x7fc0, 0xffc0, 0x7f81}
	case t.Bits == 16:
		nans[t] = []uint64{0x7e00, 0xfe00, 0x7c01}
	default:
		nans[t] = []uint64{0x7fc00000, 0xffc00000, 0x7f800001 | 0x400000>>1}
	}
	return append(out, nans[t]...)
}

// intEdges are an integer type's edge values: 0, ±1, the signed and
// unsigned limits and their neighbours, and powers of two.
func intEdges(t Type) []uint64 {
	m := t.mask()
	if t.Bits == 1 {
		return []uint64{0, 1}
	}
	v := []uint64{0, 1, 2, m, m - 1, m >> 1, m>>1 + 1, m>>1 - 1, m>>1 + 2, 0x55555555_55555555 & m, 0xaaaaaaaa_aaaaaaaa & m}
	for b := 2; b < t.Bits; b += 3 {
		v = append(v, 1<<b, (1<<b)-1, -(uint64(1)<<b)&m)
	}
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	var out []uint64
	for i, x := range v {
		if i == 0 || x != v[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func edges(t Type) []uint64 {
	if t.IsFloat() {
		return floatEdges(t)
	}
	return intEdges(t)
}

// randomValue is a random element of t: a raw bit pattern, or for floats
// as often a value of moderate size (|x| < 8) or one in [0, 1).
func randomValue(r *rand.Rand, t Type) uint64 {
	if !t.IsFloat() {
		return r.Uint64() & t.mask()
	}
	f := fmtOf(t)
	switch r.IntN(3) {
	case 0:
		return r.Uint64() & t.mask()
	case 1:
		return encodeFloat(t, f.round((r.Float64()*2-1)*8))
	}
	return encodeFloat(t, f.round(r.Float64()))
}

// Cases returns the argument tuples opcheck evaluates op on: per scalar
// argument, one element each (lanes of a vector take consecutive
// tuples). Unary operations take every edge value; wider ones the cross
// product of a subset of them; then random tuples from seed, half of them
// moved into the arguments' defined domain (mix's a in [0, 1], clamp's
// bounds in order, powr's x >= 0).
func Cases(op *Op, random int, seed uint64) [][]uint64 {
	r := rand.New(rand.NewPCG(seed, uint64(len(op.Name))))
	n := len(op.Args)
	var out [][]uint64
	e := edges(op.Args[0].Elem())
	switch {
	case n == 1:
		for _, x := range e {
			out = append(out, []uint64{x})
		}
	default:
		k := len(e)
		if n == 2 && k > 24 {
			k = 24
		} else if n >= 3 && k > 10 {
			k = 10
		}
		sub := make([]uint64, 0, k)
		for i := range k {
			sub = append(sub, e[i*len(e)/k])
		}
		var rec func(prefix []uint64)
		rec = func(prefix []uint64) {
			if len(prefix) == n {
				out = append(out, append([]uint64(nil), prefix...))
				return
			}
			for _, x := range sub {
				rec(append(prefix, x))
			}
		}
		rec(nil)
	}
	for i := range random {
		tu := make([]uint64, n)
		for j := range n {
			tu[j] = randomValue(r, op.Args[j].Elem())
		}
		if i%2 == 0 {
			intoDomain(op, tu)
		}
		out = append(out, tu)
	}
	return out
}

// intoDomain moves a tuple into the domain where op is defined.
func intoDomain(op *Op, tu []uint64) {
	t := op.Args[0].Elem()
	if !t.IsFloat() {
		return
	}
	f := fmtOf(t)
	abs := func(j int) {
		if x := decodeFloat(t, tu[j]); math.Signbit(x) {
			tu[j] = encodeFloat(t, -x)
		}
	}
	switch op.Family {
	case "mix":
		x := math.Abs(decodeFloat(t, tu[2]))
		if !(x <= 1) {
			x = math.Mod(x, 1)
		}
		if math.IsNaN(x) {
			x = 0.5
		}
		tu[2] = encodeFloat(t, f.round(x))
	case "clamp":
		if decodeFloat(t, tu[1]) > decodeFloat(t, tu[2]) {
			tu[1], tu[2] = tu[2], tu[1]
		}
	case "powr", "log", "log2", "log10", "sqrt", "rsqrt":
		abs(0)
	case "asin", "acos":
		x := decodeFloat(t, tu[0])
		if math.Abs(x) > 1 {
			tu[0] = encodeFloat(t, f.round(math.Mod(x, 1)))
		}
	}
}

package translate

import (
	"encoding/binary"
	"math"
	"math/big"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/mathbound"
	"github.com/airpipe/airpipe/device"
)

// The Metal rules of pack.go, in Go, as the expectations of the executed test.

func wantUnorm8(x float32) uint32 {
	if x != x {
		return 0
	}
	x = float32(math.Min(math.Max(float64(x), 0), 1))
	return uint32(math.RoundToEven(float64(x * 255)))
}

func wantSnorm8(x float32) uint32 {
	if x != x {
		return 0
	}
	x = float32(math.Min(math.Max(float64(x), -1), 1))
	return uint32(int32(math.RoundToEven(float64(x*127)))) & 0xff
}

// srgbEncode is MSL's linear-to-sRGB value of a clamped, NaN-free x, in float64.
func srgbEncode(x float32) float64 {
	if x < 0.0031308 {
		return float64(x * 12.92)
	}
	return 1.055*math.Pow(float64(x), 1/2.4) - 0.055
}

// TestNormTables checks the unpack tables against exact rational arithmetic,
// and that the float64 sRGB values are far enough from every float32
// rounding midpoint for their float32 rounding to be the correct one.
func TestNormTables(t *testing.T) {
	u, s, g := normTable(false, false), normTable(true, false), normTable(false, true)
	for c := 0; c < 256; c++ {
		q, _ := new(big.Float).SetPrec(256).Quo(big.NewFloat(float64(c)), big.NewFloat(255)).Float32()
		if u[c] != q {
			t.Errorf("unorm %d: %g, want %g", c, u[c], q)
		}
		if float32(c)*float32(1.0/255) != q && u[c] == float32(c)*float32(1.0/255) {
			t.Errorf("unorm %d: the table holds the reciprocal product", c)
		}
		sc := float64(int8(uint8(c)))
		qs, _ := new(big.Float).SetPrec(256).Quo(big.NewFloat(sc), big.NewFloat(127)).Float32()
		if qs < -1 {
			qs = -1
		}
		if s[c] != qs {
			t.Errorf("snorm %d: %g, want %g", c, s[c], qs)
		}
		// The float32 nearest to the float64 value; its distance to the
		// midpoint on either side must exceed the float64 error by far.
		x := float64(c) / 255
		var v float64
		if x <= 0.04045 {
			v = x / 12.92
		} else {
			v = math.Pow((x+0.055)/1.055, 2.4)
		}
		f := g[c]
		if float64(f) != float64(float32(v)) {
			t.Errorf("srgb %d: %g, want %g", c, f, float32(v))
		}
		if c > 0 {
			up := float64(math.Nextafter32(f, 2))
			down := float64(math.Nextafter32(f, -1))
			margin := math.Min(math.Abs(v-(float64(f)+up)/2), math.Abs(v-(float64(f)+down)/2))
			if margin < 1e3*math.Abs(v)*0x1p-53 {
				t.Errorf("srgb %d: %g is %g from a float32 midpoint: float64 does not decide its rounding", c, v, margin)
			}
		}
	}
	if u[255] != 1 || s[129] != -1 || s[128] != -1 || s[127] != 1 || g[255] != 1 || g[0] != 0 {
		t.Errorf("end points: unorm %g, snorm %g %g %g, srgb %g %g", u[255], s[128], s[129], s[127], g[0], g[255])
	}
}

// packInputs are the lanes the executed test packs: the rounding boundaries
// (k+0.5)/255 and (k+0.5)/127 and their float neighbours, exact ties, the
// ends, values beyond them, and NaN.
func packInputs() []float32 {
	xs := []float32{0, 1, -1, 2, -2, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0.5, -0.5, 1e-30, -1e-30}
	for _, k := range []int{0, 1, 2, 63, 64, 126, 127, 128, 200, 253, 254} {
		for _, d := range []float64{255, 127} {
			b := float32((float64(k) + 0.5) / d)
			xs = append(xs, b, math.Nextafter32(b, 2), math.Nextafter32(b, -2), -b)
		}
	}
	// Ties: floats whose product with 255 or 127 is exactly k + 0.5, where
	// round-to-nearest-even and round-half-away part (even k: down).
	for _, d := range []float32{255, 127} {
		for k := 0; k < int(d); k++ {
			b := float32((float64(k) + 0.5) / float64(d))
			for j, x := 0, math.Nextafter32(b, -2); j < 5; j, x = j+1, math.Nextafter32(x, 2) {
				if x*d == float32(k)+0.5 {
					xs = append(xs, x, -x)
				}
			}
		}
	}
	for len(xs)%4 != 0 {
		xs = append(xs, 0.25)
	}
	return xs
}

// TestPackExecuted runs the kernel_pack fixture on lavapipe over packInputs
// and every byte pattern, and compares each lane with the rules above: exact
// for unorm and snorm (pack and unpack) and sRGB unpack, within one code for
// sRGB pack (powr is approximate; see pack.go).
func TestPackExecuted(t *testing.T) {
	k := onLavapipe(t, "kernel_pack.ll")
	xs := packInputs()
	n := 512 // threads: one word each; inputs repeat
	if len(xs)/4 > n {
		t.Fatalf("%d inputs for %d threads", len(xs), n)
	}
	in := make([]float32, 4*n)
	for i := range in {
		in[i] = xs[i%len(xs)]
	}
	words := make([]uint32, n)
	for i := range words {
		// Every byte value in every lane.
		b := uint32(i & 0xff)
		words[i] = b | (b^0x5a)<<8 | (255-b)<<16 | (b*7&0xff)<<24
	}
	bufs := k.buffers(16*int64(n), 16*int64(n), 4*int64(n), 64*int64(n))
	for i, x := range in {
		binary.LittleEndian.PutUint32(bufs[0].Bytes()[4*i:], math.Float32bits(x))
	}
	for i, w := range words {
		binary.LittleEndian.PutUint32(bufs[2].Bytes()[4*i:], w)
	}
	k.run(uint32(n/64), 64, bufs)
	word := func(b *device.Buffer, i int) uint32 { return binary.LittleEndian.Uint32(b.Bytes()[4*i:]) }
	bad := 0
	fail := func(format string, args ...any) {
		if bad++; bad <= 20 {
			t.Errorf(format, args...)
		}
	}
	for i := 0; i < n; i++ {
		x := in[4*i : 4*i+4]
		var wu, ws, wh uint32
		for l := 0; l < 4; l++ {
			wu |= wantUnorm8(x[l]) << (8 * l)
			ws |= wantSnorm8(x[l]) << (8 * l)
			wh |= wantUnorm8(float32(halfRound(x[l]))) << (8 * l)
		}
		if got := word(bufs[1], 4*i); got != wu {
			fail("pack unorm %v: %08x, want %08x", x, got, wu)
		}
		if got := word(bufs[1], 4*i+1); got != ws {
			fail("pack snorm %v: %08x, want %08x", x, got, ws)
		}
		if got := word(bufs[1], 4*i+3); got != wh {
			fail("pack unorm half %v: %08x, want %08x", x, got, wh)
		}
		got := word(bufs[1], 4*i+2)
		for l := 0; l < 4; l++ {
			c := x[l]
			if c != c {
				c = 0
			}
			c = float32(math.Min(math.Max(float64(c), 0), 1))
			e := float64(c)
			if l < 3 {
				e = srgbEncode(c)
			}
			g := got >> (8 * l) & 0xff
			switch {
			case l == 3 && g != wantUnorm8(x[l]):
				fail("pack srgb %v alpha: %d, want %d", x, g, wantUnorm8(x[l]))
			case math.Abs(float64(g)-e*255) > 0.5+1e-3:
				fail("pack srgb %v lane %d: %d, want %v (within one code)", x, l, g, e*255)
			}
		}
		u, s, srgb := normTable(false, false), normTable(true, false), normTable(false, true)
		for l := 0; l < 4; l++ {
			b := words[i] >> (8 * l) & 0xff
			lane := func(k int) float32 {
				return math.Float32frombits(word(bufs[3], 16*i+4*k+l))
			}
			if lane(0) != u[b] {
				fail("unpack unorm %08x lane %d: %g, want %g", words[i], l, lane(0), u[b])
			}
			if lane(1) != s[b] {
				fail("unpack snorm %08x lane %d: %g, want %g", words[i], l, lane(1), s[b])
			}
			wg := srgb[b]
			if l == 3 {
				wg = u[b]
			}
			if lane(2) != wg {
				fail("unpack srgb %08x lane %d: %g, want %g", words[i], l, lane(2), wg)
			}
			if want := float32(halfRound(u[b])); lane(3) != want {
				fail("unpack unorm half %08x lane %d: %g, want %g", words[i], l, lane(3), want)
			}
		}
	}
}

// halfRound is x rounded to the nearest half (ties to even), as a float64.
func halfRound(x float32) float64 {
	h := float32ToHalf(x)
	return mathbound.HalfValue(h)
}

// TestPackRefusals: a pack or unpack whose name or operands do not fit a
// Metal function is refused (false: the caller reports it by name).
func TestPackRefusals(t *testing.T) {
	for _, name := range []string{"pack.snorm4x8.srgb", "pack.unorm2x16.srgb", "pack.rgb565", "unpack.unorm10a2", "pack.unorm4x8", "unpack.snorm2x16"} {
		var tr translator
		if _, ok := tr.pack(&air.Call{}, name); ok {
			t.Errorf("%s without operands lowered", name)
		}
	}
}

// TestPackInputsHaveTies: the executed test's inputs hold ties that
// round-half-away would round differently (so it can tell the two apart).
func TestPackInputsHaveTies(t *testing.T) {
	ties := 0
	for _, x := range packInputs() {
		for _, d := range []float32{255, 127} {
			p := float64(x * d)
			if p == math.Floor(p)+0.5 && math.RoundToEven(p) != math.Round(p) {
				ties++
			}
		}
	}
	if ties < 10 {
		t.Fatalf("%d parting ties", ties)
	}
	if n := len(packInputs()) / 4; n > 512 {
		t.Fatalf("%d input vectors for 512 threads", n)
	}
}

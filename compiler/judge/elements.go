package judge

import (
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"math"
	"strings"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/mathbound"
)

// wordKind says what a 32-bit output word holds, so that it is compared as
// its element type: bit for bit, or as floats whose NaNs are all equal.
type wordKind uint8

const (
	// wordBits is compared bit for bit: integers, structs, anything whose
	// type is not known.
	wordBits wordKind = iota
	// wordFloat is one float32.
	wordFloat
	// wordHalf is two IEEE half-precision floats (low lane first).
	wordHalf
	// wordBFloat is two bfloat16 values (the high half of a float32).
	wordBFloat
)

// String names the kind as the row's data does.
func (k wordKind) String() string {
	switch k {
	case wordFloat:
		return "float"
	case wordHalf:
		return "half"
	case wordBFloat:
		return "bfloat"
	}
	return "bits"
}

// elementKind maps a buffer's Metal element type (air.arg_type_name) to the
// kind of its words: float, half and bfloat scalars, vectors (float4,
// packed_half3) and matrices (float4x4) are floats of that width; every
// other name (integers, bool, structs) is compared bit for bit. Metal's
// half and bfloat are 16 bits wide, so each 32-bit word holds two lanes;
// the 16-bit element types start on 2-byte boundaries, so lanes never
// straddle words.
func elementKind(typeName string) wordKind {
	// Byte loops, not strings.TrimLeft and Trim: Compare asks for every
	// word, and building their cutsets was a tenth of airpipe's own CPU.
	base := strings.TrimPrefix(typeName, "packed_")
	n := 0
	for n < len(base) && base[n] >= 'a' && base[n] <= 'z' {
		n++
	}
	base, shape := base[:n], base[n:]
	if strings.HasPrefix(shape, "x") {
		return wordBits
	}
	for i := 0; i < len(shape); i++ {
		if c := shape[i]; (c < '0' || c > '9') && c != 'x' {
			return wordBits
		}
	}
	switch base {
	case "float":
		return wordFloat
	case "half":
		return wordHalf
	case "bfloat":
		return wordBFloat
	}
	return wordBits
}

// kindOfWord is the kind of word w of the output with harness index index:
// a float render target, vertex output, depth or writable float texture is
// float32; a buffer has its element type's kind (elementKind).
func kindOfWord(k *cpuref.Kernel, index, w int) wordKind {
	if floatWord(k, index, w) {
		return wordFloat
	}
	if index < cpuref.RenderTargetBase && !(k.Stage == air.Vertex && index == cpuref.OutputBuffer) {
		for _, b := range k.Buffers {
			if b.Index == index {
				if len(b.Members) > 0 {
					return memberKind(b, w)
				}
				return elementKind(b.TypeName)
			}
		}
	}
	return wordBits
}

// outputKinds is kindOfWord for every word of one output, worked out once
// per output rather than once per word (Compare and Digest ask for every
// word of every output): the kinds repeat with a period, one word for most
// outputs, a record for a vertex shader's outputs, an element for a buffer
// of structs.
type outputKinds []wordKind

// kindsOf is the outputKinds of the output with harness index index.
func kindsOf(k *cpuref.Kernel, index int) outputKinds {
	period := 1
	switch {
	case k.Stage == air.Vertex && index == cpuref.OutputBuffer && len(k.Outputs) > 0:
		period = 4 * len(k.Outputs) // floatWord: output w/4 of the record
	default:
		for _, b := range k.Buffers {
			if b.Index == index && len(b.Members) > 0 && b.ElementSize > 0 && b.ElementSize%4 == 0 {
				period = b.ElementSize / 4 // memberKind: the word's offset in its element
			}
		}
	}
	ks := make(outputKinds, period)
	for w := range ks {
		ks[w] = kindOfWord(k, index, w)
	}
	return ks
}

// at is the kind of word w.
func (ks outputKinds) at(w int) wordKind { return ks[w%len(ks)] }

// memberKind is the kind of word w of a buffer of structs: the kind of
// the member that holds the word's bytes (air.struct_type_info), e.g.
// float for Metal's atomic<float> (metal::_atomic { float __s; }). A word
// holding bytes of members of different kinds, part of a float, or only
// padding, and every word of an element whose size is not a multiple of
// 4, Compare bit for bit.
func memberKind(b cpuref.Buffer, w int) wordKind {
	if b.ElementSize <= 0 || b.ElementSize%4 != 0 {
		return wordBits // words straddle elements
	}
	start := (w * 4) % b.ElementSize
	kind, found := wordBits, false
	for _, m := range b.Members {
		lo, hi := max(start, m.Offset), min(start+4, m.Offset+m.Size)
		if lo >= hi {
			continue
		}
		k := elementKind(m.TypeName)
		if k == wordFloat && (lo != start || hi != start+4) {
			k = wordBits // part of a float in this word
		}
		if found && k != kind {
			return wordBits
		}
		kind, found = k, true
	}
	return kind
}

// lanes splits a word into its 16-bit lanes, low first.
func lanes(w uint32) [2]uint16 { return [2]uint16{uint16(w), uint16(w >> 16)} }

// isNaN reports whether a value of the kind's lane width is a NaN.
func (k wordKind) isNaN(v uint32) bool {
	switch k {
	case wordFloat:
		return v&0x7f800000 == 0x7f800000 && v&0x7fffff != 0
	case wordHalf:
		return v&0x7c00 == 0x7c00 && v&0x3ff != 0
	case wordBFloat:
		return v&0x7f80 == 0x7f80 && v&0x7f != 0
	}
	return false
}

// nonFiniteDiffer reports whether every value where words a (the
// reference's) and b differ is, in a, a NaN or an infinity.
func (k wordKind) nonFiniteDiffer(a, b uint32) bool {
	switch k {
	case wordFloat:
		return a&0x7f800000 == 0x7f800000
	case wordHalf, wordBFloat:
		exp := uint16(0x7c00)
		if k == wordBFloat {
			exp = 0x7f80
		}
		la, lb := lanes(a), lanes(b)
		for i := range la {
			if la[i] != lb[i] && !k.sameValue(uint32(la[i]), uint32(lb[i])) && la[i]&exp != exp {
				return false
			}
		}
		return true
	}
	return false
}

// sameValue reports whether two words hold the same values of the kind: bit
// for bit, except that a NaN equals any NaN lane by lane (IEEE 754, Metal
// and Vulkan leave a NaN result's sign and payload open).
func (k wordKind) sameValue(a, b uint32) bool {
	switch {
	case a == b:
		return true
	case k == wordBits:
		return false
	case k == wordFloat:
		return k.isNaN(a) && k.isNaN(b)
	}
	la, lb := lanes(a), lanes(b)
	for i := range la {
		if la[i] != lb[i] && !(k.isNaN(uint32(la[i])) && k.isNaN(uint32(lb[i]))) {
			return false
		}
	}
	return true
}

// canonical replaces every NaN lane of a word by one NaN, for digests.
func (k wordKind) canonical(w uint32) uint32 {
	switch k {
	case wordFloat:
		if k.isNaN(w) {
			return canonicalNaN
		}
	case wordHalf, wordBFloat:
		nan := uint16(0x7e00)
		if k == wordBFloat {
			nan = 0x7fc0
		}
		l := lanes(w)
		for i := range l {
			if k.isNaN(uint32(l[i])) {
				l[i] = nan
			}
		}
		return uint32(l[0]) | uint32(l[1])<<16
	}
	return w
}

// flushedDenormal reports whether float32 words a (the reference's) and b
// differ only by a denormal flushed to zero: one is a denormal, the other a
// zero. Metal lets a module compiled with denormals disabled
// (air.compile.denorms_disable) flush float denormals on either side.
func flushedDenormal(a, b uint32) bool {
	denormal := func(x uint32) bool { return x&0x7f800000 == 0 && x&0x7fffff != 0 }
	zero := func(x uint32) bool { return x&0x7fffffff == 0 }
	return denormal(a) && zero(b) || zero(a) && denormal(b)
}

// show16 prints a 16-bit lane of a half or bfloat word.
func (k wordKind) show16(v uint16) float64 {
	if k == wordBFloat {
		return float64(math.Float32frombits(uint32(v) << 16))
	}
	return mathbound.HalfValue(v)
}

// show prints a word as hex and as the values of its kind.
func (k wordKind) show(w uint32) string {
	switch k {
	case wordHalf, wordBFloat:
		l := lanes(w)
		return fmt.Sprintf("%#08x (%s %g, %g)", w, k, k.show16(l[0]), k.show16(l[1]))
	}
	return Show(w)
}

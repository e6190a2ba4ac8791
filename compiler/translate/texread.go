package translate

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Constexpr sampler states and Metal 4's read sampler (ABI.md, "Texture
// functions").
//
// A constexpr sampler is a constant addrspace(2) global holding Metal's
// sampler state: one i64 word, or (AIR 2.7 and later, listed in
// !air.sampler_states) an array of i64 words, `[2 x i64] [STATE, 0]`. The
// words are not decoded: the reflection carries them verbatim, in order,
// comma-separated ("0x…,0x…"), so the first is the classic 64-bit state word;
// zero words after the last non-zero one are left out, so the corpus's
// [STATE, 0] reads "0x…" exactly as a one-word state does.
//
// AIR 2.8 (Metal 4) compiles a texture's read(coord[, lod]) with a sampler
// the function makes for itself, air.get_read_sampler(), and a texel offset:
// read_texture_2d(tex, get_read_sampler(), coord, offset, lod, access). The
// Metal Shading Language's read takes no sampler and no offset; the sampler
// carries nothing a read uses (integer coordinates, no filtering), so the
// read is lowered as every read is (OpImageFetch / OpImageRead). A non-zero
// offset, which read() cannot express, is refused by name.

// maxSamplerStateWords bounds the words of a constexpr sampler state.
const maxSamplerStateWords = 4

// samplerState is the reflection's sampler_state of constexpr sampler
// global g, and whether g is one.
func samplerState(g *air.GlobalVariable) (string, bool) {
	if g.AddrSpace != 2 {
		return "", false
	}
	word := func(c air.Constant) (uint64, bool) {
		if ci, ok := c.(*air.ConstInt); ok && ci.Typ.Bits == 64 {
			return ci.Bits, true
		}
		return 0, false
	}
	if w, ok := word(g.Init); ok {
		return fmt.Sprintf("0x%016x", w), true
	}
	agg, ok := g.Init.(*air.ConstAggregate)
	if _, arr := g.ValueType.(*air.ArrayType); !ok || !arr || len(agg.Elems) == 0 || len(agg.Elems) > maxSamplerStateWords {
		return "", false
	}
	words := make([]string, len(agg.Elems))
	last := 0 // the words up to the last non-zero one (at least the first)
	for i, e := range agg.Elems {
		w, ok := word(e)
		if !ok {
			return "", false
		}
		words[i] = fmt.Sprintf("0x%016x", w)
		if w != 0 {
			last = i
		}
	}
	return strings.Join(words[:last+1], ","), true
}

// readSampler stands for the value of air.get_read_sampler() (no binding).
var readSampler = &resource{sampler: true}

// getReadSampler lowers air.get_read_sampler(): its result is readSampler,
// which only a texture read may take.
func (t *translator) getReadSampler(c *air.Call) (spirv.ID, bool) {
	if len(c.Args) != 0 || !isPointer(c.Type()) {
		return 0, false
	}
	t.res[c] = readSampler
	return 0, true
}

// withoutReadSampler returns a read's call as the classic form,
// read(tex, coord, ...), when it takes Metal 4's read sampler and offset;
// ok is false when the offset is not zero (a finding names it).
func (t *translator) withoutReadSampler(c *air.Call, op string) (*air.Call, bool) {
	if len(c.Args) < 4 || t.resource(c.Args[1]) != readSampler {
		return c, true
	}
	if !isConstZero(c.Args[3]) {
		t.miss.addf(CodeUnhandledInstruction, "air.%s with a texel offset", op)
		return c, false
	}
	cc := *c
	cc.Args = append([]air.Value{c.Args[0], c.Args[2]}, c.Args[4:]...)
	return &cc, true
}

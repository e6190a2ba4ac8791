package cpuref

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Constexpr samplers. A sampler the shader declares itself (MSL's
// "constexpr sampler s(args...)") reaches AIR as a 64-bit state word: an
// addrspace(2) constant i64 global (AIR's @__air_sampler_state, listed in
// !air.sampler_states) passed as the sampler operand, or that word cast with
// inttoptr. Apple documents no layout for the word, so it is decoded only as
// far as evidence goes: libraries that embed their own source (HSRC/HSRD →
// SARC) hold the declarations beside the words they compiled to, and
// SamplerEvidence lists every pairing found in the corpus share
// (TestSamplerEvidenceCorpus re-derives it). Per field:
//
//	field                       bits (0 = least significant)   evidence
//	mag_filter, min_filter      9 and 11, set together          (nearest, nearest) → 0; (linear, linear) → both set
//	mip_filter                  13–14                           none → 0; linear → bit 14
//	address s/t/r               0x049 in bits 0–8               clamp_to_edge on all three (the default) only
//	coord, compare_func,        the other bits, 0x807bff0000080049
//	border_color,               (bits 40–55 hold 0x7bff, half's  defaults only: normalized, none,
//	max_anisotropy, lod_clamp   largest finite value)           transparent_black, 1, [0, FLT_MAX]
//
// The two evidenced words differ in exactly bits 9, 11 and 14, as their
// declarations differ in exactly mag/min and mip; the fields are decoded
// independently, each to a value evidenced for it: so (linear, linear,
// none) — bits 9 and 11 without 14, the corpus's most frequent word
// 0x807bff0000080a49 — decodes, while a word with only one of bits 9 and 11
// set is a named gap (which of mag_filter and min_filter it is is
// unknown), as is a mip field other than 0 or bit 14 (nearest is not
// evidenced), bits 10 or 12, and any bit outside bits 9–14 that differs from
// the evidenced words (another address mode, pixel coordinates, a compare
// function, a border colour, anisotropy or a LOD clamp). DecodeSampler
// refuses such a word naming the field; the module then stays unjudged with
// that name. (The reference's textures are uniform, every texel one value,
// so the filters decide nothing the comparison sees; they are decoded so
// that the device's sampler is the one the shader declares.)

// SamplerState is a constexpr sampler as MSL declares it, decoded from its
// state word. Names are MSL's enumerators.
type SamplerState struct {
	// Word is the state word, verbatim.
	Word uint64
	// Address is s_address, t_address and r_address ("clamp_to_edge", ...).
	Address [3]string
	// Mag and Min are "nearest" or "linear"; Mip is "none", "nearest" or "linear".
	Mag, Min, Mip string
	// Coord is "normalized" or "pixel".
	Coord string
	// Compare is compare_func ("none" when the sampler does not compare).
	Compare string
	// Border is border_color ("transparent_black", "opaque_black", "opaque_white").
	Border string
	// MaxAnisotropy is max_anisotropy (1: none).
	MaxAnisotropy int
	// LODMin and LODMax are lod_clamp's bounds.
	LODMin, LODMax float32
}

// DefaultSampler is a constexpr sampler declared with no arguments: MSL's
// defaults for every field.
func DefaultSampler() SamplerState {
	return SamplerState{Address: [3]string{"clamp_to_edge", "clamp_to_edge", "clamp_to_edge"},
		Mag: "nearest", Min: "nearest", Mip: "none", Coord: "normalized", Compare: "none",
		Border: "transparent_black", MaxAnisotropy: 1, LODMin: 0, LODMax: math.MaxFloat32}
}

// SamplerEvidence pairs a constexpr sampler declaration found in embedded
// source with the state word the same library's modules carry for it.
var SamplerEvidence = []struct {
	Declaration string
	Word        uint64
}{
	{"constexpr sampler textureSampler(mag_filter::nearest, min_filter::nearest)", 0x807bff0000080049},
	{"constexpr sampler textureSampler(mag_filter::linear, min_filter::linear, mip_filter::linear)", 0x807bff0000084a49},
}

// samplerFilterBits are the bits the evidence shows the filters in
// (samplerMagMinBits, samplerMipBits, and bits 10 and 12, which no evidence
// sets); samplerDefaultBits the rest of every evidenced word.
const (
	samplerFilterBits  = 0x7e00
	samplerMagMinBits  = 0x0a00
	samplerMipBits     = 0x6000
	samplerDefaultBits = 0x807bff0000080049
	samplerAddressBits = 0x1ff
)

// samplerMagMin maps the evidenced values of the mag/min bits to (mag,
// min); samplerMip those of the mip bits to the mip filter.
var (
	samplerMagMin = map[uint64][2]string{0x0000: {"nearest", "nearest"}, 0x0a00: {"linear", "linear"}}
	samplerMip    = map[uint64]string{0x0000: "none", 0x4000: "linear"}
)

// DecodeSampler decodes a constexpr sampler's state word, or returns a
// *NotJudgeableError (KindTexture) whose Detail names the field no evidence
// decodes ("constexpr sampler filters", "constexpr sampler address mode",
// "constexpr sampler bits 0x...").
func DecodeSampler(word uint64) (SamplerState, error) {
	s := DefaultSampler()
	s.Word = word
	f, okMagMin := samplerMagMin[word&samplerMagMinBits]
	mip, okMip := samplerMip[word&samplerMipBits]
	if !okMagMin || !okMip || word&samplerFilterBits&^(samplerMagMinBits|samplerMipBits) != 0 {
		return s, notJudgeable(KindTexture, "constexpr sampler filters",
			"constexpr sampler state %#016x: filter bits %#x decode to no evidenced value (mag/min bits 9 and 11: both clear, nearest, or both set, linear; mip bits 13–14: clear, none, or bit 14, linear; bits 10 and 12 clear)", word, word&samplerFilterBits)
	}
	s.Mag, s.Min, s.Mip = f[0], f[1], mip
	if diff := (word &^ samplerFilterBits) ^ samplerDefaultBits; diff != 0 {
		if diff&samplerAddressBits != 0 {
			return s, notJudgeable(KindTexture, "constexpr sampler address mode",
				"constexpr sampler state %#016x: address bits %#x match no declaration seen in embedded source (only clamp_to_edge on s, t and r is evidenced)", word, word&samplerAddressBits)
		}
		return s, notJudgeable(KindTexture, fmt.Sprintf("constexpr sampler bits %#x", diff),
			"constexpr sampler state %#016x: bits %#x differ from every word seen beside its declaration (coord, compare_func, border_color, max_anisotropy and lod_clamp are evidenced at their defaults only)", word, diff)
	}
	return s, nil
}

// ConstexprSampler is one constexpr sampler a module uses: the global that
// holds its word (Global, without @) or, for an inttoptr operand, "".
type ConstexprSampler struct {
	Global string `json:",omitempty"`
	State  SamplerState
	// Binding is the descriptor binding the translation gave this sampler (its
	// reflection's sampler_state carries the word): set by the emulator stage, 0 until then.
	Binding int `json:",omitempty"`
}

// Operand is the LLVM constant the module passes as this sampler.
func (c ConstexprSampler) Operand() string {
	if c.Global != "" {
		return "@" + c.Global
	}
	return fmt.Sprintf("inttoptr (i64 %d to ptr addrspace(2))", int64(c.State.Word))
}

var (
	samplerGlobal  = regexp.MustCompile(`^@([-\w.$]+|"[^"]*") = (?:[a-z_]+ )*addrspace\(2\) constant i64 (-?\d+)`)
	samplerWords   = regexp.MustCompile(`^@([-\w.$]+|"[^"]*") = (?:[a-z_]+ )*addrspace\(2\) constant \[\d+ x i64\] `)
	samplerIntToPt = regexp.MustCompile(`inttoptr \(i64 (-?\d+) to ptr addrspace\(2\)\)`)
)

// constexprSamplers finds the constexpr samplers a module's function bodies
// use and decodes each, in the order of their words (the first error names
// the first word no evidence decodes).
func constexprSamplers(t *textModule) ([]ConstexprSampler, error) {
	// Each regexp runs only on lines holding its literal words (a match
	// does): most of a module's lines hold none.
	globals := map[string]uint64{}
	for _, l := range t.lines {
		if !strings.HasPrefix(l, "@") || !strings.Contains(l, "addrspace(2) constant ") {
			continue
		}
		if m := samplerGlobal.FindStringSubmatch(l); m != nil {
			v, err := strconv.ParseInt(m[2], 10, 64)
			if err == nil {
				globals[strings.Trim(m[1], `"`)] = uint64(v)
			}
		}
	}
	var multi []string // AIR 2.7+ states of several words: no evidence pairs them
	for _, l := range t.lines {
		if !strings.HasPrefix(l, "@") || !strings.Contains(l, "addrspace(2) constant [") {
			continue
		}
		if m := samplerWords.FindStringSubmatch(l); m != nil {
			multi = append(multi, strings.Trim(m[1], `"`))
		}
	}
	used := map[string]ConstexprSampler{}
	for _, l := range t.lines {
		if !strings.HasPrefix(l, "  ") {
			continue
		}
		for _, name := range multi {
			if strings.Contains(l, "@"+name+",") || strings.Contains(l, "@"+name+")") {
				return nil, notJudgeable(KindTexture, "constexpr sampler words",
					"constexpr sampler @%s holds its state as several 64-bit words (AIR 2.7 and later), which no embedded source pairs with a declaration", name)
			}
		}
		for name, w := range globals {
			if strings.Contains(l, "@"+name+",") || strings.Contains(l, "@"+name+")") || strings.Contains(l, "@"+name+" ") || strings.HasSuffix(l, "@"+name) {
				used["g"+name] = ConstexprSampler{Global: name, State: SamplerState{Word: w}}
			}
		}
		if strings.Contains(l, "@__air_sampler_state") && len(globals) == 0 {
			return nil, notJudgeable(KindTexture, "constexpr sampler", "@__air_sampler_state is used but not defined as an addrspace(2) constant i64")
		}
		if !strings.Contains(l, "inttoptr (i64 ") {
			continue
		}
		for _, m := range samplerIntToPt.FindAllStringSubmatch(l, -1) {
			v, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				return nil, notJudgeable(KindTexture, "constexpr sampler", "inttoptr operand %s is not a 64-bit word", m[1])
			}
			used["w"+m[1]] = ConstexprSampler{State: SamplerState{Word: uint64(v)}}
		}
	}
	var out []ConstexprSampler
	for _, c := range used {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].State.Word != out[j].State.Word {
			return out[i].State.Word < out[j].State.Word
		}
		return out[i].Global < out[j].Global
	})
	for i := range out {
		s, err := DecodeSampler(out[i].State.Word)
		if err != nil {
			return nil, err
		}
		out[i].State = s
	}
	return out, nil
}

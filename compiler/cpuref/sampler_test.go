package cpuref

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// parseSamplerDecl reads an MSL constexpr sampler declaration
// ("constexpr sampler name(arg, ...)") into the state it declares, starting
// from DefaultSampler. ok is false for an argument it does not know.
func parseSamplerDecl(decl string) (SamplerState, bool) {
	s := DefaultSampler()
	open, end := strings.Index(decl, "("), strings.LastIndex(decl, ")")
	if open < 0 || end < open {
		return s, !strings.Contains(decl, "(")
	}
	args := decl[open+1 : end]
	// Split at top-level commas (lod_clamp(a, b) has its own).
	var parts []string
	depth, last := 0, 0
	for i, r := range args {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, args[last:i])
				last = i + 1
			}
		}
	}
	parts = append(parts, args[last:])
	for _, p := range parts {
		p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "metal::"))
		if p == "" {
			continue
		}
		if inner, ok := strings.CutPrefix(p, "max_anisotropy("); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(inner, ")"))
			if err != nil {
				return s, false
			}
			s.MaxAnisotropy = n
			continue
		}
		if inner, ok := strings.CutPrefix(p, "lod_clamp("); ok {
			lo, hi, _ := strings.Cut(strings.TrimSuffix(inner, ")"), ",")
			a, err1 := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(lo), "f"), 32)
			b, err2 := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(hi), "f"), 32)
			if err1 != nil || err2 != nil {
				return s, false
			}
			s.LODMin, s.LODMax = float32(a), float32(b)
			continue
		}
		kind, val, ok := strings.Cut(p, "::")
		if !ok {
			return s, false
		}
		switch kind {
		case "coord":
			s.Coord = val
		case "address":
			s.Address = [3]string{val, val, val}
		case "s_address":
			s.Address[0] = val
		case "t_address":
			s.Address[1] = val
		case "r_address":
			s.Address[2] = val
		case "filter":
			s.Mag, s.Min = val, val
		case "mag_filter":
			s.Mag = val
		case "min_filter":
			s.Min = val
		case "mip_filter":
			s.Mip = val
		case "compare_func":
			s.Compare = val
		case "border_color":
			s.Border = val
		default:
			return s, false
		}
	}
	return s, true
}

// TestSamplerEvidence decodes every evidenced word and compares it with
// what its declaration says, field by field.
func TestSamplerEvidence(t *testing.T) {
	for _, e := range SamplerEvidence {
		want, ok := parseSamplerDecl(e.Declaration)
		if !ok {
			t.Fatalf("%s: the parser does not read it", e.Declaration)
		}
		got, err := DecodeSampler(e.Word)
		if err != nil {
			t.Fatalf("%#016x (%s): %v", e.Word, e.Declaration, err)
		}
		want.Word = e.Word
		if got != want {
			t.Fatalf("%#016x decodes to %+v; %s declares %+v", e.Word, got, e.Declaration, want)
		}
	}
	if s, ok := parseSamplerDecl("constexpr sampler s(coord::pixel, address::repeat, filter::linear, lod_clamp(0.0f, 2.0f), max_anisotropy(4))"); !ok ||
		s.Coord != "pixel" || s.Address[1] != "repeat" || s.Min != "linear" || s.LODMax != 2 || s.MaxAnisotropy != 4 {
		t.Fatalf("parser: %+v %v", s, ok)
	}
	if d := DefaultSampler(); d.LODMax != math.MaxFloat32 || d.Address[0] != "clamp_to_edge" {
		t.Fatalf("defaults: %+v", d)
	}
}

// TestSamplerFieldwise: each filter field decodes to a value evidenced for it,
// whatever the other field holds: linear/linear with no mip (the corpus's
// most frequent word), and a linear mip under nearest mag/min.
func TestSamplerFieldwise(t *testing.T) {
	for _, c := range []struct {
		word          uint64
		mag, min, mip string
	}{
		{0x807bff0000080a49, "linear", "linear", "none"},
		{0x807bff0000084049, "nearest", "nearest", "linear"},
	} {
		s, err := DecodeSampler(c.word)
		if err != nil || s.Mag != c.mag || s.Min != c.min || s.Mip != c.mip {
			t.Errorf("%#016x: %+v %v, want %s/%s/%s", c.word, s, err, c.mag, c.min, c.mip)
		}
	}
}

// TestSamplerGaps: words outside the evidence are refused, naming the field.
func TestSamplerGaps(t *testing.T) {
	for _, c := range []struct {
		word   uint64
		detail string
	}{
		{0x807bff0000080249, "constexpr sampler filters"},               // one of mag/min linear: which is unknown
		{0x807bff0000082049, "constexpr sampler filters"},               // mip bit 13: nearest is not evidenced
		{0x807bff0000080e49, "constexpr sampler filters"},               // bit 10, which no evidence sets
		{0x807bff0000080092, "constexpr sampler address mode"},          // other address bits
		{0x807bff0000088049, "constexpr sampler bits 0x8000"},           // bit 15 (seed 003 quotes such words)
		{0x8000000000080049, "constexpr sampler bits 0x7bff0000000000"}, // another LOD clamp?
	} {
		_, err := DecodeSampler(c.word)
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != KindTexture || nj.Detail != c.detail {
			t.Errorf("%#016x: %v, want %q", c.word, err, c.detail)
		}
	}
}

// TestSamplerPlantedSwap: a decoder reading the evidence with the filter
// groups swapped (linear for nearest) disagrees with the declarations, and
// the evidence check says so.
func TestSamplerPlantedSwap(t *testing.T) {
	saved := samplerMagMin
	t.Cleanup(func() { samplerMagMin = saved })
	samplerMagMin = map[uint64][2]string{0x0000: saved[0x0a00], 0x0a00: saved[0x0000]}
	caught := 0
	for _, e := range SamplerEvidence {
		want, _ := parseSamplerDecl(e.Declaration)
		want.Word = e.Word
		if got, err := DecodeSampler(e.Word); err != nil || got != want {
			caught++
		}
	}
	if caught != len(SamplerEvidence) {
		t.Fatalf("a swapped filter decoding matched %d of %d declarations", len(SamplerEvidence)-caught, len(SamplerEvidence))
	}
}

// TestConstexprSamplerRuns: a fragment function sampling through an
// evidenced constexpr sampler (its global, and its inttoptr word) runs, and
// the kernel lists the decoded sampler.
func TestConstexprSamplerRuns(t *testing.T) {
	needTools(t)
	frag := readFixture(t, "testdata/texture_fragment.ll")
	const firstSample = "ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)\n  %fz"
	for _, c := range []struct {
		name  string
		edits []string
	}{
		{"global", []string{firstSample, strings.Replace(firstSample, "%smp", "@__air_sampler_state", 1),
			"define <{", "@__air_sampler_state = internal addrspace(2) constant i64 -9188470239253738935, align 8\n\ndefine <{"}},
		{"inttoptr", []string{firstSample, strings.Replace(firstSample, "%smp", "inttoptr (i64 -9188470239253738935 to ptr addrspace(2))", 1)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(context.Background(), assemble(t, replaceAll(t, frag, c.edits...)), "frag", Options{})
			if err != nil {
				t.Fatal(err)
			}
			cs := res.Kernel.ConstexprSamplers
			if len(cs) != 1 || cs[0].State.Word != 0x807bff0000084a49 || cs[0].State.Mag != "linear" || cs[0].State.Mip != "linear" ||
				(c.name == "global") != (cs[0].Global == "__air_sampler_state") {
				t.Fatalf("constexpr samplers %+v", cs)
			}
		})
	}
}

// TestConstexprLinearOnIntegers: a linear constexpr sampler on an integer
// texture is undefined, and the run is set aside at the sample.
func TestConstexprLinearOnIntegers(t *testing.T) {
	needTools(t)
	frag := readFixture(t, "testdata/texture_fragment.ll")
	ll := replaceAll(t, frag, "(ptr addrspace(1) %itex, ptr addrspace(2) %smp,", "(ptr addrspace(1) %itex, ptr addrspace(2) inttoptr (i64 -9188470239253738935 to ptr addrspace(2)),")
	_, err := Run(context.Background(), assemble(t, ll), "frag", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindTexture || nj.Detail != "texture operand" || !strings.Contains(nj.Reason, "linear filtering of an integer texture") {
		t.Fatalf("got %v, want the linear filter on an integer texture set aside", err)
	}
	// The nearest sampler on the same texture runs.
	ll = replaceAll(t, frag, "(ptr addrspace(1) %itex, ptr addrspace(2) %smp,", "(ptr addrspace(1) %itex, ptr addrspace(2) inttoptr (i64 -9188470239253757879 to ptr addrspace(2)),")
	if _, err := Run(context.Background(), assemble(t, ll), "frag", Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestConstexprSamplerWords: a state held as several words (AIR 2.7+) is
// set aside by name.
func TestConstexprSamplerWords(t *testing.T) {
	needTools(t)
	frag := readFixture(t, "testdata/texture_fragment.ll")
	const firstSample = "ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)\n  %fz"
	ll := replaceAll(t, frag, firstSample, strings.Replace(firstSample, "%smp", "@__air_sampler_state", 1),
		"define <{", "@__air_sampler_state = internal addrspace(2) constant [2 x i64] [i64 -9188470239253738935, i64 0], align 8\n\ndefine <{")
	_, err := Run(context.Background(), assemble(t, ll), "frag", Options{})
	var nj *NotJudgeableError
	if !errors.As(err, &nj) || nj.Kind != KindTexture || nj.Detail != "constexpr sampler words" {
		t.Fatalf("got %v, want constexpr sampler words", err)
	}
}

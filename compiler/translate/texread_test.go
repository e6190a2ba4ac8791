package translate

import (
	"errors"
	"reflect"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// TestMetal4TextureForms translates a constexpr sampler held as [2 x i64]
// and Metal 4's read through air.get_read_sampler(): spirv-val accepts it,
// the reflection carries each state's words verbatim (two states differing
// in the second word are two samplers), and the read is an image fetch.
func TestMetal4TextureForms(t *testing.T) {
	needValidator(t)
	out := translatedFixture(t, "texture_metal4_ok.ll")
	mustValidate(t, out.SPIRV)
	var states []string
	for _, b := range out.Reflection.Bindings {
		if b.SamplerState != "" {
			states = append(states, b.SamplerState)
		}
	}
	want := []string{"0x007bff0000080a49", "0x007bff0000080a49,0x0000000000000007"}
	if !reflect.DeepEqual(states, want) {
		t.Errorf("sampler states %q, want %q", states, want)
	}
	if n := opcodeCounts(out.SPIRV)[spirv.OpImageFetch]; n != 1 {
		t.Errorf("%d image fetches, want 1 (the read)", n)
	}
}

// TestMetal4TextureFormsRefused: a read with a non-zero texel offset and a
// sample through the read sampler are refused by name.
func TestMetal4TextureFormsRefused(t *testing.T) {
	m, ep := fixtureEntry(t, "texture_metal4_refused.ll")
	_, err := Translate(m, ep)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("want a MissingError, got %v", err)
	}
	want := []Finding{
		{CodeUnhandledInstruction, "air.read_texture_2d with a texel offset"},
		{CodeUnhandledInstruction, "sample without a sampler argument"},
	}
	if !reflect.DeepEqual(me.Missing, want) {
		t.Errorf("missing = %v\nwant      %v", me.Missing, want)
	}
}

// TestSamplerState reads constexpr sampler states of one word and of an
// array of words, and refuses other initializers.
func TestSamplerState(t *testing.T) {
	m, _ := fixtureEntry(t, "texture_metal4_ok.ll")
	got := map[string]string{}
	for _, g := range m.Globals {
		s, ok := samplerState(g)
		if !ok {
			s = "-"
		}
		got[g.Name] = s
	}
	want := map[string]string{"__air_sampler_state": "0x007bff0000080a49", "other_state": "0x007bff0000080a49,0x0000000000000007"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("states %v, want %v", got, want)
	}
	i64, i32 := &air.IntType{Bits: 64}, &air.IntType{Bits: 32}
	word, zero := &air.ConstInt{Typ: i64, Bits: 1}, &air.ConstInt{Typ: i64}
	arr := func(n int, e air.Constant) *air.ConstAggregate {
		a := &air.ConstAggregate{Typ: &air.ArrayType{Len: uint64(n), Elem: e.Type()}}
		for range n {
			a.Elems = append(a.Elems, e)
		}
		return a
	}
	for _, c := range []struct {
		g    *air.GlobalVariable
		want string
	}{
		{&air.GlobalVariable{ValueType: i64, Init: word}, "0x0000000000000001"},
		{&air.GlobalVariable{ValueType: arr(3, word).Typ, Init: arr(3, word)}, "0x0000000000000001,0x0000000000000001,0x0000000000000001"},
		{&air.GlobalVariable{ValueType: arr(3, zero).Typ, Init: arr(3, zero)}, "0x0000000000000000"},
		{&air.GlobalVariable{ValueType: arr(5, word).Typ, Init: arr(5, word)}, "-"},
		{&air.GlobalVariable{ValueType: i32, Init: &air.ConstInt{Typ: i32, Bits: 1}}, "-"},
		{&air.GlobalVariable{ValueType: arr(2, &air.ConstInt{Typ: i32}).Typ, Init: arr(2, &air.ConstInt{Typ: i32})}, "-"},
		{&air.GlobalVariable{ValueType: i64}, "-"},
	} {
		c.g.AddrSpace = 2
		s, ok := samplerState(c.g)
		if !ok {
			s = "-"
		}
		if s != c.want {
			t.Errorf("%s: %q, want %q", c.g.ValueType, s, c.want)
		}
		c.g.AddrSpace = 1
		if _, ok := samplerState(c.g); ok {
			t.Errorf("%s in address space 1 read as a sampler state", c.g.ValueType)
		}
	}
}

package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// msFixture is the emulator's multisample fixture (stages/testdata/emulator/texture_ms.ll).
const msFixture = "../../stages/testdata/emulator/texture_ms.ll"

// TestMultisampleTexture runs the fixture and checks every word against Go: the sizes and
// sample counts the contract gives, the float texel's .y summed over MSSamples samples and the
// uint texel's .z.
func TestMultisampleTexture(t *testing.T) {
	needTools(t)
	res, err := Run(context.Background(), assemble(t, readFixture(t, msFixture)), "ms", Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := res.Kernel
	if len(k.Textures) != 2 || k.Textures[0].Dim != "2d_ms" || k.Textures[0].Samples != MSSamples || k.Textures[1].Kind != 'u' || k.Textures[1].Samples != MSSamples {
		t.Fatalf("textures %+v", k.Textures)
	}
	fy := math.Float32frombits(TexelWords(1, 'f')[1])
	var sum float32
	for range MSSamples {
		sum += fy
	}
	want0 := uint32(TextureExtent + 16*TextureExtent + 256*MSSamples + 4096*MSSamples)
	want1 := math.Float32bits(sum + float32(TexelWords(3, 'u')[2]))
	found := false
	for _, o := range res.Outputs {
		if o.Index != 0 {
			continue
		}
		found = true
		for tid := range 16 {
			if got := binary.LittleEndian.Uint32(o.Bytes[8*tid:]); got != want0 {
				t.Errorf("thread %d sizes %#x, want %#x", tid, got, want0)
			}
			if got := binary.LittleEndian.Uint32(o.Bytes[8*tid+4:]); got != want1 {
				t.Errorf("thread %d texels %#x, want %#x", tid, got, want1)
			}
		}
	}
	if !found {
		t.Fatal("no output buffer 0")
	}
}

// TestMultisampleSetAside edits the fixture into forms the reference refuses or reports as
// out of bounds.
func TestMultisampleSetAside(t *testing.T) {
	needTools(t)
	ll := readFixture(t, msFixture)
	for _, c := range []struct {
		name, kind, detail string
		edits              []string
	}{
		{"sample index beyond the count", KindOutOfBounds, "texture read", []string{"icmp ult i32 %i1, %nf", "icmp ult i32 %i1, 5"}},
		{"coordinate outside", KindOutOfBounds, "texture read", []string{"%x = and i32 %tid, 3", "%x = and i32 %tid, 7"}},
		{"write access", KindTexture, "texture2d_ms<uint, write> argument", []string{`!"air.read", !"air.arg_type_name", !"texture2d_ms<uint, read>"`, `!"air.write", !"air.arg_type_name", !"texture2d_ms<uint, write>"`}},
		{"single-sample read of a multisample texture", KindTexture, "texture operand", []string{"texture2d_ms<uint, read>", "texture2d<uint, read>"}},
		{"multisample read of a single-sample texture", KindTexture, "texture operand", []string{"texture2d_ms<float, read>", "texture2d<float, read>", "@air.get_num_samples_texture_2d_ms(ptr addrspace(1) %f)", "@air.get_num_samples_texture_2d_ms(ptr addrspace(1) %u)"}},
		{"array size of a 2D one", KindTexture, "air.get_array_size_texture_2d_ms", []string{"define void", "declare i32 @air.get_array_size_texture_2d_ms(ptr addrspace(1))\n\ndefine void"}},
		{"depth read", KindTexture, "air.read_depth_2d_ms.f32", []string{"define void", "declare float @air.read_depth_2d_ms.f32(ptr addrspace(1), <2 x i32>, i32, i32)\n\ndefine void"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), assemble(t, replaceAll(t, ll, c.edits...)), "ms", Options{})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != c.kind || !strings.HasPrefix(nj.Detail, c.detail) || nj.Reason == "" {
				t.Fatalf("got %v, want not judgeable (%s %s)", err, c.kind, c.detail)
			}
		})
	}
}

// TestMultisampleOpForms defines each multisample form and refuses malformed declarations.
func TestMultisampleOpForms(t *testing.T) {
	for _, c := range []struct {
		decl, has string
		ok        bool
	}{
		{"declare i32 @air.get_width_texture_2d_ms(ptr addrspace(1) nocapture readonly)", "ret i32 4", true},
		{"declare i32 @air.get_num_samples_texture_2d_ms_array(ptr addrspace(1) nocapture readonly)", "ret i32 4", true},
		{"declare i32 @air.get_array_size_texture_2d_ms_array(ptr addrspace(1) nocapture readonly)", "ret i32 1", true},
		{"declare <4 x half> @air.read_texture_2d_ms.v4f16(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)", "fptrunc", true},
		{"declare <4 x i32> @air.read_texture_2d_ms_array.s.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32, i32)", "icmp ult i32 %a2, 1", true},
		{"declare i32 @air.get_width_texture_2d_ms(ptr addrspace(1) nocapture readonly, i32)", "", false},
		{"declare <4 x float> @air.read_texture_2d_ms.v4f32(ptr addrspace(1) nocapture readonly, <2 x float>, i32, i32)", "", false},
		{"declare { <4 x float>, i8 } @air.read_texture_2d_ms.v4f32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)", "i8 1, 1", true},
		{"declare { <4 x float>, i32 } @air.read_texture_2d_ms.v4f32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32)", "", false},
		{"declare i32 @air.get_num_mip_levels_texture_2d_ms(ptr addrspace(1) nocapture readonly)", "", false},
	} {
		ds, err := declarations(parseText(c.decl))
		if err != nil || len(ds) != 1 {
			t.Fatalf("%s: %v", c.decl, err)
		}
		def, err := defineOp(ds[0])
		var nj *NotJudgeableError
		switch {
		case c.ok && (err != nil || !strings.Contains(def, c.has)):
			t.Errorf("%s: %v\n%s", ds[0].Name, err, def)
		case !c.ok && (!errors.As(err, &nj) || nj.Kind != KindTexture || nj.Detail != ds[0].Name):
			t.Errorf("%s: got %v, want not judgeable (texture) naming it", ds[0].Name, err)
		}
	}
}

package cpuref

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestTexelWords checks the contract's values and that every float texel is exact in half.
func TestTexelWords(t *testing.T) {
	f := func(v float32) uint32 { return math.Float32bits(v) }
	i := func(v int32) uint32 { return uint32(v) }
	for _, c := range []struct {
		index int
		kind  byte
		want  [4]uint32
	}{
		{0, 'f', [4]uint32{f(1.0 / 64), f(2.0 / 64), f(3.0 / 64), f(4.0 / 64)}},
		{14, 'f', [4]uint32{f(57.0 / 64), f(58.0 / 64), f(59.0 / 64), f(60.0 / 64)}},
		{15, 'f', [4]uint32{f(1.0 / 64), f(2.0 / 64), f(3.0 / 64), f(4.0 / 64)}},
		{2, 'd', [4]uint32{f(3.0 / 16), 0, 0, 0}},
		{1, 'i', [4]uint32{i(-19), i(-20), i(-21), i(-22)}},
		{3, 'u', [4]uint32{53, 54, 55, 56}},
	} {
		if got := TexelWords(c.index, c.kind); got != c.want {
			t.Errorf("TexelWords(%d, %c) = %#x, want %#x", c.index, c.kind, got, c.want)
		}
	}
	for index := range 15 {
		for _, w := range TexelWords(index, 'f') {
			v := math.Float32frombits(w)
			h := halfBits(v)
			back := math.Ldexp(1+float64(h&0x3ff)/1024, int(h>>10&0x1f)-15)
			if float64(v) != back || v <= 0 || v > 1 {
				t.Errorf("texture %d texel %g is not an exact half in (0, 1]", index, v)
			}
		}
	}
}

// TestTextureFragment samples a float, an int and a depth texture at each pixel's position and
// checks every render-target word against TexelWords: the uniform content makes the answer
// independent of the coordinates, so any swap of textures or components shows.
func TestTextureFragment(t *testing.T) {
	needTools(t)
	ll := readFixture(t, "testdata/texture_fragment.ll")
	res, err := Run(context.Background(), assemble(t, ll), "frag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := res.Kernel
	if len(k.Textures) != 3 || len(k.Samplers) != 1 || k.Samplers[0] != 0 {
		t.Fatalf("textures %+v, samplers %v", k.Textures, k.Samplers)
	}
	for i, want := range []Texture{
		{Index: 0, Param: 1, Dim: "2d", Kind: 'f', TypeName: "texture2d<float, sample>", Access: "sample", Texel: TexelWords(0, 'f')},
		{Index: 1, Param: 2, Dim: "2d", Kind: 'i', TypeName: "texture2d<int, sample>", Access: "sample", Texel: TexelWords(1, 'i')},
		{Index: 2, Param: 3, Dim: "2d", Kind: 'd', TypeName: "depth2d<float, sample>", Access: "sample", Texel: TexelWords(2, 'd')},
	} {
		if k.Textures[i] != want {
			t.Errorf("texture %d: %+v, want %+v", i, k.Textures[i], want)
		}
	}
	ft, it, dt := TexelWords(0, 'f'), TexelWords(1, 'i'), TexelWords(2, 'd')
	sum := math.Float32bits(math.Float32frombits(ft[3]) + math.Float32frombits(dt[0]))
	want := map[int][4]uint32{
		RenderTargetBase:     {ft[2], ft[1], ft[0], ft[3]},
		RenderTargetBase + 1: it,
		RenderTargetBase + 2: {dt[0], sum, Clear[2], Clear[3]},
	}
	if sum != math.Float32bits(0.25) {
		t.Fatalf("4/64 + 3/16 = %g, want 0.25", math.Float32frombits(sum))
	}
	for _, o := range res.Outputs {
		w, ok := want[o.Index]
		if !ok {
			continue
		}
		delete(want, o.Index)
		for p := 0; p < len(o.Bytes); p += TexelSize {
			for c := range 4 {
				if got := binary.LittleEndian.Uint32(o.Bytes[p+4*c:]); got != w[c] {
					t.Errorf("target %d pixel %d[%d] = %#x, want %#x", o.Index-RenderTargetBase, p/TexelSize, c, got, w[c])
				}
			}
		}
	}
	if len(want) != 0 {
		t.Errorf("render targets missing: %v", want)
	}
}

// TestTextureRead reads a texture at each thread's position in the forms AIR writes ({ T, i8 }
// and plain results; float, half, uint texels) and checks each record; reading outside the
// texture is an out-of-bounds verdict, as a buffer access would be.
func TestTextureRead(t *testing.T) {
	needTools(t)
	ll := readFixture(t, "testdata/texture_read.ll")
	plain := replaceAll(t, ll,
		"declare { <4 x float>, i8 } @air", "declare <4 x float> @air",
		"%r = call { <4 x float>, i8 }", "%v = call <4 x float>",
		"  %v = extractvalue { <4 x float>, i8 } %r, 0\n", "",
		"%res = extractvalue { <4 x float>, i8 } %r, 1", "%res = add i8 1, 0")
	half := replaceAll(t, ll, "<4 x float>", "<4 x half>", "v4f32", "v4f16", "texture2d<float, read>", "texture2d<half, read>")
	uint := replaceAll(t, ll, "<4 x float>", "<4 x i32>", "v4f32", "u.v4i32", "texture2d<float, read>", "texture2d<uint, read>")
	for _, c := range []struct {
		name, ll string
		words    [4]uint32
		half     bool
	}{
		{"{ float4, i8 }", ll, TexelWords(3, 'f'), false},
		{"float4", plain, TexelWords(3, 'f'), false},
		{"{ half4, i8 }", half, TexelWords(3, 'f'), true},
		{"{ uint4, i8 }", uint, TexelWords(3, 'u'), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(context.Background(), assemble(t, c.ll), "readtex", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if k := res.Kernel; len(k.Textures) != 1 || k.Textures[0].Access != "read" || k.Params[0].Texture != 3 {
				t.Fatalf("textures %+v, params %+v", k.Textures, k.Params)
			}
			out := res.Outputs[0].Bytes
			for th := range 16 {
				rec := out[32*th:]
				for comp, w := range c.words {
					got := binary.LittleEndian.Uint32(rec[4*comp:])
					if c.half {
						got = uint32(binary.LittleEndian.Uint16(rec[2*comp:]))
						w = uint32(halfBits(math.Float32frombits(w)))
					}
					if got != w {
						t.Errorf("thread %d component %d = %#x, want %#x", th, comp, got, w)
					}
				}
				if r := binary.LittleEndian.Uint32(rec[16:]); r != 1 {
					t.Errorf("thread %d residency %d, want 1", th, r)
				}
			}
		})
	}
}

// TestTextureSizeQuery answers size queries of the 2D read texture: every texture the
// reference gives has TextureExtent texels per dimension and one mip level. The query's
// answer replaces the residency word of the fixture's records.
func TestTextureSizeQuery(t *testing.T) {
	needTools(t)
	read := readFixture(t, "testdata/texture_read.ll")
	for _, c := range []struct {
		call string
		want uint32
	}{
		{"@air.get_width_texture_2d(ptr addrspace(1) %tex, i32 0)", TextureExtent},
		{"@air.get_height_texture_2d(ptr addrspace(1) %tex, i32 0)", TextureExtent},
		{"@air.get_num_mip_levels_texture_2d(ptr addrspace(1) %tex)", 1},
	} {
		name, _, _ := strings.Cut(c.call, "(")
		t.Run(name, func(t *testing.T) {
			params := "(ptr addrspace(1), i32)"
			if strings.Contains(c.call, "mip") {
				params = "(ptr addrspace(1))"
			}
			ll := replaceAll(t, read, "define void", "declare i32 "+name+params+"\n\ndefine void",
				"  %res32 = zext i8 %res to i32", "  %res32 = call i32 "+c.call)
			res, err := Run(context.Background(), assemble(t, ll), "readtex", Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := res.Outputs[0].Bytes
			for th := range 16 {
				if got := binary.LittleEndian.Uint32(out[32*th+16:]); got != c.want {
					t.Errorf("thread %d: %s = %d, want %d", th, name, got, c.want)
				}
			}
		})
	}
}

// TestTextureNotJudgeable breaks the texture fixtures in the ways the reference must refuse:
// each check is shown to fire.
func TestTextureNotJudgeable(t *testing.T) {
	needTools(t)
	frag := readFixture(t, "testdata/texture_fragment.ll")
	read := readFixture(t, "testdata/texture_read.ll")
	const firstSample = "ptr addrspace(2) %smp, <2 x float> %uv, i1 true, <2 x i32> zeroinitializer, i1 false, float 0.000000e+00)\n  %fz"
	for _, c := range []struct {
		name, ll, entry, kind, detail string
		edits                         []string
	}{
		{"read outside the texture", read, "readtex", KindOutOfBounds, "texture read", []string{"%coord = insertelement <2 x i32> %gid, i32 %x, i32 0", "%x4 = add i32 %x, 4\n  %coord = insertelement <2 x i32> %gid, i32 %x4, i32 0"}},
		{"read at LOD 1", read, "readtex", KindOutOfBounds, "texture read", []string{"<2 x i32> %coord, i32 0, i32 1)", "<2 x i32> %coord, i32 1, i32 1)"}},
		{"write access to a cube array", read, "readtex", KindTexture, "texturecube_array<float, write> argument", []string{`!"air.read", !"air.arg_type_name", !"texture2d<float, read>"`, `!"air.write", !"air.arg_type_name", !"texturecube_array<float, write>"`}},
		{"depth multisample", read, "readtex", KindTexture, "depth2d_ms<float, read> argument", []string{"texture2d<float, read>", "depth2d_ms<float, read>"}},
		{"array of textures", read, "readtex", KindTexture, "texture2d<float, read> argument", []string{"i32 3, i32 1, !\"air.read\"", "i32 3, i32 2, !\"air.read\""}},
		{"a buffer read as a texture", read, "readtex", KindTexture, "texture operand", []string{"(ptr addrspace(1) %tex, <2 x i32>", "(ptr addrspace(1) %out, <2 x i32>"}},
		{"texel type not the texture's", read, "readtex", KindTexture, "texture operand", []string{"texture2d<float, read>", "texture2d<uint, read>"}},
		{"size query of LOD 1", read, "readtex", KindOutOfBounds, "texture read", []string{"define void", "declare i32 @air.get_width_texture_2d(ptr addrspace(1), i32)\n\ndefine void",
			"  %res32 = zext i8 %res to i32", "  %res32 = call i32 @air.get_width_texture_2d(ptr addrspace(1) %tex, i32 1)"}},
		{"size query of a dimension the texture lacks", read, "readtex", KindTexture, "air.get_depth_texture_2d", []string{"define void", "declare i32 @air.get_depth_texture_2d(ptr addrspace(1), i32)\n\ndefine void",
			"  %res32 = zext i8 %res to i32", "  %res32 = call i32 @air.get_depth_texture_2d(ptr addrspace(1) %tex, i32 0)"}},
		// Constexpr samplers whose words no evidence decodes (sampler.go): the field is named
		// (the global's word 0x807bff0000080249 sets one of the mag/min bits alone).
		{"constexpr sampler", frag, "frag", KindTexture, "constexpr sampler bits 0x7bff0000000000", []string{firstSample, strings.Replace(firstSample, "%smp", "inttoptr (i64 -9223372036854251447 to ptr addrspace(2))", 1)}},
		{"constexpr sampler address", frag, "frag", KindTexture, "constexpr sampler address mode", []string{firstSample, strings.Replace(firstSample, "%smp", "inttoptr (i64 -9188470239253757806 to ptr addrspace(2))", 1)}},
		{"constexpr sampler global", frag, "frag", KindTexture, "constexpr sampler filters", []string{firstSample, strings.Replace(firstSample, "%smp", "@__air_sampler_state", 1),
			"define <{", "@__air_sampler_state = internal addrspace(2) constant i64 -9188470239253757367, align 8\n\ndefine <{"}},
		{"sampler that is no argument", frag, "frag", KindTexture, "constexpr sampler", []string{firstSample, strings.Replace(firstSample, "%smp", "null", 1)}},
		{"cube gather", frag, "frag", KindTexture, "air.gather_texture_cube.v4f32", []string{"define <{", "declare <4 x float> @air.gather_texture_cube.v4f32(ptr addrspace(1), ptr addrspace(2), <3 x float>, i32)\n\ndefine <{",
			"  %fw = ", "  %g = call <4 x float> @air.gather_texture_cube.v4f32(ptr addrspace(1) %ftex, ptr addrspace(2) %smp, <3 x float> zeroinitializer, i32 0)\n  %fw = "}},
		{"sampler array", frag, "frag", KindTexture, "sampler array", []string{`!"air.sampler", !"air.location_index", i32 0, i32 1`, `!"air.sampler", !"air.location_index", i32 0, i32 2`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), assemble(t, replaceAll(t, c.ll, c.edits...)), c.entry, Options{})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != c.kind || nj.Detail != c.detail || nj.Reason == "" {
				t.Fatalf("got %v, want not judgeable (%s %s)", err, c.kind, c.detail)
			}
		})
	}
}

// TestTextureOpForms defines each sample and read form the corpus declares, and refuses the
// forms the reference does not give.
func TestTextureOpForms(t *testing.T) {
	for _, c := range []struct {
		decl string
		ok   bool
	}{
		{"declare <4 x float> @air.sample_texture_2d.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i1, <2 x i32>, i1, float)", true},
		{"declare { <4 x float>, i8 } @air.sample_texture_2d_array.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, i32, i1, <2 x i32>, i1, float, float, i32) local_unnamed_addr", true},
		{"declare <4 x float> @air.sample_texture_2d_grad.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <2 x float>, <2 x float>, <2 x float>, i1, <2 x i32>)", true},
		{"declare { <4 x half>, i8 } @air.sample_texture_cube.v4f16(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <3 x float>, i1, float, float, i32) local_unnamed_addr", true},
		{"declare { float, i8 } @air.sample_depth_2d.f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, i32, <2 x float>, i1, <2 x i32>, i1, float, float, i32) local_unnamed_addr", true},
		{"declare <4 x float> @air.sample_texture_cube_array.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, <3 x float>, i32, i1, float, i32) local_unnamed_addr", true},
		{"declare <4 x float> @air.sample_texture_1d.v4f32(ptr addrspace(1) nocapture readonly, ptr addrspace(2) nocapture readonly, float, i1, i32, i1, float)", true},
		{"declare { <4 x i32>, i8 } @air.read_texture_2d.u.v4i32(ptr addrspace(1) nocapture readonly, <2 x i32>, i32, i32) local_unnamed_addr", true},
		{"declare <4 x float> @air.read_texture_2d_array.v4f32(ptr addrspace(1), <2 x i32>, i32, i32, i32)", true},
		{"declare <4 x float> @air.read_texture_3d.v4f32(ptr addrspace(1), <3 x i32>, i32, i32)", true},
		{"declare <4 x float> @air.read_texture_cube.v4f32(ptr addrspace(1), <2 x i32>, i32, i32, i32)", true},
		{"declare <4 x float> @air.read_texture_1d_array.v4f32(ptr addrspace(1), i16, i16, i16, i32)", true},
		{"declare float @air.read_depth_2d.f32(ptr addrspace(1), <2 x i32>, i32, i32)", true},
		{"declare <4 x float> @air.read_texture_2d.v4f32(ptr addrspace(1), <2 x float>, i32, i32)", false},
		{"declare <4 x float> @air.read_texture_2d_array.v4f32(ptr addrspace(1), <2 x i32>, <2 x i32>, i32)", false},
		{"declare <4 x float> @air.read_texture_2d.v4f32(ptr addrspace(1), <3 x i32>, i32, i32)", false},
		{"declare <4 x float> @air.read_texture_2d.v4f32(ptr addrspace(1), <2 x i32>)", false},
		{"declare <4 x float> @air.read_texture_cube_array.v4f32(ptr addrspace(1), <2 x i32>, i32, i32, i32)", false},
		{"declare <4 x float> @air.sample_texture_2d.v4f16(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float)", false},
		{"declare <4 x i16> @air.sample_texture_2d.s.v4i16(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float)", false},
		{"declare <4 x float> @air.sample_texture_2d_ms.v4f32(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float)", false},
		{"declare void @air.write_texture_2d.v4f32(ptr addrspace(1) nocapture, <2 x i32>, <4 x float>, i32, i32) local_unnamed_addr", true},
		{"declare void @air.write_texture_2d.v4f16(ptr addrspace(1) nocapture, <2 x i32>, <4 x half>, i32, i32)", true},
		{"declare void @air.write_texture_2d.s.v4i32(ptr addrspace(1) nocapture, <2 x i16>, <4 x i32>, i32, i32)", true},
		{"declare void @air.write_texture_2d.v4f32(ptr addrspace(1), <2 x i32>, <4 x i32>, i32, i32)", false},
		{"declare void @air.write_texture_2d_array.v4f32(ptr addrspace(1), <2 x i32>, <4 x float>, i32, i32, i32)", false},
		{"declare void @air.write_texture_3d.v4f32(ptr addrspace(1), <3 x i32>, <4 x float>, i32, i32)", true},
		{"declare void @air.write_texture_2d_array.v4f16(ptr addrspace(1), <2 x i32>, i32, <4 x half>, i32, i32)", true},
		{"declare void @air.write_texture_2d_array.i16.u.v4i32(ptr addrspace(1), <2 x i16>, i16, <4 x i32>, i16, i32)", true},
		{"declare void @air.write_texture_1d.v4f32(ptr addrspace(1), i32, <4 x float>, i32, i32)", true},
		{"declare void @air.write_texture_3d.v4f32(ptr addrspace(1), <2 x i32>, <4 x float>, i32, i32)", false},
		{"declare void @air.write_texture_cube.v4f32(ptr addrspace(1), <2 x i32>, i32, <4 x float>, i32, i32)", true},
		{"declare void @air.write_texture_cube_array.v4f32(ptr addrspace(1), <2 x i32>, i32, i32, <4 x float>, i32, i32)", false},
		{"declare float @air.sample_compare_depth_2d.f32(ptr addrspace(1), ptr addrspace(2), <2 x float>, float, i1, <2 x i32>, i1, float)", false},
	} {
		ds, err := declarations(parseText(c.decl))
		if err != nil || len(ds) != 1 {
			t.Fatalf("%s: %v", c.decl, err)
		}
		def, err := defineOp(ds[0])
		var nj *NotJudgeableError
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", ds[0].Name, err)
		case c.ok && !strings.Contains(def, "@airpipe_texel(") && !strings.Contains(def, "@airpipe_storage_texel("):
			t.Errorf("%s: definition does not fetch the texel:\n%s", ds[0].Name, def)
		case !c.ok && (!errors.As(err, &nj) || nj.Kind != KindTexture || nj.Detail != ds[0].Name):
			t.Errorf("%s: got %v, want not judgeable (texture) naming it", ds[0].Name, err)
		}
	}
}

func readFixture(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// replaceAll applies old/new pairs, failing when one does not match, so a variant that no
// longer changes the fixture cannot pass by accident.
func replaceAll(t *testing.T, s string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("fixture lacks %q", pairs[i])
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}

// TestKernelJSON sends a kernel with textures through JSON, as the emulator's child process
// receives it, and gets the same kernel back.
func TestKernelJSON(t *testing.T) {
	k := &Kernel{Name: "frag", Stage: "fragment", Samplers: []int{0, 3},
		Params:   []Param{{Type: "ptr addrspace(1)", Role: "air.texture", Texture: 5}},
		Textures: []Texture{{Index: 5, Dim: "cube_array", Kind: 'd', TypeName: "depthcube_array<float, sample>", Access: "sample", Texel: TexelWords(5, 'd')}}}
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	var back Kernel
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, k) {
		t.Fatalf("round trip: %+v, want %+v", back, *k)
	}
}

// TestTextureVertex samples a uint texture in the vertex fixture: output 2 becomes buf[vid]
// plus the texel's component 1, through a sampler at index 2.
func TestTextureVertex(t *testing.T) {
	needTools(t)
	ll := replaceAll(t, readFixture(t, "testdata/vertex.ll"),
		"%struct.V = type", "declare <4 x i32> @air.sample_texture_2d.u.v4i32(ptr addrspace(1), ptr addrspace(2), <2 x float>, i1, <2 x i32>, i1, float)\n\n%struct.V = type",
		"i32 %iid) {", "i32 %iid, ptr addrspace(1) %tex, ptr addrspace(2) %smp) {",
		"  %r0 = insertvalue", "  %s = call <4 x i32> @air.sample_texture_2d.u.v4i32(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> zeroinitializer, i1 true, <2 x i32> zeroinitializer, i1 true, float 0.0)\n  %sy = extractelement <4 x i32> %s, i32 1\n  %ws = add i32 %w, %sy\n  %r0 = insertvalue",
		"<2 x half> %h2, 1\n  %r2 = insertvalue %struct.V %r1, i32 %w, 2", "<2 x half> %h2, 1\n  %r2 = insertvalue %struct.V %r1, i32 %ws, 2",
		"!5 = !{!6, !7, !8, !9, !10}", "!5 = !{!6, !7, !8, !9, !10, !11, !12}\n!11 = !{i32 5, !\"air.texture\", !\"air.location_index\", i32 7, i32 1, !\"air.sample\", !\"air.arg_type_name\", !\"texture2d<uint, sample>\"}\n!12 = !{i32 6, !\"air.sampler\", !\"air.location_index\", i32 2, i32 1, !\"air.arg_type_name\", !\"sampler\"}")
	res, err := Run(context.Background(), assemble(t, ll), "vert", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if k := res.Kernel; len(k.Textures) != 1 || k.Textures[0].Kind != 'u' || len(k.Samplers) != 1 || k.Samplers[0] != 2 {
		t.Fatalf("textures %+v, samplers %v", k.Textures, k.Samplers)
	}
	buf := Pattern(0, 4*Vertices)
	for _, o := range res.Outputs {
		if o.Index != OutputBuffer {
			continue
		}
		for v := range Vertices {
			want := binary.LittleEndian.Uint32(buf[4*v:]) + TexelWords(7, 'u')[1]
			if got := binary.LittleEndian.Uint32(o.Bytes[(v*12+8)*4:]); got != want {
				t.Errorf("vertex %d output 2 = %#x, want %#x", v, got, want)
			}
		}
	}
}

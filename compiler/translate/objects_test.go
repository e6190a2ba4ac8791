package translate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTextureObjects translates the texture-object fixture (objects.go) and
// variants of it: each must validate, or be refused by the name given.
// stages' TestEmulatorTextureObjectKernel executes the fixture.
func TestTextureObjects(t *testing.T) {
	needValidator(t)
	const unset = `  %pair = insertvalue [2 x %"struct.metal::texture2d"] %pa, ptr addrspace(1) %t5, 1, 0`
	cases := []struct {
		name    string
		edit    [2]string // an edit of the fixture's text (old, new), if any
		want    []string  // lines of the disassembly (substrings), in order
		refused string    // the finding expected instead
	}{
		{name: "fields resolved statically", want: []string{
			// three textures, each its own image variable; one buffer read
			// through the object's pointer field; no SPIR-V parameter for
			// an object (body takes out's offset and i, texel the coordinate).
			"OpDecorate %t1 Binding 33", "OpDecorate %t2 Binding 34", "OpDecorate %t5 Binding 37",
			"OpFunctionCall %void %body %uint_0",
			"%body = OpFunction %void", "OpFunctionParameter %uint", "OpFunctionParameter %uint", "OpLabel",
			"OpLoad", "%t1", "OpImageFetch", "OpLoad", "%t5", "OpImageFetch",
			"OpFunctionCall %v4uint %texel",
			"%texel = OpFunction %v4uint", "OpFunctionParameter %v2uint", "OpLabel", "OpLoad", "%t2", "OpImageFetch",
		}},
		{name: "field never set", edit: [2]string{unset,
			`  %pair = insertvalue [2 x %"struct.metal::texture2d"] %pa, ptr addrspace(1) %t5, 0, 0`},
			refused: "field of a texture object never set"},
		{name: "computed pointer in a field", edit: [2]string{
			`  %m = insertvalue %struct.Maps %m0, ptr addrspace(2) %kbuf, 1`,
			"  %kg = getelementptr inbounds i32, ptr addrspace(2) %kbuf, i32 %gid\n  %m = insertvalue %struct.Maps %m0, ptr addrspace(2) %kg, 1"},
			refused: "texture object holding a computed pointer"},
		{name: "object chosen at run time", edit: [2]string{unset, unset +
			"\n  %odd = trunc i32 %gid to i1" +
			"\n  %pick = select i1 %odd, [2 x %\"struct.metal::texture2d\"] %pa, [2 x %\"struct.metal::texture2d\"] %pair" +
			"\n  call void @body(%struct.Maps %m, [2 x %\"struct.metal::texture2d\"] %pick, ptr addrspace(1) %out, i32 %gid)"},
			refused: "texture object from select"},
		{name: "object stored to memory", edit: [2]string{unset, unset +
			"\n  %slot = alloca %struct.Maps, align 8" +
			"\n  store %struct.Maps %m, ptr %slot, align 8"},
			refused: "store of a texture object"},
		{name: "object from a constant", edit: [2]string{
			`%m0 = insertvalue %struct.Maps poison, %"struct.metal::texture2d" %o1, 0`,
			`%m0 = insertvalue %struct.Maps zeroinitializer, %"struct.metal::texture2d" zeroinitializer, 0`},
			refused: "field of a texture object never set"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkFixtureEdit(t, "texture_object.ll", c.edit, nil, c.want, c.refused)
		})
	}
}

// TestTextureSlots translates the shader-object fixture (textures and a
// sampler stored in an alloca'd struct and loaded back in a method,
// slots.go) and variants of it that must be refused by name.
func TestTextureSlots(t *testing.T) {
	needValidator(t)
	const store = "  store ptr addrspace(1) %b, ptr %f2, align 8"
	cases := []struct {
		name    string
		edit    [2]string
		want    []string
		refused string
	}{
		{name: "members resolved statically", want: []string{
			"OpDecorate %a Binding 32", "OpDecorate %b Binding 35", "OpDecorate %smp Binding 161",
			"%Ctx_main = OpFunction", "OpLoad", "%a", "OpLoad", "%smp", "OpImageSampleImplicitLod",
			"OpLoad", "%b", "OpLoad", "%smp", "OpImageSampleImplicitLod",
		}},
		{name: "member stored twice", edit: [2]string{store, store + "\n  store ptr addrspace(1) %a, ptr %f2, align 8"},
			refused: "pointer slot stored twice"},
		{name: "member never stored", edit: [2]string{store, ""}, refused: "load of a pointer"},
		{name: "member at a computed place", edit: [2]string{store,
			"  %fi = zext i1 %cc to i32\n  %fv = getelementptr inbounds %struct.Ctx, ptr %ctx, i64 0, i32 2, i32 0\n  %fw = getelementptr inbounds i8, ptr %fv, i32 %fi\n  store ptr addrspace(1) %b, ptr %fw, align 8"},
			refused: "store of a pointer"},
	}
	// %cc: a condition the "computed place" variant reads.
	cond := [2]string{"%ctx = alloca %struct.Ctx, align 8",
		"%ctx = alloca %struct.Ctx, align 8\n  %px = extractelement <4 x float> %pos, i32 0\n  %cc = fcmp olt float %px, 2.0"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkFixtureEdit(t, "texture_slots.ll", c.edit, &cond, c.want, c.refused)
		})
	}
}

// checkFixtureEdit translates testdata/file with edit (old, new; none when
// old is empty) and then extra applied: the result must be refused with the
// finding refused, or, when refused is empty, validate and hold the want
// lines (substrings) of its disassembly in order.
func checkFixtureEdit(t *testing.T, file string, edit [2]string, extra *[2]string, want []string, refused string) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	for _, e := range [][2]string{edit, deref(extra)} {
		if e[0] == "" {
			continue
		}
		if !strings.Contains(s, e[0]) {
			t.Fatalf("the edit's text %q is not in %s", e[0], file)
		}
		s = strings.ReplaceAll(s, e[0], e[1])
	}
	out, err := translateText(t, s)
	if refused != "" {
		var me *MissingError
		if !errors.As(err, &me) {
			t.Fatalf("want the finding %q, got %v", refused, err)
		}
		for _, f := range me.Missing {
			if f.Detail == refused {
				return
			}
		}
		t.Fatalf("want the finding %q, got %v", refused, me.Missing)
	}
	if err != nil {
		t.Fatal(err)
	}
	dis := validDisassembly(t, out)
	rest := dis
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("%q missing (or out of order) in:\n%s", w, dis)
		}
		rest = rest[i+len(w):]
	}
}

func deref(e *[2]string) [2]string {
	if e == nil {
		return [2]string{}
	}
	return *e
}

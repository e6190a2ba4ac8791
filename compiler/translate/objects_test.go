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
	text, err := os.ReadFile(filepath.Join("testdata", "texture_object.ll"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := string(text)
			if c.edit[0] != "" {
				if !strings.Contains(s, c.edit[0]) {
					t.Fatalf("the edit's text %q is not in the fixture", c.edit[0])
				}
				s = strings.ReplaceAll(s, c.edit[0], c.edit[1])
			}
			out, err := translateText(t, s)
			if c.refused != "" {
				var me *MissingError
				if !errors.As(err, &me) {
					t.Fatalf("want the finding %q, got %v", c.refused, err)
				}
				for _, f := range me.Missing {
					if f.Detail == c.refused {
						return
					}
				}
				t.Fatalf("want the finding %q, got %v", c.refused, me.Missing)
			}
			if err != nil {
				t.Fatal(err)
			}
			dis := validDisassembly(t, out)
			rest := dis
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("%q missing (or out of order) in:\n%s", w, dis)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

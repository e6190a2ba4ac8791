package translate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputKeys: [[invariant]] on a vertex position is the Invariant
// decoration, and a fragment's [[stencil]] output is FragStencilRefEXT with
// its extension, capability and execution mode; each shown on a fixture
// edited to carry the key, validated by spirv-val.
func TestOutputKeys(t *testing.T) {
	needValidator(t)
	cases := []struct {
		name, file string
		edit       [2]string
		want       []string
	}{
		{"invariant position", "vertex_basic.ll",
			[2]string{`!{!"air.position", !"air.arg_type_name"`, `!{!"air.position", !"air.invariant", !"air.arg_type_name"`},
			[]string{"OpDecorate %position BuiltIn Position", "OpDecorate %position Invariant"}},
		{"stencil output", "fragment_depth.ll",
			[2]string{`!{!"air.sample_mask", !"air.arg_type_name", !"uint"}`, `!{!"air.stencil", !"air.arg_type_name", !"uint"}`},
			[]string{"OpCapability StencilExportEXT", `OpExtension "SPV_EXT_shader_stencil_export"`, "OpExecutionMode %depth StencilRefReplacingEXT", "BuiltIn FragStencilRefEXT"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(text), c.edit[0]) {
				t.Fatalf("the edit's text %q is not in %s", c.edit[0], c.file)
			}
			out, err := translateText(t, strings.Replace(string(text), c.edit[0], c.edit[1], 1))
			if err != nil {
				t.Fatal(err)
			}
			dis := validDisassembly(t, out)
			for _, w := range c.want {
				if !strings.Contains(dis, w) {
					t.Errorf("%q missing in:\n%s", w, dis)
				}
			}
		})
	}
}

package translate

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
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

// TestRefusedParameterCountedOnce: a parameter whose binding is refused (a
// render target beyond the eight colour attachments read as a fragment input)
// is named once; its uses read undef and add no finding of their own.
func TestRefusedParameterCountedOnce(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "fragment_depth.ll"))
	if err != nil {
		t.Fatal(err)
	}
	const input = `!9 = !{i32 3, !"air.fragment_input", !"generated(1h)", !"air.center", !"air.perspective", !"air.arg_type_name", !"half2", !"air.arg_name", !"h"}`
	if !strings.Contains(string(text), input) {
		t.Fatal("the fixture's half varying is not as the test expects")
	}
	edited := strings.Replace(string(text), input, `!9 = !{i32 3, !"air.render_target", i32 9, !"air.arg_type_name", !"half2", !"air.arg_name", !"h"}`, 1)
	_, err = translateText(t, edited)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("got %v, want a refusal", err)
	}
	want := []Finding{{CodeUnsupportedInterface, "air.render_target input 9"}}
	if !reflect.DeepEqual(me.Missing, want) {
		t.Fatalf("findings %v, want only %v", me.Missing, want)
	}
}

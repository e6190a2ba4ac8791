package translate

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRenderTargetInput: colour attachments read as fragment inputs ([[color(n)]]) become
// SubpassData input attachments with InputAttachmentIndex n at binding 192+n, read at (0, 0)
// and converted to the parameter's type; spirv-val accepts the module and the reflection
// lists each attachment read.
func TestRenderTargetInput(t *testing.T) {
	needValidator(t)
	text, err := os.ReadFile(filepath.Join("testdata", "fragment_blend.ll"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := translateText(t, string(text))
	if err != nil {
		t.Fatal(err)
	}
	dis := validDisassembly(t, out)
	for _, w := range []string{
		"OpCapability InputAttachment",
		"OpDecorate %dst0 InputAttachmentIndex 0", "OpDecorate %dst0 Binding 192",
		"OpDecorate %dst1 InputAttachmentIndex 1", "OpDecorate %dst1 Binding 193",
		"OpDecorate %dst2 InputAttachmentIndex 2", "OpDecorate %dst2 Binding 194",
		"OpTypeImage %float SubpassData 0 0 0 2 Unknown",
		"OpTypeImage %uint SubpassData 0 0 0 2 Unknown",
		"OpImageRead %v4float",
		"OpImageRead %v4uint",
		"OpFConvert %v4half",
	} {
		if !strings.Contains(dis, w) {
			t.Errorf("%q missing in:\n%s", w, dis)
		}
	}
	want := []InputAttachment{
		{Index: 0, Binding: 192, Name: "dst0", Type: "<4 x half>", Format: "half4", SampledType: "float"},
		{Index: 1, Binding: 193, Name: "dst1", Type: "i32", Format: "uint", SampledType: "uint"},
		{Index: 2, Binding: 194, Name: "dst2", Type: "<4 x float>", Format: "float4", SampledType: "float"},
	}
	if !reflect.DeepEqual(out.Reflection.InputAttachments, want) {
		t.Errorf("input attachments %+v, want %+v", out.Reflection.InputAttachments, want)
	}
	kinds := 0
	for _, b := range out.Reflection.Bindings {
		if b.Kind == "input-attachment" {
			kinds++
		}
	}
	if kinds != 3 {
		t.Errorf("%d input-attachment bindings, want 3: %+v", kinds, out.Reflection.Bindings)
	}
}

// TestRenderTargetInputForms: every lane kind Metal can read a render target as (float,
// half, int, uint, short, ushort, char, uchar; scalars and vectors) validates; forms outside
// them are refused by name.
func TestRenderTargetInputForms(t *testing.T) {
	needValidator(t)
	text, err := os.ReadFile(filepath.Join("testdata", "fragment_blend.ll"))
	if err != nil {
		t.Fatal(err)
	}
	const param, md = "i32 %dst1", `!7 = !{i32 1, !"air.render_target", i32 1, !"air.arg_type_name", !"uint", !"air.arg_name", !"dst1"}`
	const use = "%c1 = xor i32 %dst1, 4660"
	for _, f := range []struct {
		ty, name, use string
		refused       string
	}{
		{"float", "float", "%u = bitcast float %dst1 to i32\n  %c1 = xor i32 %u, 4660", ""},
		{"<2 x half>", "half2", "%u = bitcast <2 x half> %dst1 to i32\n  %c1 = xor i32 %u, 4660", ""},
		{"<3 x float>", "float3", "%e = extractelement <3 x float> %dst1, i32 2\n  %u = bitcast float %e to i32\n  %c1 = xor i32 %u, 4660", ""},
		{"<4 x i32>", "int4", "%e = extractelement <4 x i32> %dst1, i32 3\n  %c1 = xor i32 %e, 4660", ""},
		{"i16", "short", "%e = sext i16 %dst1 to i32\n  %c1 = xor i32 %e, 4660", ""},
		{"<2 x i16>", "ushort2", "%c1 = bitcast <2 x i16> %dst1 to i32", ""},
		{"<4 x i8>", "uchar4", "%c1 = bitcast <4 x i8> %dst1 to i32", ""},
		{"i8", "char", "%e = sext i8 %dst1 to i32\n  %c1 = xor i32 %e, 4660", ""},
		{"double", "double", "%e = bitcast double %dst1 to i64\n  %c1 = trunc i64 %e to i32", "air.render_target input of double"},
		{"i64", "ulong", "%c1 = trunc i64 %dst1 to i32", "air.render_target input of i64"},
	} {
		t.Run(f.name, func(t *testing.T) {
			s := strings.Replace(string(text), param, f.ty+" %dst1", 1)
			s = strings.Replace(s, use, f.use, 1)
			s = strings.Replace(s, md, strings.Replace(md, `!"uint"`, `!"`+f.name+`"`, 1), 1)
			out, err := translateText(t, s)
			if f.refused != "" {
				var me *MissingError
				if !errors.As(err, &me) || !reflect.DeepEqual(me.Missing, []Finding{{CodeUnsupportedInterface, f.refused}}) {
					t.Fatalf("got %v, want only %q", err, f.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			validDisassembly(t, out)
		})
	}
}

// TestRenderTargetInputRefusals: a render target read outside a fragment function, beyond
// the eight colour attachments, or by two parameters is refused by name.
func TestRenderTargetInputRefusals(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "fragment_blend.ll"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"index 8", `!7 = !{i32 1, !"air.render_target", i32 1,`, `!7 = !{i32 1, !"air.render_target", i32 8,`, "air.render_target input 8"},
		{"read twice", `!7 = !{i32 1, !"air.render_target", i32 1,`, `!7 = !{i32 1, !"air.render_target", i32 0,`, "air.render_target input 0 read by two parameters"},
		{"second index", `!7 = !{i32 1, !"air.render_target", i32 1,`, `!7 = !{i32 1, !"air.render_target", i32 1, i32 1,`, "air.render_target input 1 index 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(string(text), c.from) {
				t.Fatalf("%q not in the fixture", c.from)
			}
			_, err := translateText(t, strings.Replace(string(text), c.from, c.to, 1))
			var me *MissingError
			if !errors.As(err, &me) || !reflect.DeepEqual(me.Missing, []Finding{{CodeUnsupportedInterface, c.want}}) {
				t.Fatalf("got %v, want only %q", err, c.want)
			}
		})
	}
	// A vertex function cannot read a colour attachment.
	vert, err := os.ReadFile(filepath.Join("testdata", "vertex_basic.ll"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(vert)
	i := strings.Index(s, `!"air.vertex_input"`)
	if i < 0 {
		t.Fatal("vertex_basic.ll has no vertex input")
	}
	end := strings.Index(s[i:], "}")
	edited := s[:i] + `!"air.render_target", i32 0, !"air.arg_type_name", !"float4"` + s[i+end:]
	_, err = translateText(t, edited)
	var me *MissingError
	if !errors.As(err, &me) || !slicesContain(me.Missing, Finding{CodeUnsupportedInterface, "air.render_target input outside a fragment function"}) {
		t.Fatalf("vertex: got %v, want air.render_target input outside a fragment function", err)
	}
}

func slicesContain(fs []Finding, f Finding) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

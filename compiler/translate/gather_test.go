package translate

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// gatherModule is a fragment function gathering from a half (or other) texture: TEXEL the
// texture's lane type, TYPE its Metal type, CALL the gather.
const gatherModule = `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

define <4 x TEXEL> @g(<2 x float> %uv, i32 %k, ptr addrspace(1) %tex, ptr addrspace(2) %smp) {
  %r = tail call { <4 x TEXEL>, i8 } @air.gather_texture_2dARR.SUF(ptr addrspace(1) %tex, ptr addrspace(2) %smp, <2 x float> %uvLAYER, i1 true, <2 x i32> OFFSET, i32 COMP, i32 0)
  %v = extractvalue { <4 x TEXEL>, i8 } %r, 0
  ret <4 x TEXEL> %v
}

declare { <4 x TEXEL>, i8 } @air.gather_texture_2dARR.SUF(ptr addrspace(1), ptr addrspace(2), <2 x float>DECLLAYER, i1, <2 x i32>, i32, i32)

!air.fragment = !{!0}
!0 = !{ptr @g, !1, !3}
!1 = !{!2}
!2 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"OUT4"}
!3 = !{!4, !5, !6, !7}
!4 = !{i32 0, !"air.fragment_input", !"generated(2uv)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float2", !"air.arg_name", !"uv"}
!5 = !{i32 1, !"air.fragment_input", !"generated(1k)", !"air.flat", !"air.arg_type_name", !"uint", !"air.arg_name", !"k"}
!6 = !{i32 2, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.sample", !"air.arg_type_name", !"TYPE", !"air.arg_name", !"tex"}
!7 = !{i32 3, !"air.sampler", !"air.location_index", i32 0, i32 1, !"air.arg_type_name", !"sampler", !"air.arg_name", !"smp"}
`

func gatherText(texel, suffix, out, typ, offset, comp string, array bool) string {
	r := strings.NewReplacer("TEXEL", texel, "SUF", suffix, "OUT4", out, "TYPE", typ, "OFFSET", offset, "COMP", comp)
	s := r.Replace(gatherModule)
	if array {
		return strings.NewReplacer("ARR", "_array", "LAYER", ", i32 %k", "DECLLAYER", ", i32").Replace(s)
	}
	return strings.NewReplacer("ARR", "", "LAYER", "", "DECLLAYER", "").Replace(s)
}

// TestGather: gathers from half, float, int and uint 2D textures (and a 2D array) are
// OpImageGather with the component as a constant, a constant offset as ConstOffset, and a
// half4 result rounded from the float gather; spirv-val accepts each.
func TestGather(t *testing.T) {
	needValidator(t)
	for _, c := range []struct {
		name                                  string
		texel, suffix, out, typ, offset, comp string
		array                                 bool
		want                                  []string
	}{
		{"half", "half", "v4f16", "half4", "texture2d<half, sample>", "zeroinitializer", "0", false,
			[]string{"OpImageGather %v4float", "%uint_0", "OpFConvert %v4half"}},
		{"float component w", "float", "v4f32", "float4", "texture2d<float, sample>", "zeroinitializer", "3", false,
			[]string{"OpImageGather %v4float", "%uint_3"}},
		{"offset", "half", "v4f16", "half4", "texture2d<half, sample>", "<i32 1, i32 -1>", "1", false,
			[]string{"OpImageGather %v4float", "ConstOffset"}},
		{"uint", "i32", "u.v4i32", "uint4", "texture2d<uint, sample>", "zeroinitializer", "2", false,
			[]string{"OpImageGather %v4uint"}},
		{"int", "i32", "s.v4i32", "int4", "texture2d<int, sample>", "zeroinitializer", "0", false,
			[]string{"OpImageGather %v4int", "OpBitcast %v4uint"}},
		{"array", "half", "v4f16", "half4", "texture2d_array<half, sample>", "zeroinitializer", "1", true,
			[]string{"OpImageGather %v4float", "OpTypeImage %float 2D 0 1 0 1 Unknown"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := translateText(t, gatherText(c.texel, c.suffix, c.out, c.typ, c.offset, c.comp, c.array))
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

// TestGatherRefusals: a variable component or offset, a component outside x..w, and a cube
// are refused by name.
func TestGatherRefusals(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"variable component", strings.Replace(gatherText("half", "v4f16", "half4", "texture2d<half, sample>", "zeroinitializer", "%k", false), "i32 %k, i32 0)", "i32 %k, i32 0)", 1),
			"texture gather of a variable component"},
		{"component 4", gatherText("half", "v4f16", "half4", "texture2d<half, sample>", "zeroinitializer", "4", false), "texture gather of component 4"},
		{"cube", gatherText("half", "v4f16", "half4", "texturecube<half, sample>", "zeroinitializer", "0", false), "gather of a texture other than texture2d or texture2d_array"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := translateText(t, c.text)
			var me *MissingError
			if !errors.As(err, &me) || !reflect.DeepEqual(me.Missing, []Finding{{CodeUnhandledInstruction, c.want}}) {
				t.Fatalf("got %v, want only %q", err, c.want)
			}
		})
	}
}

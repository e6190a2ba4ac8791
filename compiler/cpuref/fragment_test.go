package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// TestFragment runs the fragment fixture over 4×4 pixels and checks every word of both written
// render targets against answers computed here from the chosen input constants, the pixel
// centres and the buffer's pattern.
// The same function written as AIR also writes it: the return type named (%struct.Out) and
// a render target node without its second index.
func TestFragment(t *testing.T) {
	needTools(t)
	b, err := os.ReadFile("testdata/fragment.ll")
	if err != nil {
		t.Fatal(err)
	}
	ll := string(b)
	named := strings.ReplaceAll(ll, "<{ <4 x half>, <2 x i32> }>", "%struct.Out")
	named = strings.Replace(named, "define ", "%struct.Out = type <{ <4 x half>, <2 x i32> }>\n\ndefine ", 1)
	short := strings.Replace(ll, `!"air.render_target", i32 0, i32 0,`, `!"air.render_target", i32 0,`, 1)
	// A layer index that is 0 on every pixel added to s changes nothing.
	layer := strings.Replace(ll, "i16 signext %s, ptr addrspace(1) noalias %buf) {\nentry:\n", "i16 signext %s0, ptr addrspace(1) noalias %buf, i32 %layer) {\nentry:\n  %l16 = trunc i32 %layer to i16\n  %s = add i16 %s0, %l16\n", 1)
	layer = strings.Replace(layer, "!4 = !{!5, !6, !7, !8}", "!4 = !{!5, !6, !7, !8, !9}\n!9 = !{i32 4, !\"air.render_target_array_index\", !\"air.arg_type_name\", !\"uint\"}", 1)
	for name, text := range map[string]string{"plain": ll, "named struct": named, "one index": short, "layer": layer} {
		t.Run(name, func(t *testing.T) {
			if name != "plain" && text == ll {
				t.Fatal("variant not made")
			}
			checkFragment(t, text)
		})
	}
}

func checkFragment(t *testing.T, ll string) {
	res, err := Run(context.Background(), assemble(t, ll), "frag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := res.Kernel
	if k.Stage != "fragment" || len(k.Targets) != 2 || len(k.Inputs) != 2 || k.Inputs[0].Name != "generated(1h)" {
		t.Fatalf("interface: %+v", k)
	}
	h := math.Float32frombits(k.Inputs[0].Words[0])
	s := int32(k.Inputs[1].Words[0])
	if h != 0.25 || s != 13 {
		t.Fatalf("input constants %g, %d; want 0.25 (k=0: 2/8) and 13 (k=4: 3·4+1)", h, s)
	}
	buf0 := int32(binary.LittleEndian.Uint32(Pattern(0, 4)))
	outs := outputsByIndex(res)
	if _, ok := outs[RenderTargetBase+1]; ok {
		t.Error("render target 1, which the function does not write, was given a buffer")
	}
	for y := range 4 {
		for x := range 4 {
			checkTargetPixel(t, outs, 0, x, y, []uint32{math.Float32bits(0.25 + float32(x) + 0.5), math.Float32bits(float32(y) + 0.5), 0, math.Float32bits(1)})
			checkTargetPixel(t, outs, 2, x, y, []uint32{uint32(s), uint32(buf0), Clear[2], Clear[3]})
		}
	}
}

// TestFragmentNotJudgeable breaks the fixture in the ways the reference must refuse.
func TestFragmentNotJudgeable(t *testing.T) {
	needTools(t)
	b, err := os.ReadFile("testdata/fragment.ll")
	if err != nil {
		t.Fatal(err)
	}
	ll := string(b)
	for _, c := range []struct{ name, old, new, kind string }{
		{"discard of another type", "define <{", "declare i32 @air.discard_fragment(i32)\ndefine <{", KindDiscard},
		{"derivative of the position", "  ret <{ <4 x half>, <2 x i32> }> %r1\n}\n", "  %dx = call float @air.dfdx.f32(float %x)\n  ret <{ <4 x half>, <2 x i32> }> %r1\n}\ndeclare float @air.dfdx.f32(float)\n", KindDerivative},
		{"front facing (its value depends on the winding the runtime declares)", `!"air.position", !"air.center"`, `!"air.front_facing", !"air.center"`, KindArgument},
		{"sample mask", `!3 = !{!"air.render_target", i32 2, i32 0, !"air.arg_type_name", !"int2"}`, `!3 = !{!"air.sample_mask", !"air.arg_type_name", !"uint"}`, KindArgument},
		{"texture", `!"air.buffer", !"air.location_index"`, `!"air.texture", !"air.location_index"`, KindTexture},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(ll, c.old) {
				t.Fatalf("fixture lacks %q", c.old)
			}
			_, err := Run(context.Background(), assemble(t, strings.Replace(ll, c.old, c.new, 1)), "frag", Options{})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != c.kind {
				t.Fatalf("got %v, want not judgeable (%s)", err, c.kind)
			}
		})
	}
}

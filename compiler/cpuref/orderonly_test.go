package cpuref

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestOrderOnlyFragment runs a fragment function calling air.dot.v3f32 and air.mix.v4f32 (the
// forms the corpus declares) and checks every render-target word against answers computed
// here; the inputs make every product and sum exact, so the words do not depend on the order.
// Result.Approximate names both operations, and survives JSON (the stage caches it).
func TestOrderOnlyFragment(t *testing.T) {
	needTools(t)
	res, err := Run(context.Background(), assemble(t, readFixture(t, "testdata/orderonly_fragment.ll")), "frag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"air.dot.v3f32", "air.mix.v4f32"}
	if !reflect.DeepEqual(res.Approximate, want) {
		t.Fatalf("Approximate = %v, want %v", res.Approximate, want)
	}
	w := math.Float32frombits(res.Kernel.Inputs[0].Words[0])
	if w != 0.25 {
		t.Fatalf("flat input w = %g, want 0.25 (k=0: 2/8)", w)
	}
	outs := map[int][]byte{}
	for _, o := range res.Outputs {
		outs[o.Index] = o.Bytes
	}
	y := [4]float32{4.5, 8.5, 2.5, 5}
	for py := range 4 {
		for px := range 4 {
			pos := [4]float32{float32(px) + 0.5, float32(py) + 0.5, 0.5, 1}
			p := (py*4 + px) * TexelSize
			for c := range 4 {
				m := pos[c] + (y[c]-pos[c])*w
				if got := binary.LittleEndian.Uint32(outs[RenderTargetBase][p+4*c:]); got != math.Float32bits(m) {
					t.Errorf("mix pixel (%d,%d)[%d] = %g, want %g", px, py, c, math.Float32frombits(got), m)
				}
			}
			d := 2*pos[0] + 4*pos[1] + 8*pos[2]
			if got := binary.LittleEndian.Uint32(outs[RenderTargetBase+1][p:]); got != math.Float32bits(d) {
				t.Errorf("dot pixel (%d,%d) = %g, want %g", px, py, math.Float32frombits(got), d)
			}
		}
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Approximate, want) {
		t.Fatalf("after JSON: Approximate = %v, want %v", back.Approximate, want)
	}
	// A module without order-only operations is exact, and its JSON does not mention them.
	exact, err := Run(context.Background(), assemble(t, readFixture(t, "testdata/fragment.ll")), "frag", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(exact); exact.Approximate != nil || strings.Contains(string(b), `"Approximate"`) {
		t.Fatalf("exact module: Approximate %v", exact.Approximate)
	}
}

// orderForm is one declaration form of an order-only operation, with operands and the answer.
type orderForm struct {
	name, ret string
	params    []string
	args      [][]float64
	want      []float64
}

// TestOrderOnlyForms runs every declaration form the reference defines (float and half,
// vectors of 2 to 4 lanes, scalar mix, a vector mix by a scalar weight, fast_) on operands
// whose answers are exact, and three whose answer depends on the canonical order: left to right
// from the first product. Summed right to left, dot(1, 1e8, −1e8) would be 1; started from +0,
// a sum of −0 products would be +0.
func TestOrderOnlyForms(t *testing.T) {
	needTools(t)
	negZero := math.Copysign(0, -1)
	for _, c := range []orderForm{
		{"air.dot.v2f32", "float", []string{"<2 x float>", "<2 x float>"}, [][]float64{{0.5, 0.25}, {2, 4}}, []float64{2}},
		{"air.dot.v3f32", "float", []string{"<3 x float>", "<3 x float>"}, [][]float64{{1, 2, 3}, {4, -5, 6}}, []float64{12}},
		{"air.dot.v4f32", "float", []string{"<4 x float>", "<4 x float>"}, [][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}}, []float64{70}},
		{"air.dot.v2f16", "half", []string{"<2 x half>", "<2 x half>"}, [][]float64{{1, 2}, {3, 4}}, []float64{11}},
		{"air.dot.v3f16", "half", []string{"<3 x half>", "<3 x half>"}, [][]float64{{1, 2, 3}, {1, 1, 1}}, []float64{6}},
		{"air.dot.v4f16", "half", []string{"<4 x half>", "<4 x half>"}, [][]float64{{1, 2, 3, 4}, {1, 1, 1, 1}}, []float64{10}},
		{"air.fast_dot.v2f32", "float", []string{"<2 x float>", "<2 x float>"}, [][]float64{{3, 4}, {3, 4}}, []float64{25}},
		{"air.dot.v3f32", "float", []string{"<3 x float>", "<3 x float>"}, [][]float64{{1, 1e8, -1e8}, {1, 1, 1}}, []float64{0}},
		{"air.dot.v3f16", "half", []string{"<3 x half>", "<3 x half>"}, [][]float64{{1, 2048, -2048}, {1, 1, 1}}, []float64{0}},
		{"air.dot.v2f32", "float", []string{"<2 x float>", "<2 x float>"}, [][]float64{{negZero, negZero}, {1, 1}}, []float64{negZero}},
		{"air.mix.f32", "float", []string{"float", "float", "float"}, [][]float64{{1}, {3}, {0.25}}, []float64{1.5}},
		{"air.mix.f16", "half", []string{"half", "half", "half"}, [][]float64{{-1}, {3}, {0.75}}, []float64{2}},
		{"air.mix.v2f32", "<2 x float>", []string{"<2 x float>", "<2 x float>", "<2 x float>"}, [][]float64{{1, 2}, {3, 6}, {0.5, 0.25}}, []float64{2, 3}},
		{"air.mix.v3f16", "<3 x half>", []string{"<3 x half>", "<3 x half>", "<3 x half>"}, [][]float64{{1, 2, 3}, {3, 6, -1}, {0.5, 0.25, 1}}, []float64{2, 3, -1}},
		{"air.mix.v4f32", "<4 x float>", []string{"<4 x float>", "<4 x float>", "<4 x float>"}, [][]float64{{0, 1, 2, 3}, {4, 5, 6, 7}, {0.5, 0, 1, 0.75}}, []float64{2, 1, 6, 6}},
		{"air.mix.v4f32", "<4 x float>", []string{"<4 x float>", "<4 x float>", "float"}, [][]float64{{0, 1, 2, 3}, {4, 5, 6, 7}, {0.5}}, []float64{2, 3, 4, 5}},
		{"air.cross.v3f32", "<3 x float>", []string{"<3 x float>", "<3 x float>"}, [][]float64{{1, 2, 3}, {4, 5, 6}}, []float64{-3, 6, -3}},
		{"air.cross.v3f16", "<3 x half>", []string{"<3 x half>", "<3 x half>"}, [][]float64{{0, 1, 0}, {0, 0, 1}}, []float64{1, 0, 0}},
		{"air.length_squared.v3f32", "float", []string{"<3 x float>"}, [][]float64{{1, 2, 3}}, []float64{14}},
		{"air.length_squared.f32", "float", []string{"float"}, [][]float64{{-3}}, []float64{9}},
		{"air.length_squared.v4f16", "half", []string{"<4 x half>"}, [][]float64{{1, 1, 1, 1}}, []float64{4}},
		{"air.distance_squared.v2f32", "float", []string{"<2 x float>", "<2 x float>"}, [][]float64{{1, 2}, {4, 6}}, []float64{25}},
		{"air.distance_squared.v3f16", "half", []string{"<3 x half>", "<3 x half>"}, [][]float64{{1, 2, 3}, {1, 2, 5}}, []float64{4}},
	} {
		t.Run(fmt.Sprintf("%s%v", c.name, c.args), func(t *testing.T) {
			res, err := RunText(context.Background(), orderKernel(c), "k", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Approximate, []string{c.name}) {
				t.Errorf("Approximate = %v, want [%s]", res.Approximate, c.name)
			}
			out := res.Outputs[0].Bytes
			for x := range 16 { // every thread of the line computes the same answer
				for i, w := range c.want {
					got := binary.LittleEndian.Uint32(out[4*(256+4*x+i):])
					if want := math.Float32bits(float32(w)); got != want {
						t.Errorf("thread %d lane %d = %g (%#x), want %g (%#x)", x, i, math.Float32frombits(got), got, w, want)
					}
				}
			}
		})
	}
}

// orderKernel is a kernel whose threads each call the form on constant operands and store the
// result, widened to float, at word 256 + 4·thread.
func orderKernel(c orderForm) string {
	var args []string
	for i, p := range c.params {
		args = append(args, p+" "+constant(p, c.args[i]))
	}
	wide := strings.ReplaceAll(c.ret, "half", "float")
	body := fmt.Sprintf("  %%r = call %s @%s(%s)\n", c.ret, c.name, strings.Join(args, ", "))
	if wide != c.ret {
		body += fmt.Sprintf("  %%w = fpext %s %%r to %s\n", c.ret, wide)
	} else {
		body += fmt.Sprintf("  %%w = bitcast %s %%r to %s\n", c.ret, wide)
	}
	body += fmt.Sprintf("  %%o4 = mul i64 %%idx, 4\n  %%o = add i64 %%o4, 256\n  %%q = getelementptr inbounds float, ptr addrspace(1) %%out, i64 %%o\n  store %s %%w, ptr addrspace(1) %%q, align 4", wide)
	decl := fmt.Sprintf("declare %s @%s(%s)", c.ret, c.name, strings.Join(c.params, ", "))
	return variant("kernel", decl, "", body, "")
}

// constant writes values as an LLVM constant of type t, in hexadecimal so that it is exact.
func constant(t string, values []float64) string {
	lit := func(v float64) string {
		if elem(t) == "half" {
			return fmt.Sprintf("0xH%04X", halfBits(float32(v)))
		}
		return fmt.Sprintf("0x%016X", math.Float64bits(float64(float32(v))))
	}
	if !isVector(t) {
		return lit(values[0])
	}
	var cs []string
	for _, v := range values {
		cs = append(cs, elem(t)+" "+lit(v))
	}
	return "<" + strings.Join(cs, ", ") + ">"
}

// TestOrderOnlyRefusedForms: forms the reference does not define stay set aside as
// approximate, as they were before order-only operations were defined; the operations that
// are approximate for other reasons (square roots, lengths) stay set aside too.
func TestOrderOnlyRefusedForms(t *testing.T) {
	for _, d := range []declaration{
		{Name: "air.dot.v3f64", Ret: "double", Params: []string{"<3 x double>", "<3 x double>"}},
		{Name: "air.dot.f32", Ret: "float", Params: []string{"float", "float"}},
		{Name: "air.dot.v3f32", Ret: "half", Params: []string{"<3 x float>", "<3 x float>"}},
		{Name: "air.dot.v8f32", Ret: "float", Params: []string{"<8 x float>", "<8 x float>"}},
		{Name: "air.dot.v3f32", Ret: "float", Params: []string{"<1000000000 x float>", "<1000000000 x float>"}},
		{Name: "air.cross.v4f32", Ret: "<4 x float>", Params: []string{"<4 x float>", "<4 x float>"}},
		{Name: "air.mix.f32", Ret: "float", Params: []string{"float", "float"}},
		{Name: "air.mix.v2f32", Ret: "<2 x float>", Params: []string{"<2 x float>", "<3 x float>", "<2 x float>"}},
		{Name: "air.length_squared.v3f32", Ret: "<3 x float>", Params: []string{"<3 x float>"}},
		{Name: "air.sqrt.f32", Ret: "float", Params: []string{"float"}},
		{Name: "air.fast_length.v3f32", Ret: "float", Params: []string{"<3 x float>"}},
		{Name: "air.normalize.v3f32", Ret: "<3 x float>", Params: []string{"<3 x float>"}},
		{Name: "air.distance.v2f32", Ret: "float", Params: []string{"<2 x float>", "<2 x float>"}},
	} {
		_, err := defineOp(d)
		var nj *NotJudgeableError
		if !errors.As(err, &nj) || nj.Kind != KindApproximate {
			t.Errorf("%s %s(%v): got %v, want %s", d.Name, d.Ret, d.Params, err, KindApproximate)
		}
	}
	for _, name := range OrderOnlyOps {
		for _, a := range ApproximateOps {
			if name == a {
				t.Errorf("%s is both order-only and set aside", name)
			}
		}
	}
}

// TestOrderOnlyNoContract: the definitions carry no fast-math flag, so the unfused reference
// stays unfused and only Options.FuseMulAdd fuses them.
func TestOrderOnlyNoContract(t *testing.T) {
	for _, d := range []declaration{
		{Name: "air.dot.v4f32", Ret: "float", Params: []string{"<4 x float>", "<4 x float>"}},
		{Name: "air.mix.v4f32", Ret: "<4 x float>", Params: []string{"<4 x float>", "<4 x float>", "float"}},
		{Name: "air.cross.v3f16", Ret: "<3 x half>", Params: []string{"<3 x half>", "<3 x half>"}},
		{Name: "air.distance_squared.v3f32", Ret: "float", Params: []string{"<3 x float>", "<3 x float>"}},
	} {
		def, err := defineOp(d)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if m := fastFlags.FindString(def); m != "" || contractFlag.MatchString(def) || strings.Contains(def, "fma") {
			t.Errorf("%s carries a flag or fusing (%q):\n%s", d.Name, m, def)
		}
	}
}

package cpuref

import (
	"fmt"
	"strings"
)

// gatherOp defines air.gather_texture_2d[_array].<T> (Metal's gather: component c of the
// four texels a bilinear sample would read) under the uniform-texture contract: every texel
// is the texture's Texel, so the result is Texel[c] in all four lanes, converted as a sample's
// (half by exact narrowing; { T, i8 } results resident). The component is the i32 operand
// after the int2 offset; one outside x..w is out of bounds (airpipe_texture_oob). What the
// contract cannot show: which four texels, their order, the offset.
//
//	gather_texture_2d(tex, smp, float2 coord, i1, int2 offset, i32 component [, i32])
//	gather_texture_2d_array(tex, smp, float2 coord, i32 layer, i1, int2 offset, i32 component [, i32])
func gatherOp(d declaration, rest string, refuse func(string, ...any) (string, error)) (string, error) {
	dim, suffix, _ := strings.Cut(rest, ".")
	if dim != "2d" && dim != "2d_array" {
		return refuse("a gather of dimension %q (the reference gathers from 2d and 2d_array)", dim)
	}
	want, ok := texelTypes[suffix]
	if !ok {
		return refuse("texel type %q is not one the reference gives (v4f32, v4f16, s.v4i32, u.v4i32)", suffix)
	}
	ret, resident := d.Ret, false
	if ret != want.ty {
		ret, resident = "{ "+want.ty+", i8 }", true
		if d.Ret != ret {
			return refuse("result type %s, not %s or { %s, i8 }", d.Ret, want.ty, want.ty)
		}
	}
	comp := -1
	for i, p := range d.Params {
		if p == "<2 x i32>" && i+1 < len(d.Params) && d.Params[i+1] == "i32" {
			comp = i + 1
			break
		}
	}
	if !allSane(d.Params) || len(d.Params) < 4 || d.Params[0] != "ptr addrspace(1)" || d.Params[1] != "ptr addrspace(2)" || comp < 0 {
		return refuse("operands (%s) not as the reference reads them", strings.Join(d.Params, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  %%ok = icmp ult i32 %%a%d, 4\n  br i1 %%ok, label %%in, label %%out\nout:\n  call void @airpipe_texture_oob()\n  unreachable\nin:\n", comp)
	fmt.Fprintf(&b, "  %%t = call <4 x i32> @airpipe_texel(ptr addrspace(1) %%a0, ptr addrspace(2) %%a1, i1 true, i32 %d, i32 %d)\n", want.kind, dimCode(dim))
	fmt.Fprintf(&b, "  %%c = extractelement <4 x i32> %%t, i32 %%a%d\n  %%s = insertelement <4 x i32> poison, i32 %%c, i32 0\n", comp)
	b.WriteString("  %w = shufflevector <4 x i32> %s, <4 x i32> poison, <4 x i32> zeroinitializer\n")
	return finishTexel(&b, d.Name, ret, want.ty, resident, d.Params), nil
}

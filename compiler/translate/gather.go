package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// gather lowers air.gather_texture_2d[_array].<T> (Metal's texture2d::gather and
// texture2d_array::gather): the one component (component::x..w) of each of the four texels
// a bilinear sample at coord would read, as a four-lane vector in Metal's order (i0 j1,
// i1 j1, i1 j0, i0 j0: the same as SPIR-V OpImageGather's), of the call's lane type (half4
// results are the float gather rounded to half; int and uint textures give their integers).
// Operand layout, read off the corpus and Metal's signature:
//
//	gather_texture_2d(tex, smp, float2 coord, i1, int2 offset, i32 component [, i32 0])
//	gather_texture_2d_array(tex, smp, float2 coord, i32 layer, i1, int2 offset, i32 component [, i32 0])
//
// A constant non-zero offset is ConstOffset; a variable offset or component, a cube or
// another texture type is refused by name.
func (t *translator) gather(c *air.Call, r *resource, op string) (spirv.ID, bool) {
	args := c.Args
	if r.dim != spirv.Dim2D || r.ms || r.storage || r.cubeFaces {
		t.miss.add(CodeUnhandledInstruction, "gather of a texture other than texture2d or texture2d_array")
		return t.undefResult(c), true
	}
	if len(args) < 3 {
		return 0, false
	}
	smp := t.resource(args[1])
	if smp == nil || !smp.sampler {
		t.miss.add(CodeUnhandledInstruction, "sample without a sampler argument")
		return t.undefResult(c), true
	}
	i := 2
	coordArg := args[i]
	if !isFloat(coordArg.Type()) || lanes(coordArg.Type()) != 2 {
		return 0, false
	}
	i++
	layer, i, ok := arrayLayer(args, i, r.arrayed)
	if !ok {
		return 0, false
	}
	var offset spirv.ID
	component := -1
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case intBits(a.Type()) == 1:
			// the flag before the offset, as in sample_texture_2d
		case intBits(a.Type()) > 1 && lanes(a.Type()) == 2 && offset == 0 && component < 0:
			if isConstZero(a) {
				continue
			}
			if _, ok := a.(air.Constant); !ok {
				t.miss.add(CodeUnhandledInstruction, "texture gather with a variable offset")
				return t.undefResult(c), true
			}
			offset = t.value(a)
		case intBits(a.Type()) == 32 && lanes(a.Type()) == 1 && component < 0:
			ci, ok := a.(*air.ConstInt)
			if !ok && !isConstZero(a) {
				t.miss.add(CodeUnhandledInstruction, "texture gather of a variable component")
				return t.undefResult(c), true
			}
			component = 0
			if ok {
				component = int(ci.Bits)
			}
			if component < 0 || component > 3 {
				t.miss.addf(CodeUnhandledInstruction, "texture gather of component %d", component)
				return t.undefResult(c), true
			}
		case isConstZero(a):
			// the trailing zero word
		default:
			t.miss.addf(CodeUnhandledIntrinsic, "air.%s operand %d", op, i)
			return t.undefResult(c), true
		}
	}
	if component < 0 {
		return 0, false
	}
	vec4, _ := t.texelType(r)
	img := t.f.Op(spirv.OpLoad, r.typ, r.v)
	s := t.f.Op(spirv.OpLoad, smp.typ, smp.v)
	si := t.f.Op(spirv.OpSampledImage, t.b.TypeSampledImage(r.typ), img, s)
	coord := t.coordinate(coordArg, layer)
	ops := []uint32{uint32(si), uint32(coord), uint32(t.b.ConstantU32(uint32(component)))}
	if offset != 0 {
		ops = append(ops, imgConstOffset, uint32(offset))
	}
	texel := t.f.OpWords(spirv.OpImageGather, vec4, ops...)
	return t.texelResult(c, r, texel), true
}

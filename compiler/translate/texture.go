package translate

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Texture functions. Their operand layouts, read off the corpus:
//
//	sample_texture_2d(tex, smp, coord, i1, offset, i1 lod?, float lod|bias [, float min_lod, i32])
//	sample_texture_2d_array(tex, smp, coord, i32 layer, i1, offset, i1, float ...)
//	sample_texture_cube(tex, smp, coord3, i1 lod?, float ...)
//	sample_texture_2d_grad(tex, smp, coord, dPdx, dPdy, [float min_lod,] i1, offset [, i32])
//	sample_depth_2d(tex, smp, i32, coord, i1, offset, i1, float)
//	read_texture_2d(tex, coord, i32 lod, i32)   write_texture_2d(tex, coord, texel, i32 lod, i32)
//
// The i1 before the level value is read as "the value is an explicit level"
// (true) rather than a bias (false); a bias of constant zero is dropped. A
// result of type { T, i8 } is a sparse sample whose residency is always 1:
// Vulkan textures here are never sparse.

const (
	imgBias        = 0x1
	imgLod         = 0x2
	imgGrad        = 0x4
	imgConstOffset = 0x8
	imgSample      = 0x40
)

func (t *translator) texture(c *air.Call, op string, rest []string) (spirv.ID, bool) {
	if len(c.Args) == 0 {
		return 0, false
	}
	r := t.resource(c.Args[0])
	if r == nil || r.sampler {
		t.miss.add(CodeUnhandledInstruction, "texture function on a non-texture argument")
		return t.undefResult(c), true
	}
	switch {
	case strings.HasPrefix(op, "sample_"):
		return t.sample(c, r, op)
	case op == "gather_texture_2d" || op == "gather_texture_2d_array":
		return t.gather(c, r, op) // gather.go
	case strings.HasPrefix(op, "read_texture"):
		rc, ok := t.withoutReadSampler(c, op) // texread.go
		if !ok {
			return t.undefResult(c), true
		}
		return t.readTexture(rc, r)
	case strings.HasPrefix(op, "write_texture"):
		return t.writeTexture(c, r)
	case strings.HasPrefix(op, "get_"):
		return t.textureQuery(c, r, op)
	}
	return 0, false
}

func (t *translator) undefResult(c *air.Call) spirv.ID {
	if air.HasResult(c) {
		return t.b.Undef(t.typ(c.Type()))
	}
	return 0
}

func isFloat(ty air.Type) bool {
	_, ok := air.Scalar(ty).(*air.FloatType)
	return ok
}

func isConstZero(v air.Value) bool {
	switch v := v.(type) {
	case *air.ConstZero, *air.ConstNull:
		return true
	case *air.ConstInt:
		return v.Bits == 0
	case *air.ConstFloat:
		return v.Bits == 0
	case *air.ConstAggregate:
		for _, e := range v.Elems {
			if !isConstZero(e) {
				return false
			}
		}
		return true
	}
	return false
}

// texelType is the vec4 type an image of r returns, and its air type.
func (t *translator) texelType(r *resource) (spirv.ID, spirv.ID) {
	var comp spirv.ID
	if intBits(r.comp) > 0 {
		comp = t.imageSampledType(r)
	} else {
		comp = t.b.TypeFloat(32)
	}
	return t.b.TypeVector(comp, 4), comp
}

// imageSampledType is the scalar type the image was declared with.
func (t *translator) imageSampledType(r *resource) spirv.ID {
	if intBits(r.comp) == 0 {
		return t.b.TypeFloat(32)
	}
	// bindTexture declares int images as signed and uint images as unsigned.
	if r.signed() {
		return t.b.TypeInt(32, true)
	}
	return t.u32
}

func (r *resource) signed() bool { return r.signedComp }

// coordinate builds the coordinate (with the array layer appended as a float).
func (t *translator) coordinate(coord air.Value, layer air.Value) spirv.ID {
	x := t.value(coord)
	if layer == nil {
		return x
	}
	f32 := t.b.TypeFloat(32)
	l := t.value(layer)
	if intBits(layer.Type()) > 0 {
		l = t.f.Op(spirv.OpConvertUToF, f32, l)
	}
	n := lanes(coord.Type()) + 1
	return t.f.Op(spirv.OpCompositeConstruct, t.b.TypeVector(f32, uint32(n)), x, l)
}

// arrayLayer reads the layer of an arrayed texture's sample or gather: the
// integer argument args[i] after the coordinate; next is the index after
// it. ok is false when an arrayed texture's call has none there. A texture
// that is not arrayed has no layer (nil, i).
func arrayLayer(args []air.Value, i int, arrayed bool) (layer air.Value, next int, ok bool) {
	if !arrayed {
		return nil, i, true
	}
	if i >= len(args) || intBits(args[i].Type()) <= 1 {
		return nil, i, false
	}
	return args[i], i + 1, true
}

func (t *translator) sample(c *air.Call, r *resource, op string) (spirv.ID, bool) {
	args := c.Args
	if len(args) < 3 {
		return 0, false
	}
	smp := t.resource(args[1])
	if smp == nil || !smp.sampler || smp == readSampler {
		t.miss.add(CodeUnhandledInstruction, "sample without a sampler argument")
		return t.undefResult(c), true
	}
	if r.storage || r.ms {
		t.miss.add(CodeUnhandledInstruction, "sample of a storage or multisampled texture")
		return t.undefResult(c), true
	}
	i := 2
	for i < len(args) && intBits(args[i].Type()) > 1 && !isFloat(args[i].Type()) && strings.HasPrefix(op, "sample_depth") {
		i++ // the depth functions' leading integer
	}
	if i >= len(args) || !isFloat(args[i].Type()) {
		return 0, false
	}
	coordArg := args[i]
	i++
	layer, i, ok := arrayLayer(args, i, r.arrayed)
	if !ok {
		return 0, false
	}
	mask := uint32(0)
	var dx, dy, lod, offset spirv.ID
	grad := strings.HasSuffix(op, "_grad")
	if grad {
		if i+1 >= len(args) || !isFloat(args[i].Type()) || !isFloat(args[i+1].Type()) {
			return 0, false
		}
		dx, dy = t.value(args[i]), t.value(args[i+1])
		mask |= imgGrad
		i += 2
	}
	haveLod := false
	for i < len(args) {
		a := args[i]
		switch {
		case intBits(a.Type()) == 1 && i+1 < len(args) && isFloat(args[i+1].Type()) && !haveLod && !grad:
			explicit := true
			if ci, ok := a.(*air.ConstInt); ok && ci.Bits == 0 {
				explicit = false
			}
			haveLod = true
			if explicit {
				lod, mask = t.value(args[i+1]), mask|imgLod
			} else if !isConstZero(args[i+1]) {
				lod, mask = t.value(args[i+1]), mask|imgBias
			}
			i += 2
		case intBits(a.Type()) == 1:
			i++
		case intBits(a.Type()) > 1 && lanes(a.Type()) == lanes(coordArg.Type()) && offset == 0 && !haveLod:
			if !isConstZero(a) {
				if _, ok := a.(air.Constant); !ok {
					t.miss.add(CodeUnhandledInstruction, "texture sample with a variable offset")
				} else {
					offset, mask = t.value(a), mask|imgConstOffset
				}
			}
			i++
		case isConstZero(a):
			i++ // min_lod_clamp 0 or a trailing zero word
		default:
			t.miss.addf(CodeUnhandledIntrinsic, "air.%s operand %d", op, i)
			return t.undefResult(c), true
		}
	}
	if mask&imgBias != 0 && t.model != spirv.ExecutionModelFragment {
		mask &^= imgBias
	}
	implicit := mask&(imgLod|imgGrad) == 0 && t.model == spirv.ExecutionModelFragment
	if mask&(imgLod|imgGrad) == 0 && !implicit {
		lod, mask = t.floatConst(air.FloatTy, 0), mask|imgLod
	}
	if r.dim == spirv.Dim1D {
		t.b.Capability(spirv.CapabilitySampled1D)
	}
	vec4, _ := t.texelType(r)
	img := t.f.Op(spirv.OpLoad, r.typ, r.v)
	s := t.f.Op(spirv.OpLoad, smp.typ, smp.v)
	si := t.f.Op(spirv.OpSampledImage, t.b.TypeSampledImage(r.typ), img, s)
	coord := t.coordinate(coordArg, layer)
	ops := []uint32{uint32(si), uint32(coord)}
	if mask != 0 {
		ops = append(ops, mask)
		for _, bit := range []uint32{imgBias, imgLod} {
			if mask&bit != 0 {
				ops = append(ops, uint32(lod))
			}
		}
		if mask&imgGrad != 0 {
			ops = append(ops, uint32(dx), uint32(dy))
		}
		if mask&imgConstOffset != 0 {
			ops = append(ops, uint32(offset))
		}
	}
	opc := spirv.OpImageSampleExplicitLod
	if implicit {
		opc = spirv.OpImageSampleImplicitLod
	}
	texel := t.f.OpWords(opc, vec4, ops...)
	return t.texelResult(c, r, texel), true
}

// texelResult converts a vec4 texel to the call's result type: a scalar for
// depth, half or unsigned lanes, or a { T, i8 } sparse pair.
func (t *translator) texelResult(c *air.Call, r *resource, texel spirv.ID) spirv.ID {
	ty := c.Type()
	st, sparse := ty.(*air.StructType)
	if sparse {
		if len(st.Fields) != 2 {
			t.miss.addf(CodeUnhandledInstruction, "texture result %s", ty)
			return t.b.Undef(t.typ(ty))
		}
		ty = st.Fields[0]
	}
	v := texel
	_, comp := t.texelType(r)
	if n := lanes(ty); n == 1 {
		v = t.f.OpWords(spirv.OpCompositeExtract, comp, uint32(v), 0)
	} else if n != 4 {
		ops := []uint32{uint32(v), uint32(v)}
		for i := 0; i < n; i++ {
			ops = append(ops, uint32(i))
		}
		v = t.f.OpWords(spirv.OpVectorShuffle, t.b.TypeVector(comp, uint32(n)), ops...)
	}
	switch {
	case isFloat(ty) && scalarBits(air.Scalar(ty)) != 32:
		v = t.f.Op(spirv.OpFConvert, t.typ(ty), v)
	case intBits(ty) > 0 && r.signed():
		if intBits(ty) == 32 {
			v = t.f.Op(spirv.OpBitcast, t.typ(ty), v)
		} else {
			v = t.f.Op(spirv.OpSConvert, t.typ(ty), v)
		}
	case intBits(ty) > 0 && intBits(ty) != 32:
		v = t.f.Op(spirv.OpUConvert, t.typ(ty), v)
	case intBits(ty) > 0 && intBits(r.comp) == 0, isFloat(ty) && intBits(r.comp) > 0:
		t.miss.addf(CodeUnhandledInstruction, "texel %s from a %s texture", ty, r.comp)
	}
	if sparse {
		resident := t.b.Constant(t.typ(st.Fields[1]), 1)
		return t.f.Op(spirv.OpCompositeConstruct, t.typ(c.Type()), v, resident)
	}
	return v
}

// intCoord reads the leading operands of a texture read or write (args[1]
// the integer coordinate and, for an arrayed texture, args[2] the layer; for
// a cube, args[2] the face, which a storage Cube image and a cube declared as
// its faces both take as the coordinate's last component) and converts them
// with intCoordLayer. It returns the index of the operand after them; ok is
// false when the coordinate is not an integer or when fewer than more
// operands follow them.
func (t *translator) intCoord(args []air.Value, r *resource, more int) (coord spirv.ID, next int, ok bool) {
	next = 2
	layered := r.arrayed || r.dim == spirv.DimCube
	if layered {
		next = 3
	}
	if len(args) < next+more || intBits(args[1].Type()) <= 1 {
		return 0, 0, false
	}
	var layer air.Value
	if layered {
		layer = args[2]
	}
	return t.intCoordLayer(args[1], layer), next, true
}

// intCoordLayer converts an integer coordinate (and layer) to a signed vector for fetch/read/write.
func (t *translator) intCoordLayer(coord air.Value, layer air.Value) spirv.ID {
	x := t.value(coord)
	if intBits(coord.Type()) != 32 {
		x = t.f.Op(spirv.OpUConvert, t.typ(withBits(coord.Type(), 32)), x)
	}
	if layer == nil {
		return x
	}
	l := t.value(layer)
	if intBits(layer.Type()) != 32 {
		l = t.f.Op(spirv.OpUConvert, t.u32, l)
	}
	return t.f.Op(spirv.OpCompositeConstruct, t.b.TypeVector(t.u32, uint32(lanes(coord.Type())+1)), x, l)
}

func (t *translator) readTexture(c *air.Call, r *resource) (spirv.ID, bool) {
	args := c.Args
	if r.dim == spirv.DimCube && (r.arrayed || !r.storage) {
		// Vulkan fetches from no Cube image; only a read-only cube is
		// declared as its faces (bindTexture), a cube array never is.
		t.miss.add(CodeUnhandledInstruction, "read of a sampled cube or cube-array texture")
		return t.undefResult(c), true
	}
	coord, i, ok := t.intCoord(args, r, 0)
	if !ok {
		return 0, false
	}
	vec4, _ := t.texelType(r)
	img := t.f.Op(spirv.OpLoad, r.typ, r.v)
	var texel spirv.ID
	if r.ms {
		// read(coord[, layer], sample): the sample index is the Sample
		// image operand; a multisampled image has one level.
		if i >= len(args) || intBits(args[i].Type()) <= 1 {
			return 0, false
		}
		texel = t.f.OpWords(spirv.OpImageFetch, vec4, uint32(img), uint32(coord), imgSample, uint32(t.toU32(args[i])))
		return t.texelResult(c, r, texel), true
	}
	if r.storage {
		texel = t.f.Op(spirv.OpImageRead, vec4, img, coord)
	} else {
		lod := t.b.ConstantU32(0)
		if i < len(args) && intBits(args[i].Type()) > 1 {
			lod = t.toU32(args[i])
		}
		texel = t.f.OpWords(spirv.OpImageFetch, vec4, uint32(img), uint32(coord), imgLod, uint32(lod))
	}
	return t.texelResult(c, r, texel), true
}

func (t *translator) writeTexture(c *air.Call, r *resource) (spirv.ID, bool) {
	args := c.Args
	if !r.storage {
		t.miss.add(CodeUnhandledInstruction, "write to a texture without write access")
		return 0, true
	}
	if r.dim == spirv.DimCube && r.arrayed {
		// write(color, coord, face, index): the layer-face index of a
		// Cube-array storage image is index*6+face; not lowered yet.
		t.miss.add(CodeUnhandledInstruction, "write to a cube-array texture")
		return 0, true
	}
	coord, i, ok := t.intCoord(args, r, 1)
	if !ok {
		return 0, false
	}
	val := args[i]
	v := t.value(val)
	vec4, comp := t.texelType(r)
	if n := lanes(val.Type()); n != 4 {
		t.miss.addf(CodeUnhandledInstruction, "texture write of %s", val.Type())
		return 0, true
	}
	switch {
	case isFloat(val.Type()) && scalarBits(air.Scalar(val.Type())) != 32:
		v = t.f.Op(spirv.OpFConvert, vec4, v)
	case intBits(val.Type()) == 32 && r.signed():
		v = t.f.Op(spirv.OpBitcast, vec4, v)
	case intBits(val.Type()) > 0 && intBits(val.Type()) != 32:
		v = t.f.Op(spirv.OpUConvert, t.b.TypeVector(comp, 4), v)
	}
	img := t.f.Op(spirv.OpLoad, r.typ, r.v)
	t.f.Emit(spirv.OpImageWrite, uint32(img), uint32(coord), uint32(v))
	return 0, true
}

// textureQuery lowers get_width/get_height/get_depth/get_array_size/get_num_mip_levels.
func (t *translator) textureQuery(c *air.Call, r *resource, op string) (spirv.ID, bool) {
	what, _, _ := strings.Cut(strings.TrimPrefix(op, "get_"), "_texture")
	if strings.Contains(what, "_depth") {
		what, _, _ = strings.Cut(what, "_depth")
	}
	t.b.Capability(spirv.CapabilityImageQuery)
	img := t.f.Op(spirv.OpLoad, r.typ, r.v)
	switch what {
	case "num_mip_levels":
		if r.storage || r.ms {
			return 0, false
		}
		return t.fitU32(t.f.Op(spirv.OpImageQueryLevels, t.u32, img), c.Type()), true
	case "num_samples":
		if !r.ms {
			return 0, false
		}
		return t.fitU32(t.f.Op(spirv.OpImageQuerySamples, t.u32, img), c.Type()), true
	}
	comps := map[spirv.Dim]int{spirv.Dim1D: 1, spirv.Dim2D: 2, spirv.Dim3D: 3, spirv.DimCube: 2}[r.dim]
	if r.arrayed {
		comps++
	}
	sizeTy := t.u32
	if comps > 1 {
		sizeTy = t.b.TypeVector(t.u32, uint32(comps))
	}
	var size spirv.ID
	if r.storage || r.ms {
		// Storage and multisampled images have no level to name.
		size = t.f.Op(spirv.OpImageQuerySize, sizeTy, img)
	} else {
		lod := t.b.ConstantU32(0)
		if len(c.Args) > 1 && intBits(c.Args[1].Type()) > 1 {
			lod = t.toU32(c.Args[1])
		}
		size = t.f.Op(spirv.OpImageQuerySizeLod, sizeTy, img, lod)
	}
	idx := map[string]int{"width": 0, "height": 1, "depth": 2, "array_size": comps - 1}
	k, ok := idx[what]
	if !ok || k >= comps {
		return 0, false
	}
	v := size
	if comps > 1 {
		v = t.f.OpWords(spirv.OpCompositeExtract, t.u32, uint32(size), uint32(k))
	}
	return t.fitU32(v, c.Type()), true
}

// fitU32 converts a u32 to the integer type ty.
func (t *translator) fitU32(v spirv.ID, ty air.Type) spirv.ID {
	if b := intBits(ty); b != 32 && b > 1 {
		return t.f.Op(spirv.OpUConvert, t.typ(ty), v)
	}
	return v
}

// resource returns the texture or sampler an operand denotes: a bound
// argument, or a constexpr sampler (a constant global holding Metal's 64-bit
// sampler state word, which is not decoded: it is handed to the runtime in
// the reflection, at the next constexpr sampler binding, as seed 003 §3.3 says).
func (t *translator) resource(v air.Value) *resource {
	if r, ok := t.res[v]; ok {
		return r
	}
	var word string
	name := "sampler_state"
	switch v := v.(type) {
	case *air.GlobalVariable:
		state, ok := samplerState(v) // texread.go: one i64 word or an array of them
		if !ok {
			return nil
		}
		word, name = state, v.Name
	case *air.ConstExpr:
		if v.Op != air.OpIntToPtr || len(v.Ops) != 1 {
			return nil
		}
		c, ok := v.Ops[0].(*air.ConstInt)
		if !ok || c.Typ.Bits != 64 {
			return nil
		}
		word = fmt.Sprintf("0x%016x", c.Bits)
	default:
		return nil
	}
	if r, ok := t.samplers[word]; ok {
		return r
	}
	k := len(t.samplers)
	if k >= constSamplerCount {
		t.miss.add(CodeUnsupportedInterface, "more than 16 constexpr samplers")
		return nil
	}
	st := t.b.TypeSampler()
	sv := t.b.Variable(t.b.TypePointer(spirv.StorageClassUniformConstant, st), spirv.StorageClassUniformConstant)
	t.b.Name(sv, name)
	n := constSamplerBase + k
	t.decorateBinding(sv, n)
	r := &resource{v: sv, typ: st, sampler: true}
	t.samplers[word] = r
	t.refl.Bindings = append(t.refl.Bindings, Binding{Binding: n, Kind: "sampler", Metal: "constexpr sampler",
		Name: name, SamplerState: word})
	return r
}

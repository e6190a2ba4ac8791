package device

import "fmt"

// More SPIR-V opcodes and built-ins for the draw's vertex shader.
const (
	opConstantComposite  = 44
	opLoad               = 61
	opCompositeConstruct = 80
	opSelect             = 169
	opIEqual             = 170
	builtInVertexIndex   = 42
	decIndex             = 32
)

// fullScreenVertex writes a vertex shader "main" for drawing the fragment entry fe of frag
// over the whole viewport: vertex i of a three-vertex draw lies at (-1,-1), (3,-1) or (-1,3)
// in clip space, z 0.5, w 1 (one triangle covering every pixel once), and every input of fe
// receives, from every vertex, the same constant: inputs[location]'s 32-bit words, one per
// component (values for locations fe does not read are ignored). Since all three vertices agree, interpolation has nothing to blend, so the
// fragment reads the constant itself on a rasteriser that interpolates through plane
// equations (lavapipe; see draw.go). Inputs must be 32-bit scalars or vectors.
func fullScreenVertex(frag *spirvModule, fe spirvEntry, inputs map[uint32][]uint32) ([]uint32, error) {
	w := &spvWriter{}
	vectors := map[[2]uint32]uint32{} // {component type, count} -> vector type id
	vector := func(c, n uint32) uint32 {
		return w.once(vectors, [2]uint32{c, n}, func(v uint32) { emit(&w.types, opTypeVector, v, c, n) })
	}
	// shape gives the scalar type (op, signedness) and component count of a 32-bit input.
	shape := func(id uint32) (op, signed, n uint32, err error) {
		t := frag.types[id]
		n = 1
		if len(t) >= 4 && t[0]&0xffff == opTypeVector {
			n, t = t[3], frag.types[t[2]]
		}
		switch {
		case len(t) >= 3 && t[0]&0xffff == opTypeFloat && t[2] == 32:
			return opTypeFloat, 0, n, nil
		case len(t) >= 4 && t[0]&0xffff == opTypeInt && t[2] == 32:
			return opTypeInt, t[3], n, nil
		}
		return 0, 0, 0, fmt.Errorf("fragment input type %%%d is not a 32-bit scalar or vector", id)
	}
	consts := map[[2]uint32]uint32{} // {type, bits} -> constant id
	constant := func(ty, bits uint32) uint32 {
		return w.once(consts, [2]uint32{ty, bits}, func(c uint32) { emit(&w.types, opConstant, ty, c, bits) })
	}

	main, void, fnType := w.id(), w.id(), w.id()
	emit(&w.types, opTypeVoid, void)
	emit(&w.types, opTypeFunction, fnType, void)
	f32 := w.scalar(opTypeFloat, 32, 0)
	i32 := w.scalar(opTypeInt, 32, 1)
	boolT := w.id()
	emit(&w.types, opTypeBool, boolT)
	v4 := vector(f32, 4)
	pv4, pos, pi32, vidx := w.id(), w.id(), w.id(), w.id()
	emit(&w.types, opTypePointer, pv4, scOutput, v4)
	emit(&w.types, opVariable, pv4, pos, scOutput)
	emit(&w.types, opTypePointer, pi32, scInput, i32)
	emit(&w.types, opVariable, pi32, vidx, scInput)
	emit(&w.decos, opDecorate, pos, decBuiltIn, builtInPosition)
	emit(&w.decos, opDecorate, vidx, decBuiltIn, builtInVertexIndex)
	minus1, three, half, one := constant(f32, 0xbf800000), constant(f32, 0x40400000), constant(f32, 0x3f000000), constant(f32, 0x3f800000)
	c1, c2 := constant(i32, 1), constant(i32, 2)

	emit(&w.functions, opFunction, void, main, 0, fnType)
	emit(&w.functions, opLabel, w.id())
	vi, is1, is2, x, y, p := w.id(), w.id(), w.id(), w.id(), w.id(), w.id()
	emit(&w.functions, opLoad, i32, vi, vidx)
	emit(&w.functions, opIEqual, boolT, is1, vi, c1)
	emit(&w.functions, opIEqual, boolT, is2, vi, c2)
	emit(&w.functions, opSelect, f32, x, is1, three, minus1)
	emit(&w.functions, opSelect, f32, y, is2, three, minus1)
	emit(&w.functions, opCompositeConstruct, v4, p, x, y, half, one)
	emit(&w.functions, opStore, pos, p)
	iface := []uint32{pos, vidx}
	for _, in := range frag.ioVars(fe, scInput) {
		words, ok := inputs[in.Location]
		if !ok {
			return nil, fmt.Errorf("fragment input location %d has no value", in.Location)
		}
		op, signed, n, err := shape(in.Type)
		if err != nil {
			return nil, fmt.Errorf("location %d: %w", in.Location, err)
		}
		if uint32(len(words)) != n {
			return nil, fmt.Errorf("location %d: %d values for %d components", in.Location, len(words), n)
		}
		st := w.scalar(op, 32, signed)
		t, val := st, constant(st, words[0])
		if n > 1 {
			t = vector(st, n)
			val = w.id()
			args := []uint32{t, val}
			for _, b := range words {
				args = append(args, constant(st, b))
			}
			emit(&w.types, opConstantComposite, args...)
		}
		pt, v := w.id(), w.id()
		emit(&w.types, opTypePointer, pt, scOutput, t)
		emit(&w.types, opVariable, pt, v, scOutput)
		emit(&w.functions, opStore, v, val)
		iface = append(iface, v)
		w.decorateLike(v, frag, in)
	}
	emit(&w.functions, opReturn)
	emit(&w.functions, opFunctionEnd)
	emit(&w.caps, opCapability, capShader)
	return w.vertexModule(frag.words[1], main, iface), nil
}

// once gives the id memo holds for k, or takes a new id, declares it with declare and
// remembers it under k.
func (w *spvWriter) once(memo map[[2]uint32]uint32, k [2]uint32, declare func(id uint32)) uint32 {
	if id, ok := memo[k]; ok {
		return id
	}
	id := w.id()
	declare(id)
	memo[k] = id
	return id
}

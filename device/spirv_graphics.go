package device

import (
	"fmt"
	"sort"
)

// entry finds the entry point of model named name.
func (m *spirvModule) entry(model uint32, name string) (spirvEntry, bool) {
	for _, e := range m.entryPoints {
		if e.Model == model && e.Name == name {
			return e, true
		}
	}
	return spirvEntry{}, false
}

// ioVar is a user (non-built-in) interface variable with a Location.
type ioVar struct {
	ID, Type, Location uint32
}

// ioVars lists e's variables of storage class class that carry a Location, by location.
func (m *spirvModule) ioVars(e spirvEntry, class uint32) []ioVar {
	var out []ioVar
	seen := map[uint32]bool{}
	for _, id := range e.Interface {
		v, ok := m.vars[id]
		if !ok || v.Class != class || seen[id] {
			continue
		}
		seen[id] = true
		loc, ok := m.decorations[id][decLocation]
		if !ok {
			continue
		}
		pt := m.types[v.PtrType]
		if len(pt) < 4 {
			continue
		}
		out = append(out, ioVar{ID: id, Type: pt[3], Location: loc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Location < out[j].Location })
	return out
}

// Vulkan formats for 1-4 components of each scalar kind and width.
var scalarFormats = map[[2]uint32][4]uint32{
	{'f', 16}: {76, 83, 90, 97},     // R16*_SFLOAT
	{'f', 32}: {100, 103, 106, 109}, // R32*_SFLOAT
	{'f', 64}: {112, 115, 118, 121}, // R64*_SFLOAT
	{'u', 8}:  {13, 20, 27, 41},     // R8*_UINT
	{'s', 8}:  {14, 21, 28, 42},     // R8*_SINT
	{'u', 16}: {74, 81, 88, 95},     // R16*_UINT
	{'s', 16}: {75, 82, 89, 96},     // R16*_SINT
	{'u', 32}: {98, 101, 104, 107},  // R32*_UINT
	{'s', 32}: {99, 102, 105, 108},  // R32*_SINT
	{'u', 64}: {110, 113, 116, 119}, // R64*_UINT
	{'s', 64}: {111, 114, 117, 120}, // R64*_SINT
}

// maxLocations bounds the locations one interface variable may take (Vulkan devices offer
// 32 vertex attributes at most in practice).
const maxLocations = 64

// locationFormats gives the Vulkan format of each location a variable of type id takes.
func (m *spirvModule) locationFormats(id uint32) ([]uint32, error) {
	return m.locationFormatsDepth(id, 0)
}

func (m *spirvModule) locationFormatsDepth(id uint32, depth int) ([]uint32, error) {
	if depth > maxTypeDepth {
		return nil, fmt.Errorf("type %%%d nests deeper than %d", id, maxTypeDepth)
	}
	t := m.types[id]
	if len(t) < 2 {
		return nil, fmt.Errorf("type %%%d is not declared", id)
	}
	scalar := func(t []uint32, n uint32) ([]uint32, error) {
		var kind uint32
		switch {
		case len(t) < 2:
			return nil, fmt.Errorf("type %%%d: component type is not declared", id)
		case t[0]&0xffff == opTypeFloat && len(t) >= 3:
			kind = 'f'
		case t[0]&0xffff == opTypeInt && len(t) >= 4 && t[3] == 1:
			kind = 's'
		case t[0]&0xffff == opTypeInt && len(t) >= 4:
			kind = 'u'
		default:
			return nil, fmt.Errorf("type %%%d (opcode %d) is not a number or vector", id, t[0]&0xffff)
		}
		fs, ok := scalarFormats[[2]uint32{kind, t[2]}]
		if !ok || n < 1 || n > 4 {
			return nil, fmt.Errorf("type %%%d: %d components of %c%d have no vertex format", id, n, kind, t[2])
		}
		return []uint32{fs[n-1]}, nil
	}
	switch t[0] & 0xffff {
	case opTypeFloat, opTypeInt:
		return scalar(t, 1)
	case opTypeVector:
		if len(t) < 4 {
			break
		}
		return scalar(m.types[t[2]], t[3])
	case opTypeMatrix, opTypeArray:
		if len(t) < 4 {
			break
		}
		n := t[3]
		if t[0]&0xffff == opTypeArray {
			at, ok := m.constAt[t[3]]
			if !ok {
				return nil, fmt.Errorf("array type %%%d: length is not a constant", id)
			}
			n = m.words[at]
		}
		if n > maxLocations {
			return nil, fmt.Errorf("type %%%d: %d locations", id, n)
		}
		one, err := m.locationFormatsDepth(t[2], depth+1)
		if err != nil {
			return nil, err
		}
		if uint64(n)*uint64(len(one)) > maxLocations {
			return nil, fmt.Errorf("type %%%d takes more than %d locations", id, maxLocations)
		}
		var out []uint32
		for range n {
			out = append(out, one...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("type %%%d (opcode %d) cannot be a vertex input or color output", id, t[0]&0xffff)
}

// spvWriter builds a SPIR-V module section by section.
type spvWriter struct {
	bound                                       uint32
	caps, exts, header, decos, types, functions []uint32
	scalars                                     map[[3]uint32]uint32 // {opcode, width, signedness} -> id
}

func (w *spvWriter) id() uint32 { w.bound++; return w.bound }

// scalar gives the id of the float (op opTypeFloat) or integer scalar type of width bits,
// declaring it on first use: SPIR-V forbids duplicate scalar types.
func (w *spvWriter) scalar(op, width, signed uint32) uint32 {
	k := [3]uint32{op, width, signed}
	if n, ok := w.scalars[k]; ok {
		return n
	}
	n := w.id()
	if op == opTypeFloat {
		emit(&w.types, opTypeFloat, n, width)
	} else {
		emit(&w.types, opTypeInt, n, width, signed)
	}
	if w.scalars == nil {
		w.scalars = map[[3]uint32]uint32{}
	}
	w.scalars[k] = n
	return n
}

// decorateLike gives the output variable v the location of the input in and the component
// and interpolation decorations frag gives in.
func (w *spvWriter) decorateLike(v uint32, frag *spirvModule, in ioVar) {
	d := frag.decorations[in.ID]
	emit(&w.decos, opDecorate, v, decLocation, in.Location)
	if c, ok := d[decComponent]; ok {
		emit(&w.decos, opDecorate, v, decComponent, c)
	}
	for _, dec := range []uint32{decFlat, decNoPerspective, decCentroid, decSample} {
		if _, ok := d[dec]; ok {
			emit(&w.decos, opDecorate, v, dec)
		}
	}
}

// vertexModule ends the module as a Vertex entry point "main" (function main, interface
// iface) and returns its words, with the SPIR-V version of the module it was written for.
func (w *spvWriter) vertexModule(version, main uint32, iface []uint32) []uint32 {
	emit(&w.header, opMemoryModel, 0, 1)
	emit(&w.header, opEntryPoint, append(append([]uint32{execModelVertex, main}, stringWords("main")...), iface...)...)
	out := []uint32{spirvMagic, version, 0, w.bound + 1, 0}
	for _, sec := range [][]uint32{w.caps, w.exts, w.header, w.decos, w.types, w.functions} {
		out = append(out, sec...)
	}
	return out
}

func emit(sec *[]uint32, op uint32, args ...uint32) {
	*sec = append(*sec, uint32(len(args)+1)<<16|op)
	*sec = append(*sec, args...)
}

func stringWords(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	ws := make([]uint32, len(b)/4)
	for i := range ws {
		ws[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
	}
	return ws
}

// SPIR-V capabilities the generated vertex shader may need.
const (
	capShader               = 1
	capFloat16              = 9
	capFloat64              = 10
	capInt64                = 11
	capInt16                = 22
	capStorageInputOutput16 = 4154
	builtInPosition         = 0
)

// vertexFor writes a vertex shader "main" that feeds the fragment entry fe of frag: it writes
// zero to gl_Position and to an output for every input of fe, with the same location,
// component, type and interpolation decorations. It lets a fragment function compile alone.
func vertexFor(frag *spirvModule, fe spirvEntry) ([]uint32, error) {
	w := &spvWriter{}
	caps := map[uint32]bool{capShader: true}
	copied := map[uint32]uint32{}
	var copyType func(id uint32) (uint32, error)
	depth := 0
	copyType = func(id uint32) (uint32, error) {
		if n, ok := copied[id]; ok {
			return n, nil
		}
		if depth++; depth > maxTypeDepth {
			return 0, fmt.Errorf("type %%%d nests deeper than %d", id, maxTypeDepth)
		}
		defer func() { depth-- }()
		t := frag.types[id]
		if len(t) < 2 {
			return 0, fmt.Errorf("type %%%d is not declared", id)
		}
		var n uint32
		switch op := t[0] & 0xffff; {
		case op == opTypeFloat && len(t) >= 3:
			switch t[2] {
			case 16:
				caps[capFloat16], caps[capStorageInputOutput16] = true, true
			case 64:
				caps[capFloat64] = true
			}
			n = w.scalar(opTypeFloat, t[2], 0)
		case op == opTypeInt && len(t) >= 4:
			switch t[2] {
			case 16:
				caps[capInt16], caps[capStorageInputOutput16] = true, true
			case 64:
				caps[capInt64] = true
			}
			n = w.scalar(opTypeInt, t[2], t[3])
		case (op == opTypeVector || op == opTypeMatrix) && len(t) >= 4:
			c, err := copyType(t[2])
			if err != nil {
				return 0, err
			}
			n = w.id()
			emit(&w.types, op, n, c, t[3])
		case op == opTypeArray && len(t) >= 4:
			c, err := copyType(t[2])
			if err != nil {
				return 0, err
			}
			at, ok := frag.constAt[t[3]]
			if !ok || at < 2 {
				return 0, fmt.Errorf("array type %%%d: length is not a constant", id)
			}
			l := w.id()
			emit(&w.types, opConstant, w.scalar(opTypeInt, 32, 0), l, frag.words[at])
			n = w.id()
			emit(&w.types, opTypeArray, n, c, l)
		default:
			return 0, fmt.Errorf("fragment input type %%%d (opcode %d) is not supported by the generated vertex shader", id, op)
		}
		copied[id] = n
		return n, nil
	}

	main, void, fnType := w.id(), w.id(), w.id()
	emit(&w.types, opTypeVoid, void)
	emit(&w.types, opTypeFunction, fnType, void)
	f32 := w.scalar(opTypeFloat, 32, 0)
	v4, pv4, pos, null4 := w.id(), w.id(), w.id(), w.id()
	emit(&w.types, opTypeVector, v4, f32, 4)
	emit(&w.types, opTypePointer, pv4, scOutput, v4)
	emit(&w.types, opVariable, pv4, pos, scOutput)
	emit(&w.types, opConstantNull, v4, null4)
	emit(&w.decos, opDecorate, pos, decBuiltIn, builtInPosition)
	emit(&w.functions, opFunction, void, main, 0, fnType)
	emit(&w.functions, opLabel, w.id())
	emit(&w.functions, opStore, pos, null4)
	iface := []uint32{pos}
	for _, in := range frag.ioVars(fe, scInput) {
		t, err := copyType(in.Type)
		if err != nil {
			return nil, fmt.Errorf("location %d: %w", in.Location, err)
		}
		p, v, z := w.id(), w.id(), w.id()
		emit(&w.types, opTypePointer, p, scOutput, t)
		emit(&w.types, opVariable, p, v, scOutput)
		emit(&w.types, opConstantNull, t, z)
		emit(&w.functions, opStore, v, z)
		iface = append(iface, v)
		w.decorateLike(v, frag, in)
	}
	emit(&w.functions, opReturn)
	emit(&w.functions, opFunctionEnd)

	var capList []uint32
	for c := range caps {
		capList = append(capList, c)
	}
	sort.Slice(capList, func(i, j int) bool { return capList[i] < capList[j] })
	for _, c := range capList {
		emit(&w.caps, opCapability, c)
	}
	if caps[capStorageInputOutput16] {
		emit(&w.exts, opExtension, stringWords("SPV_KHR_16bit_storage")...)
	}
	return w.vertexModule(frag.words[1], main, iface), nil
}

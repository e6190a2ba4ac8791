package spirv

import (
	"math"
	"strconv"
)

// TypeVoid returns the void type.
func (m *Module) TypeVoid() ID { return m.global(OpTypeVoid, 0, nil, "", nil) }

// TypeBool returns the Boolean type.
func (m *Module) TypeBool() ID { return m.global(OpTypeBool, 0, nil, "", nil) }

// TypeInt returns an integer type of the given width and signedness.
func (m *Module) TypeInt(width uint32, signed bool) ID {
	s := uint32(0)
	if signed {
		s = 1
	}
	switch width {
	case 8:
		m.Capability(CapabilityInt8)
	case 16:
		m.Capability(CapabilityInt16)
	case 64:
		m.Capability(CapabilityInt64)
	}
	return m.global(OpTypeInt, 0, []uint32{width, s}, "", nil)
}

// TypeFloat returns a floating-point type of the given width.
func (m *Module) TypeFloat(width uint32) ID {
	switch width {
	case 16:
		m.Capability(CapabilityFloat16)
	case 64:
		m.Capability(CapabilityFloat64)
	}
	return m.global(OpTypeFloat, 0, []uint32{width}, "", nil)
}

// TypeVector returns a vector of n elements of type elem.
func (m *Module) TypeVector(elem ID, n uint32) ID {
	return m.global(OpTypeVector, 0, []uint32{uint32(elem), n}, "", nil)
}

// TypeArray returns an array of elem with a length given by constant id length.
// A non-zero stride adds an ArrayStride decoration (and makes a distinct type).
func (m *Module) TypeArray(elem, length ID, stride uint32) ID {
	return m.global(OpTypeArray, 0, []uint32{uint32(elem), uint32(length)}, strideKey(stride), m.strideDecorator(stride))
}

// TypeRuntimeArray returns a runtime-sized array of elem with an optional ArrayStride.
func (m *Module) TypeRuntimeArray(elem ID, stride uint32) ID {
	return m.global(OpTypeRuntimeArray, 0, []uint32{uint32(elem)}, strideKey(stride), m.strideDecorator(stride))
}

func strideKey(stride uint32) string {
	if stride == 0 {
		return ""
	}
	return "stride=" + strconv.FormatUint(uint64(stride), 10)
}

func (m *Module) strideDecorator(stride uint32) func(ID) {
	if stride == 0 {
		return nil
	}
	return func(id ID) { m.Decorate(id, DecorationArrayStride, stride) }
}

// TypeStruct returns a deduplicated structure type without layout decorations.
func (m *Module) TypeStruct(members ...ID) ID {
	return m.global(OpTypeStruct, 0, idWords(members), "", nil)
}

// TypeStructUnique returns a new structure type every call, for structures
// that carry their own decorations (Block, Offset, BuiltIn).
func (m *Module) TypeStructUnique(members ...ID) ID {
	id := m.ID()
	m.globals = append(m.globals, Instruction{OpTypeStruct, append([]uint32{uint32(id)}, idWords(members)...)})
	return id
}

// TypePointer returns a pointer to elem in storage class sc.
func (m *Module) TypePointer(sc StorageClass, elem ID) ID {
	return m.global(OpTypePointer, 0, []uint32{uint32(sc), uint32(elem)}, "", nil)
}

// TypeFunction returns a function type.
func (m *Module) TypeFunction(ret ID, params ...ID) ID {
	return m.global(OpTypeFunction, 0, append([]uint32{uint32(ret)}, idWords(params)...), "", nil)
}

// TypeImage returns an image type.
func (m *Module) TypeImage(sampledType ID, dim Dim, depth, arrayed, ms, sampled uint32, format ImageFormat) ID {
	return m.global(OpTypeImage, 0, []uint32{uint32(sampledType), uint32(dim), depth, arrayed, ms, sampled, uint32(format)}, "", nil)
}

// TypeSampler returns the sampler type.
func (m *Module) TypeSampler() ID { return m.global(OpTypeSampler, 0, nil, "", nil) }

// TypeSampledImage returns the combined image-sampler type of image.
func (m *Module) TypeSampledImage(image ID) ID {
	return m.global(OpTypeSampledImage, 0, []uint32{uint32(image)}, "", nil)
}

// Constant returns a scalar constant of type typ with the given literal words.
func (m *Module) Constant(typ ID, words ...uint32) ID {
	return m.global(OpConstant, typ, words, "", nil)
}

// ConstantU32 returns a 32-bit unsigned integer constant.
func (m *Module) ConstantU32(v uint32) ID { return m.Constant(m.TypeInt(32, false), v) }

// ConstantF32 returns a 32-bit float constant.
func (m *Module) ConstantF32(v float32) ID {
	return m.Constant(m.TypeFloat(32), math.Float32bits(v))
}

// ConstantBool returns the Boolean constant v.
func (m *Module) ConstantBool(v bool) ID {
	if v {
		return m.global(OpConstantTrue, m.TypeBool(), nil, "", nil)
	}
	return m.global(OpConstantFalse, m.TypeBool(), nil, "", nil)
}

// ConstantComposite returns a composite constant.
func (m *Module) ConstantComposite(typ ID, parts ...ID) ID {
	return m.global(OpConstantComposite, typ, idWords(parts), "", nil)
}

// ConstantNull returns the null (all zero) constant of typ.
func (m *Module) ConstantNull(typ ID) ID { return m.global(OpConstantNull, typ, nil, "", nil) }

// Undef returns an undefined value of typ.
func (m *Module) Undef(typ ID) ID { return m.global(OpUndef, typ, nil, "", nil) }

func idWords(ids []ID) []uint32 {
	w := make([]uint32, len(ids))
	for i, id := range ids {
		w[i] = uint32(id)
	}
	return w
}

// SpecConstant declares a scalar specialization constant with a default value
// (never deduplicated: each has its own SpecId).
func (m *Module) SpecConstant(typ ID, words ...uint32) ID {
	id := m.ID()
	m.globals = append(m.globals, Instruction{OpSpecConstant, append([]uint32{uint32(typ), uint32(id)}, words...)})
	return id
}

// SpecConstantFalse declares a bool specialization constant whose default
// is false (OpSpecConstantFalse).
func (m *Module) SpecConstantFalse(boolType ID) ID {
	id := m.ID()
	m.globals = append(m.globals, Instruction{OpSpecConstantFalse, []uint32{uint32(boolType), uint32(id)}})
	return id
}

// SpecConstantComposite declares a composite specialization constant.
func (m *Module) SpecConstantComposite(typ ID, parts ...ID) ID {
	id := m.ID()
	m.globals = append(m.globals, Instruction{OpSpecConstantComposite, append([]uint32{uint32(typ), uint32(id)}, idWords(parts)...)})
	return id
}

// Capabilities lists the declared capabilities in declaration order.
func (m *Module) Capabilities() []Capability { return append([]Capability(nil), m.capabilities...) }

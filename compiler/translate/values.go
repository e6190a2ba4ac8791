package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// typ maps an LLVM value type to SPIR-V: i1 is bool, every other integer is
// unsigned (signedness lives in the operations), pointers are u32 byte
// offsets (see memory.go). An unsupported type is reported and replaced by
// u32 so the walk goes on.
func (t *translator) typ(ty air.Type) spirv.ID {
	switch ty := ty.(type) {
	case *air.VoidType:
		return t.b.TypeVoid()
	case *air.IntType:
		switch ty.Bits {
		case 1:
			return t.b.TypeBool()
		case 8, 16, 32, 64:
			return t.b.TypeInt(uint32(ty.Bits), false)
		}
		if oddWidth(ty.Bits) {
			return t.u32 // held in a 32-bit word (intwidth.go)
		}
	case *air.FloatType:
		switch ty.Kind {
		case air.Half:
			return t.b.TypeFloat(16)
		case air.BFloat:
			return t.b.TypeInt(16, false) // its bits (bfloat.go)
		case air.Float:
			return t.b.TypeFloat(32)
		case air.Double:
			return t.b.TypeFloat(64)
		}
	case *air.PointerType:
		return t.u32
	case *air.VectorType:
		if id, ok := t.simdMatrixType(ty); ok {
			return id // simdmatrix.go
		}
		if ty.Len >= 2 && ty.Len <= 4 && !ty.Scalable {
			if _, ptr := ty.Elem.(*air.PointerType); !ptr {
				return t.b.TypeVector(t.typ(ty.Elem), uint32(ty.Len))
			}
		}
	case *air.ArrayType:
		if ty.Len > 0 && ty.Len < 1<<20 {
			return t.b.TypeArray(t.typ(ty.Elem), t.b.ConstantU32(uint32(ty.Len)), 0)
		}
	case *air.StructType:
		if !ty.Opaque && len(ty.Fields) > 0 {
			fields := make([]spirv.ID, len(ty.Fields))
			for i, f := range ty.Fields {
				if isPointer(f) {
					t.miss.addf(CodeUnsupportedType, "pointer in %s", ty.Body())
				}
				fields[i] = t.typ(f)
			}
			return t.b.TypeStruct(fields...)
		}
	}
	t.miss.add(CodeUnsupportedType, ty.String())
	return t.u32
}

// value returns the SPIR-V id of a non-pointer value.
func (t *translator) value(v air.Value) spirv.ID {
	if id, ok := t.loadCrossing(v); ok {
		return id
	}
	if id, ok := t.vals[v]; ok {
		return id
	}
	if p, ok := t.ptrs[v]; ok {
		return p.off
	}
	if _, ok := t.objs[v]; ok {
		t.miss.add(CodeUnhandledInstruction, "texture object used as a value")
		return t.b.Undef(t.u32)
	}
	switch v := v.(type) {
	case air.Constant:
		if isPointer(v.Type()) {
			return t.ptr(v).off
		}
		id := t.constant(v)
		t.vals[v] = id
		return id
	case air.Instruction:
		// Used before it was emitted: only possible outside SSA dominance.
		t.miss.addf(CodeUnsupportedCFG, "use of %s before its definition", v.Opcode())
	case *air.Argument:
		_, resource := t.res[v]
		switch {
		case t.refusedArgs[v]:
			// Its binding's refusal names the gap.
		case resource && len(t.miss.list) > 0:
			// A texture or sampler used as a plain value (put into an
			// aggregate): the aggregate's refusal names the gap.
		case resource:
			t.miss.add(CodeUnhandledInstruction, "texture or sampler parameter used as a value")
		default:
			t.miss.addf(CodeUnhandledInstruction, "unbound parameter %d of %s", v.Index, v.Func.Name)
		}
	default:
		t.miss.addf(CodeUnhandledInstruction, "operand kind %T", v)
	}
	return t.b.Undef(t.typ(v.Type()))
}

// constant lowers an LLVM constant. Undefined lanes of an aggregate become
// zero, since SPIR-V composite constants take only constants.
func (t *translator) constant(c air.Constant) spirv.ID {
	ty := t.typ(c.Type())
	switch c := c.(type) {
	case *air.ConstInt:
		switch c.Typ.Bits {
		case 1:
			return t.b.ConstantBool(c.Bits&1 != 0)
		case 64:
			return t.b.Constant(ty, uint32(c.Bits), uint32(c.Bits>>32))
		default:
			if oddWidth(c.Typ.Bits) {
				return t.b.Constant(ty, uint32(c.Bits)&(1<<uint(c.Typ.Bits)-1)) // intwidth.go
			}
			return t.b.Constant(ty, uint32(c.Bits))
		}
	case *air.ConstFloat:
		switch c.Typ.Kind {
		case air.Half, air.BFloat:
			return t.b.Constant(ty, uint32(c.Bits&0xffff))
		case air.Double:
			return t.b.Constant(ty, uint32(c.Bits), uint32(c.Bits>>32))
		default:
			return t.b.Constant(ty, uint32(c.Bits))
		}
	case *air.ConstZero, *air.ConstNull:
		return t.b.ConstantNull(ty)
	case *air.ConstUndef, *air.ConstPoison:
		return t.b.Undef(ty)
	case *air.ConstAggregate:
		parts := make([]spirv.ID, len(c.Elems))
		for i, e := range c.Elems {
			switch e.(type) {
			case *air.ConstUndef, *air.ConstPoison:
				parts[i] = t.b.ConstantNull(t.typ(e.Type()))
			default:
				parts[i] = t.constant(e)
			}
		}
		return t.b.ConstantComposite(ty, parts...)
	case *air.ConstExpr:
		t.miss.add(CodeUnhandledInstruction, "constexpr "+c.Op.String())
	default:
		t.miss.add(CodeUnhandledInstruction, "constant "+c.Type().String())
	}
	return t.b.Undef(ty)
}

// intBits is the integer width of ty's scalar (0 when not an integer).
func intBits(ty air.Type) int {
	if it, ok := air.Scalar(ty).(*air.IntType); ok {
		return it.Bits
	}
	return 0
}

// lanes is ty's vector length (1 for scalars).
func lanes(ty air.Type) int {
	if v, ok := ty.(*air.VectorType); ok {
		return v.Len
	}
	return 1
}

// splat returns a constant of type ty (scalar or vector) with every lane c.
func (t *translator) splat(ty air.Type, c spirv.ID) spirv.ID {
	if v, ok := ty.(*air.VectorType); ok {
		parts := make([]spirv.ID, v.Len)
		for i := range parts {
			parts[i] = c
		}
		return t.b.ConstantComposite(t.typ(ty), parts...)
	}
	return c
}

// intConst returns the integer constant v of scalar-or-vector integer type ty.
func (t *translator) intConst(ty air.Type, v uint64) spirv.ID {
	st := air.Scalar(ty)
	id := t.typ(st)
	var c spirv.ID
	if b := intBits(st); b < 64 {
		v &= 1<<uint(b) - 1
	}
	if intBits(st) == 64 {
		c = t.b.Constant(id, uint32(v), uint32(v>>32))
	} else {
		c = t.b.Constant(id, uint32(v))
	}
	return t.splat(ty, c)
}

package translate

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Metal function constants (ABI.md, "Function constants"). A function
// constant is an addrspace(2) global listed in the module's
// !air.function_constants; the app sets its value at pipeline creation. Each
// one the entry point reads becomes an OpSpecConstant with SpecId
// fnConstSpecBase + its Metal index, always 32 bits wide in the
// specialization data, and every load of the global becomes that spec
// constant converted to the load's type. Anything else done with the global
// (a store, a load at an offset or of a type it cannot be converted to, its
// address escaping) is refused by name.

// fnConstSpecBase is the SpecId of function constant 0 (SpecIds 0..2 are the
// workgroup size).
const fnConstSpecBase = 100

// maxFnConstIndex is the largest function constant index (Metal's limit).
const maxFnConstIndex = 65535

// fnConst is one listed function constant.
type fnConst struct {
	g     *air.GlobalVariable
	index int
	name  string
	mtype string
	// bad, when not empty, is why the constant is refused (the finding's detail).
	bad string
	// spec is the spec constant's id, 0 until the first load declares it.
	spec spirv.ID
	// defined is the spec constant of its "defined" flag, 0 until an
	// air.is_function_constant_defined declares it (fnconstdefined.go).
	defined spirv.ID
}

// fnConstKind is how a Metal scalar type is held: in AIR (an LLVM type of
// bits width) and in the specialization data (class 'b' bool, 'i' signed
// int32, 'u' unsigned int32, 'f' float32).
type fnConstKind struct {
	class byte
	bits  int
	float bool
}

var fnConstKinds = map[string]fnConstKind{
	"bool":   {'b', 8, false},
	"char":   {'i', 8, false},
	"uchar":  {'u', 8, false},
	"short":  {'i', 16, false},
	"ushort": {'u', 16, false},
	"int":    {'i', 32, false},
	"uint":   {'u', 32, false},
	"half":   {'f', 16, true},
	"float":  {'f', 32, true},
}

// functionConstants reads !air.function_constants: the listed globals, and
// the detail of a finding for an entry that names no global (every entry
// point of the module is then refused: a load of that global would read
// garbage).
func functionConstants(m *air.Module) (map[*air.GlobalVariable]*fnConst, []string) {
	nm := m.NamedMetadata("air.function_constants")
	if nm == nil {
		return nil, nil
	}
	fcs := map[*air.GlobalVariable]*fnConst{}
	var malformed []string
	byIndex := map[int]*fnConst{}
	for i, md := range nm.Nodes {
		n, ok := md.(*air.MDNode)
		var g *air.GlobalVariable
		if ok && len(n.Ops) > 0 {
			if v, isV := n.Ops[0].(*air.MDValue); isV {
				g, _ = v.Value.(*air.GlobalVariable)
			}
		}
		if g == nil {
			malformed = append(malformed, fmt.Sprintf("air.function_constants entry %d names no global", i))
			continue
		}
		fc := &fnConst{g: g, name: g.Name}
		fcs[g] = fc
		mtype, okT := air.StringOp(n, 1)
		name, okN := air.StringOp(n, 2)
		index, okI := air.IntOp(n, 3)
		if !okT || !okN || !okI {
			fc.bad = "malformed function constant @" + g.Name
			continue
		}
		fc.mtype, fc.name, fc.index = mtype, name, int(index)
		fc.bad = fnConstCheck(fc, index)
		if fc.bad == "" {
			if other := byIndex[fc.index]; other != nil {
				fc.bad = fmt.Sprintf("function constant index %d listed twice", index)
				other.bad = fc.bad
			}
			byIndex[fc.index] = fc
		}
	}
	return fcs, malformed
}

// fnConstCheck returns why fc cannot be lowered, or "".
func fnConstCheck(fc *fnConst, index int64) string {
	g := fc.g
	if index < 0 || index > maxFnConstIndex {
		return fmt.Sprintf("function constant @%s index %d", g.Name, index)
	}
	k, ok := fnConstKinds[fc.mtype]
	if !ok {
		return fmt.Sprintf("function constant @%s of Metal type %s", g.Name, fc.mtype)
	}
	if g.AddrSpace != 2 {
		return fmt.Sprintf("function constant @%s in address space %d", g.Name, g.AddrSpace)
	}
	if scalarBits(g.ValueType) != k.bits || isFloat(g.ValueType) != k.float {
		return fmt.Sprintf("function constant @%s of Metal type %s held as %s", g.Name, fc.mtype, g.ValueType)
	}
	return ""
}

// fnConstAt follows pointer v through casts and GEPs back to a listed
// function constant (nil when it leads elsewhere); zero reports whether
// every GEP on the way adds a constant 0.
func (t *translator) fnConstAt(v air.Value) (*fnConst, bool) {
	if len(t.fcs) == 0 {
		return nil, false
	}
	zero := true
	for depth := 0; depth < 64; depth++ {
		switch x := v.(type) {
		case *air.GlobalVariable:
			return t.fcs[x], zero
		case *air.Cast:
			if x.Op != air.OpBitCast && x.Op != air.OpAddrSpaceCast {
				return nil, false
			}
			v = x.X
		case *air.GEP:
			zero = zero && allZero(x.Indices)
			v = x.Base
		case *air.ConstExpr:
			if len(x.Ops) == 0 {
				return nil, false
			}
			switch x.Op {
			case air.OpBitCast, air.OpAddrSpaceCast:
			case air.OpGetElementPtr:
				for _, o := range x.Ops[1:] {
					zero = zero && isZeroInt(o)
				}
			default:
				return nil, false
			}
			v = x.Ops[0]
		default:
			return nil, false
		}
	}
	return nil, false
}

func allZero(idx []air.Value) bool {
	for _, ix := range idx {
		if !isZeroInt(ix) {
			return false
		}
	}
	return true
}

func isZeroInt(v air.Value) bool {
	switch c := v.(type) {
	case *air.ConstInt:
		return c.Bits == 0
	case *air.ConstZero:
		return true
	}
	return false
}

// fnConstSpec declares fc's spec constant on first use.
func (t *translator) fnConstSpec(fc *fnConst) spirv.ID {
	if fc.spec != 0 {
		return fc.spec
	}
	var id spirv.ID
	switch fnConstKinds[fc.mtype].class {
	case 'b':
		id = t.b.SpecConstantFalse(t.b.TypeBool())
	case 'i':
		id = t.b.SpecConstant(t.b.TypeInt(32, true), 0)
	case 'u':
		id = t.b.SpecConstant(t.u32, 0)
	default:
		id = t.b.SpecConstant(t.b.TypeFloat(32), 0)
	}
	sid := uint32(fnConstSpecBase + fc.index)
	t.b.Decorate(id, spirv.DecorationSpecId, sid)
	t.b.Name(id, fc.name)
	t.refl.SpecConstants = append(t.refl.SpecConstants, SpecConstant{ID: sid, Index: fc.index, Name: fc.name, Type: fc.mtype})
	fc.spec = id
	return id
}

// loadFnConst lowers a load of type ty from function constant fc (at offset 0).
func (t *translator) loadFnConst(fc *fnConst, ty air.Type) spirv.ID {
	if fc.bad != "" {
		t.miss.add(CodeUnsupportedInterface, fc.bad)
		return t.b.Undef(t.typ(ty))
	}
	k := fnConstKinds[fc.mtype]
	refuse := func() spirv.ID {
		t.miss.addf(CodeUnsupportedInterface, "load of %s from function constant @%s", ty, fc.g.Name)
		return t.b.Undef(t.typ(ty))
	}
	bits := scalarBits(ty)
	if k.class == 'b' && bits == 1 {
		if _, ok := ty.(*air.IntType); ok {
			return t.fnConstSpec(fc)
		}
	}
	if bits != k.bits {
		return refuse()
	}
	if _, ok := ty.(*air.IntType); !ok && !isFloat(ty) {
		return refuse()
	}
	if f, ok := ty.(*air.FloatType); ok && f.Kind != air.Half && f.Kind != air.Float {
		return refuse()
	}
	spec := t.fnConstSpec(fc)
	// The value in the global's own type (g.ValueType, checked against the Metal type).
	gt := t.typ(fc.g.ValueType)
	var v spirv.ID
	switch {
	case k.class == 'b':
		v = t.f.Op(spirv.OpSelect, gt, spec, t.b.Constant(gt, 1), t.b.Constant(gt, 0))
	case k.class == 'f' && k.bits == 32:
		v = spec
	case k.class == 'f':
		v = t.f.Op(spirv.OpFConvert, gt, spec)
	case k.bits == 32 && k.class == 'u':
		v = spec // already the translator's u32
	case k.bits == 32:
		v = t.f.Op(spirv.OpBitcast, gt, spec)
	case k.class == 'i':
		v = t.f.Op(spirv.OpSConvert, gt, spec)
	default:
		v = t.f.Op(spirv.OpUConvert, gt, spec)
	}
	if isFloat(ty) != isFloat(fc.g.ValueType) {
		// Same width, the other kind: the bits reinterpreted, as memory would.
		v = t.f.Op(spirv.OpBitcast, t.typ(ty), v)
	}
	return v
}

// fnConstAccess lowers a load or store whose pointer reaches a function
// constant; it reports false when the pointer reaches none.
func (t *translator) fnConstAccess(in air.Instruction) bool {
	switch in := in.(type) {
	case *air.Load:
		fc, zero := t.fnConstAt(in.Ptr)
		if fc == nil {
			return false
		}
		if !zero {
			t.miss.add(CodeUnsupportedInterface, "load at an offset into function constant @"+fc.g.Name)
			t.vals[in] = t.b.Undef(t.typ(in.Type()))
			return true
		}
		t.vals[in] = t.loadFnConst(fc, in.Type())
		return true
	case *air.Store:
		fc, _ := t.fnConstAt(in.Ptr)
		if fc == nil {
			return false
		}
		t.miss.add(CodeUnsupportedInterface, "store to function constant @"+fc.g.Name)
		return true
	case *air.GEP, *air.Cast:
		// The address of a function constant is lowered at its loads.
		fc, _ := t.fnConstAt(in)
		return fc != nil
	}
	return false
}

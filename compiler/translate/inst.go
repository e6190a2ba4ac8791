package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// inst lowers one non-terminator, non-phi instruction.
func (t *translator) inst(in air.Instruction) {
	if t.fnConstAccess(in) || t.objectInst(in) || t.oddInst(in) { // oddInst: intwidth.go
		return
	}
	switch in := in.(type) {
	case *air.BinOp:
		t.vals[in] = t.binop(in)
		t.traceDivision(in, t.vals[in])
	case *air.UnaryOp:
		if isBFloat(in.Type()) {
			// fneg flips the sign bit, NaN included.
			sign := t.splat(in.Type(), t.b.Constant(t.b.TypeInt(16, false), 0x8000))
			t.vals[in] = t.f.Op(spirv.OpBitwiseXor, t.typ(in.Type()), t.value(in.X), sign)
			return
		}
		t.vals[in] = t.f.Op(spirv.OpFNegate, t.typ(in.Type()), t.value(in.X))
	case *air.Freeze:
		if isPointer(in.Type()) {
			t.ptrs[in] = t.ptr(in.X)
		} else {
			t.vals[in] = t.value(in.X)
		}
	case *air.Cast:
		t.cast(in)
	case *air.Cmp:
		t.vals[in] = t.cmp(in)
	case *air.Select:
		c := t.value(in.Cond)
		if isPointer(in.Type()) {
			x, y := t.ptr(in.X), t.ptr(in.Y)
			if x.root != y.root {
				t.miss.add(CodeUnhandledInstruction, "select of pointers into different memory")
			}
			off := t.f.Op(spirv.OpSelect, t.u32, c, x.off, y.off)
			t.ptrs[in] = pointer{root: x.root, dyn: off, off: off}
			return
		}
		t.vals[in] = t.f.Op(spirv.OpSelect, t.typ(in.Type()), c, t.value(in.X), t.value(in.Y))
	case *air.ExtractElement:
		if ci, ok := in.Index.(*air.ConstInt); ok {
			t.vals[in] = t.f.OpWords(spirv.OpCompositeExtract, t.typ(in.Type()), uint32(t.value(in.Vec)), uint32(ci.Bits))
			return
		}
		t.vals[in] = t.f.Op(spirv.OpVectorExtractDynamic, t.typ(in.Type()), t.value(in.Vec), t.value(in.Index))
	case *air.InsertElement:
		if ci, ok := in.Index.(*air.ConstInt); ok {
			t.vals[in] = t.f.OpWords(spirv.OpCompositeInsert, t.typ(in.Type()), uint32(t.value(in.Elem)), uint32(t.value(in.Vec)), uint32(ci.Bits))
			return
		}
		t.vals[in] = t.f.Op(spirv.OpVectorInsertDynamic, t.typ(in.Type()), t.value(in.Vec), t.value(in.Elem), t.value(in.Index))
	case *air.ShuffleVector:
		t.vals[in] = t.shuffle(in)
	case *air.ExtractValue:
		if isPointer(in.Type()) {
			t.miss.add(CodeUnhandledInstruction, "extractvalue of a pointer")
			return
		}
		ops := []uint32{uint32(t.value(in.Agg))}
		ops = append(ops, in.Indices...)
		t.vals[in] = t.f.OpWords(spirv.OpCompositeExtract, t.typ(in.Type()), ops...)
	case *air.InsertValue:
		ops := []uint32{uint32(t.value(in.Val)), uint32(t.value(in.Agg))}
		ops = append(ops, in.Indices...)
		t.vals[in] = t.f.OpWords(spirv.OpCompositeInsert, t.typ(in.Type()), ops...)
	case *air.Alloca:
		t.ptrs[in] = t.makePointer(t.rootOf(in), 0, 0)
	case *air.GEP:
		t.ptrs[in] = t.gep(t.ptr(in.Base), in.SourceElem, in.Indices)
	case *air.Load:
		if isPointer(in.Type()) {
			t.loadPointer(in)
			return
		}
		p := t.ptr(in.Ptr)
		if n, err := air.AllocSize(in.Type()); err == nil && n > maxAccessBytes {
			t.miss.addf(CodeUnhandledInstruction, "load of more than %d bytes", maxAccessBytes)
			t.vals[in] = t.b.Undef(t.typ(in.Type()))
			return
		}
		if p.root == nil {
			t.vals[in] = t.b.Undef(t.typ(in.Type()))
			return
		}
		t.vals[in] = t.load(p, 0, in.Type(), in.Align)
	case *air.Store:
		if isPointer(in.Val.Type()) {
			t.storePointer(in)
			return
		}
		if n, err := air.AllocSize(in.Val.Type()); err == nil && n > maxAccessBytes {
			t.miss.addf(CodeUnhandledInstruction, "store of more than %d bytes", maxAccessBytes)
			return
		}
		t.store(t.ptr(in.Ptr), 0, in.Val.Type(), t.value(in.Val), in.Align)
	case *air.Call:
		t.call(in)
	default:
		t.miss.add(CodeUnhandledInstruction, in.Opcode().String())
		if air.HasResult(in) && !isPointer(in.Type()) {
			t.vals[in] = t.b.Undef(t.typ(in.Type()))
		}
	}
}

var intBinOps = map[air.Opcode]spirv.Op{
	air.OpAdd: spirv.OpIAdd, air.OpSub: spirv.OpISub, air.OpMul: spirv.OpIMul,
	air.OpUDiv: spirv.OpUDiv, air.OpSDiv: spirv.OpSDiv, air.OpURem: spirv.OpUMod, air.OpSRem: spirv.OpSRem,
	air.OpShl: spirv.OpShiftLeftLogical, air.OpLShr: spirv.OpShiftRightLogical, air.OpAShr: spirv.OpShiftRightArithmetic,
	air.OpAnd: spirv.OpBitwiseAnd, air.OpOr: spirv.OpBitwiseOr, air.OpXor: spirv.OpBitwiseXor,
}

var boolBinOps = map[air.Opcode]spirv.Op{
	air.OpAnd: spirv.OpLogicalAnd, air.OpOr: spirv.OpLogicalOr, air.OpXor: spirv.OpLogicalNotEqual,
	air.OpAdd: spirv.OpLogicalNotEqual, air.OpSub: spirv.OpLogicalNotEqual, air.OpMul: spirv.OpLogicalAnd,
}

var floatBinOps = map[air.Opcode]spirv.Op{
	air.OpFAdd: spirv.OpFAdd, air.OpFSub: spirv.OpFSub, air.OpFMul: spirv.OpFMul,
	air.OpFDiv: spirv.OpFDiv, air.OpFRem: spirv.OpFRem,
}

func (t *translator) binop(in *air.BinOp) spirv.ID {
	if op, ok := floatBinOps[in.Op]; ok && isBFloat(in.Type()) {
		return t.bfBinop(op, in)
	}
	ty := t.typ(in.Type())
	x, y := t.value(in.X), t.value(in.Y)
	if op, ok := floatBinOps[in.Op]; ok {
		return t.f.Op(op, ty, x, y)
	}
	if intBits(in.Type()) == 1 {
		if op, ok := boolBinOps[in.Op]; ok {
			return t.f.Op(op, ty, x, y)
		}
	} else if op, ok := intBinOps[in.Op]; ok {
		return t.f.Op(op, ty, x, y)
	}
	t.miss.addf(CodeUnhandledInstruction, "%s %s", in.Op, in.Type())
	return t.b.Undef(ty)
}

func (t *translator) cast(in *air.Cast) {
	src, dst := in.X.Type(), in.Type()
	if isPointer(dst) || isPointer(src) {
		switch {
		case in.Op == air.OpBitCast || in.Op == air.OpAddrSpaceCast:
			t.ptrs[in] = t.ptr(in.X)
		case in.Op == air.OpPtrToInt && t.onlyLowBitsUsed(in):
			// An alignment test: the address's low bits are the offset's,
			// since every root starts at a multiple of 256 bytes (ABI.md).
			p := t.ptr(in.X)
			t.vals[in] = t.f.Op(spirv.OpUConvert, t.typ(dst), p.off)
			if intBits(dst) == 32 {
				t.vals[in] = p.off
			}
		default:
			t.miss.add(CodeUnhandledInstruction, in.Op.String())
			if !isPointer(dst) {
				t.vals[in] = t.b.Undef(t.typ(dst))
			}
		}
		return
	}
	if t.bfCast(in) {
		return
	}
	ty := t.typ(dst)
	x := t.value(in.X)
	sb, db := intBits(src), intBits(dst)
	var id spirv.ID
	switch in.Op {
	case air.OpTrunc:
		if db == 1 {
			one := t.f.Op(spirv.OpBitwiseAnd, t.typ(src), x, t.intConst(src, 1))
			id = t.f.Op(spirv.OpINotEqual, ty, one, t.intConst(src, 0))
		} else {
			id = t.f.Op(spirv.OpUConvert, ty, x)
		}
	case air.OpZExt, air.OpSExt:
		if sb == 1 {
			v := uint64(1)
			if in.Op == air.OpSExt {
				v = ^uint64(0)
			}
			id = t.f.Op(spirv.OpSelect, ty, x, t.intConst(dst, v), t.intConst(dst, 0))
		} else if in.Op == air.OpZExt {
			id = t.f.Op(spirv.OpUConvert, ty, x)
		} else {
			id = t.f.Op(spirv.OpSConvert, ty, x)
		}
	case air.OpFPToUI, air.OpFPToSI:
		op := spirv.OpConvertFToU
		if in.Op == air.OpFPToSI {
			op = spirv.OpConvertFToS
		}
		if db == 1 {
			// fptoui to i1: nonzero after truncation toward zero.
			z := t.zeroOf(src)
			tr := t.f.ExtInst(t.typ(src), spirv.GLSLTrunc, x)
			id = t.f.Op(spirv.OpFUnordNotEqual, ty, tr, z)
		} else {
			id = t.f.Op(op, ty, x)
		}
	case air.OpUIToFP, air.OpSIToFP:
		if sb == 1 {
			one := t.floatConst(dst, 1)
			if in.Op == air.OpSIToFP {
				one = t.floatConst(dst, -1)
			}
			id = t.f.Op(spirv.OpSelect, ty, x, one, t.zeroOf(dst))
		} else if in.Op == air.OpUIToFP {
			id = t.f.Op(spirv.OpConvertUToF, ty, x)
		} else {
			id = t.f.Op(spirv.OpConvertSToF, ty, x)
		}
	case air.OpFPTrunc, air.OpFPExt:
		id = t.f.Op(spirv.OpFConvert, ty, x)
	case air.OpBitCast:
		if intBits(air.Scalar(src)) == 1 || intBits(air.Scalar(dst)) == 1 {
			t.miss.addf(CodeUnhandledInstruction, "bitcast %s to %s", src, dst)
			id = t.b.Undef(ty)
		} else {
			id = t.f.Op(spirv.OpBitcast, ty, x)
		}
	default:
		t.miss.add(CodeUnhandledInstruction, in.Op.String())
		id = t.b.Undef(ty)
	}
	t.vals[in] = id
}

// zeroOf is the null constant of ty.
func (t *translator) zeroOf(ty air.Type) spirv.ID { return t.b.ConstantNull(t.typ(ty)) }

// floatConst is the float constant v splatted over ty (half, float or double lanes).
func (t *translator) floatConst(ty air.Type, v float64) spirv.ID {
	st := air.Scalar(ty)
	var c spirv.ID
	switch st.(*air.FloatType).Kind {
	case air.Half:
		c = t.b.Constant(t.typ(st), uint32(float32ToHalf(float32(v))))
	case air.Double:
		b := float64bits(v)
		c = t.b.Constant(t.typ(st), uint32(b), uint32(b>>32))
	default:
		c = t.b.Constant(t.typ(st), float32bits(float32(v)))
	}
	return t.splat(ty, c)
}

var icmpOps = map[air.Predicate]spirv.Op{
	32: spirv.OpIEqual, 33: spirv.OpINotEqual, 34: spirv.OpUGreaterThan, 35: spirv.OpUGreaterThanEqual,
	36: spirv.OpULessThan, 37: spirv.OpULessThanEqual, 38: spirv.OpSGreaterThan, 39: spirv.OpSGreaterThanEqual,
	40: spirv.OpSLessThan, 41: spirv.OpSLessThanEqual,
}

var fcmpOps = map[air.Predicate]spirv.Op{
	1: spirv.OpFOrdEqual, 2: spirv.OpFOrdGreaterThan, 3: spirv.OpFOrdGreaterThanEqual, 4: spirv.OpFOrdLessThan,
	5: spirv.OpFOrdLessThanEqual, 6: spirv.OpFOrdNotEqual,
	9: spirv.OpFUnordEqual, 10: spirv.OpFUnordGreaterThan, 11: spirv.OpFUnordGreaterThanEqual,
	12: spirv.OpFUnordLessThan, 13: spirv.OpFUnordLessThanEqual, 14: spirv.OpFUnordNotEqual,
}

func (t *translator) cmp(in *air.Cmp) spirv.ID {
	ty := t.typ(in.Type())
	if isPointer(in.X.Type()) {
		x, y := t.ptr(in.X), t.ptr(in.Y)
		if x.root != y.root {
			t.miss.add(CodeUnhandledInstruction, "icmp of pointers into different memory")
			return t.b.Undef(ty)
		}
		return t.f.Op(icmpOps[in.Pred], ty, x.off, y.off)
	}
	x, y := t.value(in.X), t.value(in.Y)
	if isBFloat(in.X.Type()) {
		// Widening is exact, so the float comparison is the bfloat one.
		x, y = t.bfToFloat(x, in.X.Type()), t.bfToFloat(y, in.X.Type())
	}
	if !in.Pred.IsFloat() {
		if intBits(in.X.Type()) == 1 {
			switch in.Pred {
			case 32:
				return t.f.Op(spirv.OpLogicalEqual, ty, x, y)
			case 33:
				return t.f.Op(spirv.OpLogicalNotEqual, ty, x, y)
			}
			t.miss.addf(CodeUnhandledInstruction, "icmp %s i1", in.Pred)
			return t.b.Undef(ty)
		}
		if op, ok := icmpOps[in.Pred]; ok {
			return t.f.Op(op, ty, x, y)
		}
	} else {
		if op, ok := fcmpOps[in.Pred]; ok {
			return t.f.Op(op, ty, x, y)
		}
		switch in.Pred {
		case 0, 15: // false, true
			c := t.b.ConstantBool(in.Pred == 15)
			if n := lanes(in.Type()); n > 1 {
				parts := make([]spirv.ID, n)
				for i := range parts {
					parts[i] = c
				}
				return t.b.ConstantComposite(ty, parts...)
			}
			return c
		case 7, 8: // ord, uno
			nan := t.f.Op(spirv.OpLogicalOr, ty, t.f.Op(spirv.OpIsNan, ty, x), t.f.Op(spirv.OpIsNan, ty, y))
			if in.Pred == 7 {
				return t.f.Op(spirv.OpLogicalNot, ty, nan)
			}
			return nan
		}
	}
	t.miss.addf(CodeUnhandledInstruction, "cmp %s", in.Pred)
	return t.b.Undef(ty)
}

func (t *translator) shuffle(in *air.ShuffleVector) spirv.ID {
	ty := t.typ(in.Type())
	n := lanes(in.X.Type())
	if lanes(in.Type()) == 1 {
		// <1 x T> results are not SPIR-V vectors; the type check above reported it.
		return t.b.Undef(ty)
	}
	ops := []uint32{uint32(t.value(in.X)), uint32(t.value(in.Y))}
	if _, ok := in.X.Type().(*air.VectorType); !ok || n < 2 {
		t.miss.addf(CodeUnhandledInstruction, "shufflevector of %s", in.X.Type())
		return t.b.Undef(ty)
	}
	for _, m := range in.Mask {
		if m < 0 {
			ops = append(ops, 0xffffffff)
		} else {
			ops = append(ops, uint32(m))
		}
	}
	return t.f.OpWords(spirv.OpVectorShuffle, ty, ops...)
}

// rootAlign is the alignment every root's first byte has: buffers are bound
// at offsets that are multiples of it (ABI.md), variables start at zero.
const rootAlign = 256

// onlyLowBitsUsed reports whether every use of a ptrtoint masks the address
// to bits below rootAlign (an alignment test), so that the offset within
// the root gives the same answer as the absolute address.
func (t *translator) onlyLowBitsUsed(in *air.Cast) bool {
	uses := 0
	for _, bl := range t.fn.Blocks {
		for _, u := range bl.Insts {
			if !usesValue(u, in) {
				continue
			}
			uses++
			b, ok := u.(*air.BinOp)
			if !ok || b.Op != air.OpAnd {
				return false
			}
			other := b.Y
			if b.Y == air.Value(in) {
				other = b.X
			}
			c, ok := other.(*air.ConstInt)
			if !ok || c.Bits >= rootAlign {
				return false
			}
		}
	}
	return uses > 0
}

// usesValue reports whether instruction u has v as an operand (for the
// instruction kinds that can take an integer operand).
func usesValue(u air.Instruction, v air.Value) bool {
	switch u := u.(type) {
	case *air.BinOp:
		return u.X == v || u.Y == v
	case *air.Cast:
		return u.X == v
	case *air.Cmp:
		return u.X == v || u.Y == v
	case *air.Select:
		return u.Cond == v || u.X == v || u.Y == v
	case *air.Phi:
		for _, in := range u.Incoming {
			if in.Value == v {
				return true
			}
		}
	case *air.Store:
		return u.Val == v
	case *air.Call:
		for _, a := range u.Args {
			if a == v {
				return true
			}
		}
	case *air.InsertElement:
		return u.Elem == v || u.Index == v
	case *air.InsertValue:
		return u.Val == v
	case *air.Ret:
		return u.X == v
	case *air.Br:
		return u.Cond == v
	case *air.Switch:
		return u.Cond == v
	case *air.GEP:
		for _, x := range u.Indices {
			if x == v {
				return true
			}
		}
	case *air.ExtractElement:
		return u.Index == v
	}
	return false
}

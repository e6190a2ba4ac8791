package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Integers of a width no SPIR-V type has (ABI.md, "Apple's forms"): LLVM's
// optimiser narrows values it knows to fit into i2, i3, i6 and the like.
// Such an iN (1 < N < 32, N not 8 or 16) is held in a 32-bit word in its
// canonical form, zero-extended: bits N..31 are clear. Every operation
// keeps that form:
//
//   - add, sub, mul, shl, and, or, xor, udiv, urem, lshr: the 32-bit
//     operation, then the result masked to N bits (LLVM's wrap modulo 2^N;
//     a shift by N or more is poison in LLVM, so what it gives is free);
//   - ashr, sdiv, srem: the operands sign-extended from bit N−1 first;
//   - signed comparisons: both operands sign-extended; the others compare
//     the canonical words as they are;
//   - trunc to iN masks; zext from iN is the word (converted for i8, i16,
//     i64); sext from iN sign-extends from bit N−1; sitofp sign-extends
//     first, fptosi and fptoui mask the converted word;
//   - constants are masked (values.go), switch selectors are the word.
//
// A getelementptr index of such a type is sign-extended from bit N−1. A
// load or store of such a type (its memory layout is the datalayout's
// business, no Metal type has it), an air.* or llvm.* operation taking or
// returning one (oddCall), a bitcast and any other operation on it are
// refused by name.

// oddWidth reports whether an integer of bits bits is held in a 32-bit word.
func oddWidth(bits int) bool {
	return bits > 1 && bits < 32 && bits != 8 && bits != 16
}

// oddType reports whether ty is, or is a vector of, an odd-width integer.
func oddType(ty air.Type) bool { return oddWidth(intBits(ty)) && !isPointer(ty) }

// oddMask is the 32-bit mask of an N-bit value, splatted over ty's lanes.
func (t *translator) oddMask(ty air.Type, bits int) spirv.ID {
	return t.splat(ty, t.b.ConstantU32(uint32(1)<<uint(bits)-1))
}

// oddWord is the u32 type (or vector of u32) holding ty's lanes.
func (t *translator) oddWord(ty air.Type) spirv.ID {
	if n := lanes(ty); n > 1 {
		return t.b.TypeVector(t.u32, uint32(n))
	}
	return t.u32
}

// oddSplatShift is the constant shift count s over ty's lanes.
func (t *translator) oddShift(ty air.Type, s int) spirv.ID {
	return t.splat(ty, t.b.ConstantU32(uint32(s)))
}

// signExtend32 sign-extends the N-bit canonical word x (of type ty) to 32 bits.
func (t *translator) signExtend32(x spirv.ID, ty air.Type, bits int) spirv.ID {
	w := t.oddWord(ty)
	s := t.oddShift(ty, 32-bits)
	return t.f.Op(spirv.OpShiftRightArithmetic, w, t.f.Op(spirv.OpShiftLeftLogical, w, x, s), s)
}

// mask32 keeps the low bits bits of the word x (of type ty).
func (t *translator) mask32(x spirv.ID, ty air.Type, bits int) spirv.ID {
	return t.f.Op(spirv.OpBitwiseAnd, t.oddWord(ty), x, t.oddMask(ty, bits))
}

// oddInst lowers in when it operates on an odd-width integer; it reports
// false (and does nothing) otherwise.
func (t *translator) oddInst(in air.Instruction) bool {
	switch in := in.(type) {
	case *air.BinOp:
		if !oddType(in.Type()) {
			return false
		}
		t.vals[in] = t.oddBinop(in)
		return true
	case *air.Cmp:
		if in.Pred.IsFloat() || !oddType(in.X.Type()) {
			return false
		}
		x, y := t.value(in.X), t.value(in.Y)
		if in.Pred >= 38 && in.Pred <= 41 {
			bits := intBits(in.X.Type())
			x, y = t.signExtend32(x, in.X.Type(), bits), t.signExtend32(y, in.X.Type(), bits)
		}
		op, ok := icmpOps[in.Pred]
		if !ok {
			t.miss.addf(CodeUnhandledInstruction, "cmp %s %s", in.Pred, in.X.Type())
			t.vals[in] = t.b.Undef(t.typ(in.Type()))
			return true
		}
		t.vals[in] = t.f.Op(op, t.typ(in.Type()), x, y)
		return true
	case *air.Cast:
		if isPointer(in.Type()) || isPointer(in.X.Type()) || !oddType(in.Type()) && !oddType(in.X.Type()) {
			return false
		}
		t.vals[in] = t.oddCast(in)
		return true
	case *air.Load:
		if !oddType(in.Type()) {
			return false
		}
		t.miss.addf(CodeUnsupportedType, "load of %s", in.Type())
		t.vals[in] = t.b.Undef(t.typ(in.Type()))
		return true
	case *air.Store:
		if !oddType(in.Val.Type()) {
			return false
		}
		t.miss.addf(CodeUnsupportedType, "store of %s", in.Val.Type())
		return true
	}
	return false
}

// oddBinop lowers an integer operation of odd width (see above).
func (t *translator) oddBinop(in *air.BinOp) spirv.ID {
	ty := in.Type()
	bits := intBits(ty)
	w := t.oddWord(ty)
	op, ok := intBinOps[in.Op]
	if !ok {
		t.miss.addf(CodeUnhandledInstruction, "%s %s", in.Op, ty)
		return t.b.Undef(w)
	}
	x, y := t.value(in.X), t.value(in.Y)
	switch in.Op {
	case air.OpAShr:
		x = t.signExtend32(x, ty, bits)
	case air.OpSDiv, air.OpSRem:
		x, y = t.signExtend32(x, ty, bits), t.signExtend32(y, ty, bits)
	}
	r := t.f.Op(op, w, x, y)
	switch in.Op {
	case air.OpAnd, air.OpOr, air.OpXor, air.OpUDiv, air.OpURem, air.OpLShr:
		return r // canonical operands give a canonical result
	}
	return t.mask32(r, ty, bits)
}

// oddCast lowers a cast to or from an odd-width integer (see above).
func (t *translator) oddCast(in *air.Cast) spirv.ID {
	src, dst := in.X.Type(), in.Type()
	sb, db := intBits(src), intBits(dst)
	x := t.value(in.X)
	ty := t.typ(dst)
	// word is x as a 32-bit word (lanes of u32), its bits as they are
	// (conv: UConvert for a zero extension or truncation, SConvert to
	// sign-extend an 8- or 16-bit source).
	word := func(conv spirv.Op) spirv.ID {
		if oddWidth(sb) || sb == 32 {
			return x
		}
		return t.f.Op(conv, t.oddWord(src), x)
	}
	// fit converts the 32-bit word v to dst: masked to an odd width,
	// converted to 8, 16 or 64 bits (sext: SConvert to 64).
	fit := func(v spirv.ID, signed bool) spirv.ID {
		switch {
		case oddWidth(db):
			return t.mask32(v, dst, db)
		case db == 32:
			return v
		case db == 64 && signed:
			return t.f.Op(spirv.OpSConvert, ty, v)
		default:
			return t.f.Op(spirv.OpUConvert, ty, v)
		}
	}
	switch in.Op {
	case air.OpTrunc:
		if db == 1 {
			one := t.f.Op(spirv.OpBitwiseAnd, t.oddWord(src), x, t.splat(src, t.b.ConstantU32(1)))
			return t.f.Op(spirv.OpINotEqual, ty, one, t.splat(src, t.b.ConstantU32(0)))
		}
		return fit(word(spirv.OpUConvert), false)
	case air.OpZExt:
		if sb == 1 {
			return t.f.Op(spirv.OpSelect, ty, x, t.intConst(dst, 1), t.intConst(dst, 0))
		}
		return fit(word(spirv.OpUConvert), false)
	case air.OpSExt:
		if sb == 1 {
			return t.f.Op(spirv.OpSelect, ty, x, t.intConst(dst, ^uint64(0)), t.intConst(dst, 0))
		}
		v := word(spirv.OpSConvert)
		if oddWidth(sb) {
			v = t.signExtend32(v, src, sb)
		}
		return fit(v, true)
	case air.OpUIToFP:
		return t.f.Op(spirv.OpConvertUToF, ty, x)
	case air.OpSIToFP:
		return t.f.Op(spirv.OpConvertSToF, ty, t.signExtend32(x, src, sb))
	case air.OpFPToUI:
		return t.mask32(t.f.Op(spirv.OpConvertFToU, ty, x), dst, db)
	case air.OpFPToSI:
		return t.mask32(t.f.Op(spirv.OpConvertFToS, ty, x), dst, db)
	}
	t.miss.addf(CodeUnhandledInstruction, "%s %s to %s", in.Op, src, dst)
	return t.b.Undef(ty)
}

// oddCall reports whether a call to a declared function (an air.* or
// llvm.* operation) takes or returns an odd-width integer: none of their
// lowerings knows the 32-bit form (llvm.ctlz.i3 would count 32 bits, and
// llvm.smax.i3 compare unextended words), so the operation is refused by
// its name.
func oddCall(c *air.Call) bool {
	if oddType(c.Type()) {
		return true
	}
	for _, a := range c.Args {
		if oddType(a.Type()) {
			return true
		}
	}
	return false
}

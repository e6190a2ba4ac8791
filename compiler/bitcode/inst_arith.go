package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Arithmetic, cast and compare records (compiler/air's binary.go, cast.go
// and compare.go).

var binOps = [...][2]air.Opcode{ // [integer, floating point]
	{air.OpAdd, air.OpFAdd}, {air.OpSub, air.OpFSub}, {air.OpMul, air.OpFMul}, {air.OpUDiv, 0},
	{air.OpSDiv, air.OpFDiv}, {air.OpURem, 0}, {air.OpSRem, air.OpFRem}, {air.OpShl, 0},
	{air.OpLShr, 0}, {air.OpAShr, 0}, {air.OpAnd, 0}, {air.OpOr, 0}, {air.OpXor, 0},
}

// readBinOp reads BINOP [opval, opval, opcode, flags?].
func (r *reader) readBinOp(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	a, y, err := r.opPairOfOneType(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	if i >= len(ops) || ops[i] >= uint64(len(binOps)) {
		return nil, x.bad("binary opcode")
	}
	fp := isFP(a.Type())
	op := binOps[ops[i]][0]
	if fp {
		op = binOps[ops[i]][1]
	}
	if op == 0 {
		return nil, x.bad("binary opcode %d on floating point", ops[i])
	}
	i++
	b := &air.BinOp{Op: op, X: a, Y: y}
	b.Typ = a.Type()
	if i < len(ops) {
		fl := ops[i]
		switch {
		case fp:
			b.FastMath = fastMath(fl)
		case op == air.OpAdd || op == air.OpSub || op == air.OpMul || op == air.OpShl:
			b.Flags = air.WrapFlags(fl & 3)
		case op == air.OpUDiv || op == air.OpSDiv || op == air.OpLShr || op == air.OpAShr:
			if fl&1 != 0 {
				b.Flags = air.Exact
			}
		case op == air.OpOr:
			if fl&1 != 0 {
				b.Flags = air.Disjoint
			}
		}
	}
	return b, nil
}

// readUnOp reads UNOP [opval, opcode, flags?].
func (r *reader) readUnOp(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	a, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	if i >= len(ops) || ops[i] != 0 {
		return nil, x.bad("unary opcode")
	}
	i++
	u := &air.UnaryOp{Op: air.OpFNeg, X: a}
	u.Typ = a.Type()
	if i < len(ops) {
		u.FastMath = fastMath(ops[i])
	}
	return u, nil
}

// readFreeze reads FREEZE [opval].
func (r *reader) readFreeze(x *instRec) (air.Instruction, *Error) {
	i := 0
	a, err := r.opPair(x.fs, x.ops, &i)
	if err != nil {
		return nil, err
	}
	fz := &air.Freeze{X: a}
	fz.Typ = a.Type()
	return fz, nil
}

// readCast reads CAST [opval, destty, castopc, flags?].
func (r *reader) readCast(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	a, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	if i+2 > len(ops) {
		return nil, x.bad("missing type or opcode")
	}
	to, err := r.typeAt(ops[i], x.what)
	if err != nil {
		return nil, err
	}
	if ops[i+1] >= uint64(len(castOps)) {
		return nil, x.bad("cast opcode %d", ops[i+1])
	}
	cs := &air.Cast{Op: castOps[ops[i+1]], X: a}
	cs.Typ = to
	i += 2
	if i < len(ops) {
		switch cs.Op {
		case air.OpZExt, air.OpUIToFP:
			if ops[i]&1 != 0 {
				cs.Flags = air.NonNeg
			}
		case air.OpTrunc:
			cs.Flags = air.WrapFlags(ops[i] & 3)
		case air.OpFPTrunc, air.OpFPExt:
			cs.FastMath = fastMath(ops[i])
		}
	}
	return cs, nil
}

// readCmp reads CMP and CMP2 [lhs, rhs, pred, fmf?].
func (r *reader) readCmp(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	a, y, err := r.opPairOfOneType(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	if i >= len(ops) {
		return nil, x.bad("no predicate")
	}
	p := air.Predicate(ops[i])
	if p.String() == "pred?" || p.IsFloat() != isFP(a.Type()) {
		return nil, x.bad("predicate %d for %s", ops[i], a.Type())
	}
	i++
	cm := &air.Cmp{Pred: p, X: a, Y: y}
	if i < len(ops) {
		cm.FastMath = fastMath(ops[i])
	}
	cm.Typ = r.boolLike(a.Type())
	return cm, nil
}

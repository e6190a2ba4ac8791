package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// cstRec is one constant record, kept until the block ends so that
// aggregates may refer to constants defined after them.
type cstRec struct {
	typ  air.Type
	code uint64
	ops  []uint64
	pos  uint64
}

type constTable struct {
	base  int
	recs  []cstRec
	state []uint8 // 0 new, 1 resolving, 2 done
}

func (r *reader) readConstants() *Error {
	c := r.c
	var cur air.Type = &air.IntType{Bits: 32}
	t := &constTable{base: len(r.values)}
	if err := r.eachRecord(func(code uint64) *Error {
		if code == 1 { // SETTYPE
			if len(c.ops) < 1 {
				return malformed(c.r.pos, "CONSTANTS_BLOCK/SETTYPE", "no type")
			}
			ty, err := r.typeAt(c.ops[0], "CONSTANTS_BLOCK/SETTYPE")
			if err != nil {
				return err
			}
			if _, void := ty.(*air.VoidType); void {
				return malformed(c.r.pos, "CONSTANTS_BLOCK/SETTYPE", "void")
			}
			cur = ty
			return nil
		}
		if _, ok := recordNames[constantsID][code]; !ok {
			return unknownRecord(c.r.pos, constantsID, code)
		}
		if r.breakHook != nil {
			r.breakHook(constantsID, code, c.ops)
		}
		t.recs = append(t.recs, cstRec{typ: cur, code: code, ops: append([]uint64(nil), c.ops...), pos: c.r.pos})
		r.values = append(r.values, nil)
		return nil
	}); err != nil {
		return err
	}
	r.cst = t
	t.state = make([]uint8, len(t.recs))
	for i := range t.recs {
		if _, err := r.resolveConst(t, i); err != nil {
			return err
		}
	}
	r.cst = nil
	return nil
}

// constOperand returns the constant with value id, resolving constants of
// the block being read on demand.
func (r *reader) constOperand(id uint64, what string) (air.Constant, *Error) {
	if t := r.cst; t != nil && id >= uint64(t.base) && id < uint64(t.base+len(t.recs)) {
		return r.resolveConst(t, int(id)-t.base)
	}
	return r.constant(id, what)
}

// constant returns value id, which must be a constant.
func (r *reader) constant(id uint64, what string) (air.Constant, *Error) {
	if id >= uint64(len(r.values)) {
		return nil, malformed(r.c.r.pos, what, "value id %d out of range", id)
	}
	c, ok := r.values[id].(air.Constant)
	if !ok {
		return nil, malformed(r.c.r.pos, what, "value %d is not a constant", id)
	}
	return c, nil
}

func (r *reader) resolveConst(t *constTable, i int) (air.Constant, *Error) {
	switch t.state[i] {
	case 2:
		return r.values[t.base+i].(air.Constant), nil
	case 1:
		return nil, malformed(t.recs[i].pos, "CONSTANTS_BLOCK", "constant %d refers to itself", t.base+i)
	}
	t.state[i] = 1
	c, err := r.makeConst(t.recs[i])
	if err != nil {
		return nil, err
	}
	r.values[t.base+i] = c
	t.state[i] = 2
	return c, nil
}

func nullOf(ty air.Type) air.Constant {
	switch t := ty.(type) {
	case *air.IntType:
		return &air.ConstInt{Typ: t}
	case *air.FloatType:
		return &air.ConstFloat{Typ: t}
	case *air.PointerType, *air.TokenType:
		return &air.ConstNull{Typ: ty}
	}
	return &air.ConstZero{Typ: ty}
}

// IsNull reports whether c is its type's null value (as LLVM's isNullValue).
func isNull(c air.Constant) bool {
	switch c := c.(type) {
	case *air.ConstInt:
		if c.Wide != nil {
			for _, w := range c.Wide {
				if w != 0 {
					return false
				}
			}
			return true
		}
		return c.Bits == 0
	case *air.ConstFloat:
		return c.Bits == 0 && c.Hi == 0
	case *air.ConstNull, *air.ConstZero:
		return true
	}
	return false
}

// aggregate builds an aggregate constant the way LLVM canonicalises it:
// all null elements make zeroinitializer, all poison poison, all undef undef.
func aggregate(ty air.Type, elems []air.Constant) air.Constant {
	zero, undef, poison := true, len(elems) > 0, len(elems) > 0
	for _, e := range elems {
		if !isNull(e) {
			zero = false
		}
		_, isP := e.(*air.ConstPoison)
		_, isU := e.(*air.ConstUndef)
		if !isP {
			poison = false
		}
		if !isU {
			undef = false
		}
	}
	switch {
	case zero:
		return &air.ConstZero{Typ: ty}
	case poison:
		return &air.ConstPoison{Typ: ty}
	case undef:
		return &air.ConstUndef{Typ: ty}
	}
	return &air.ConstAggregate{Typ: ty, Elems: elems}
}

func decodeSigned(v uint64) uint64 {
	if v&1 == 0 {
		return v >> 1
	}
	if v == 1 {
		return 1 << 63
	}
	return -(v >> 1)
}

func truncBits(v uint64, bits int) uint64 {
	if bits >= 64 {
		return v
	}
	return v & (1<<uint(bits) - 1)
}

var castOps = [...]air.Opcode{air.OpTrunc, air.OpZExt, air.OpSExt, air.OpFPToUI, air.OpFPToSI, air.OpUIToFP,
	air.OpSIToFP, air.OpFPTrunc, air.OpFPExt, air.OpPtrToInt, air.OpIntToPtr, air.OpBitCast, air.OpAddrSpaceCast}

func (r *reader) makeConst(rec cstRec) (air.Constant, *Error) {
	ops := rec.ops
	what := recordName(constantsID, rec.code)
	bad := func(f string, a ...any) *Error { return malformed(rec.pos, what, f, a...) }
	switch rec.code {
	case 2:
		return nullOf(rec.typ), nil
	case 3:
		return &air.ConstUndef{Typ: rec.typ}, nil
	case 26:
		return &air.ConstPoison{Typ: rec.typ}, nil
	case 4: // INTEGER [signed value]
		it, ok := rec.typ.(*air.IntType)
		if !ok || len(ops) < 1 {
			return nil, bad("integer constant of type %s", rec.typ)
		}
		if it.Bits > 64 {
			return nil, unsupported(rec.pos, what, "INTEGER record for i%d", it.Bits)
		}
		return &air.ConstInt{Typ: it, Bits: truncBits(decodeSigned(ops[0]), it.Bits)}, nil
	case 5: // WIDE_INTEGER [n x signed words]
		it, ok := rec.typ.(*air.IntType)
		if !ok || len(ops) < 1 {
			return nil, bad("wide integer constant of type %s", rec.typ)
		}
		if it.Bits > 1024 || len(ops) > (it.Bits+63)/64 {
			return nil, unsupported(rec.pos, what, "%d-word constant of type i%d", len(ops), it.Bits)
		}
		w := make([]uint64, len(ops))
		for i, v := range ops {
			w[i] = decodeSigned(v)
		}
		return &air.ConstInt{Typ: it, Bits: w[0], Wide: w}, nil
	case 6: // FLOAT
		ft, ok := rec.typ.(*air.FloatType)
		if !ok || len(ops) < 1 {
			return nil, bad("float constant of type %s", rec.typ)
		}
		switch ft.Kind {
		case air.Half, air.BFloat, air.Float, air.Double:
			return &air.ConstFloat{Typ: ft, Bits: ops[0]}, nil
		}
		return nil, unsupported(rec.pos, what, "%s constant", ft)
	case 7: // AGGREGATE [ids]
		n := 0
		switch t := rec.typ.(type) {
		case *air.StructType:
			n = len(t.Fields)
		case *air.ArrayType:
			n = int(t.Len)
		case *air.VectorType:
			n = t.Len
		default:
			return nil, bad("aggregate of type %s", rec.typ)
		}
		if len(ops) != n {
			return nil, bad("%d elements for %s", len(ops), rec.typ)
		}
		elems := make([]air.Constant, n)
		for i, id := range ops {
			e, err := r.constOperand(id, what)
			if err != nil {
				return nil, err
			}
			elems[i] = e
		}
		return aggregate(rec.typ, elems), nil
	case 8, 9, 22: // STRING, CSTRING, DATA
		var elem air.Type
		var n uint64
		switch t := rec.typ.(type) {
		case *air.ArrayType:
			elem, n = t.Elem, t.Len
		case *air.VectorType:
			elem, n = t.Elem, uint64(t.Len)
		default:
			return nil, bad("data of type %s", rec.typ)
		}
		if rec.code == 9 {
			ops = append(ops, 0)
		}
		if uint64(len(ops)) != n {
			return nil, bad("%d elements for %s", len(ops), rec.typ)
		}
		elems := make([]air.Constant, n)
		for i, v := range ops {
			switch et := elem.(type) {
			case *air.IntType:
				elems[i] = &air.ConstInt{Typ: et, Bits: truncBits(v, et.Bits)}
			case *air.FloatType:
				elems[i] = &air.ConstFloat{Typ: et, Bits: v}
			default:
				return nil, bad("data element type %s", elem)
			}
		}
		return aggregate(rec.typ, elems), nil
	case 11: // CE_CAST [opcode, opty, opval]
		if len(ops) < 3 {
			return nil, bad("%d operands", len(ops))
		}
		if ops[0] >= uint64(len(castOps)) {
			return nil, bad("cast opcode %d", ops[0])
		}
		op := castOps[ops[0]]
		x, err := r.constOperand(ops[2], what)
		if err != nil {
			return nil, err
		}
		return foldCast(rec, op, x)
	case 32, 20, 12: // CE_GEP [srcty, flags, (ty, val)...]; CE_INBOUNDS_GEP / CE_GEP_OLD [srcty?, (ty, val)...]
		return r.constGEP(rec)
	}
	return nil, unknownRecord(rec.pos, constantsID, rec.code)
}

// foldCast builds a constant cast the way LLVM 19 does: casts it can fold
// are folded, the ones it keeps as expressions are kept, the rest refused.
func foldCast(rec cstRec, op air.Opcode, x air.Constant) (air.Constant, *Error) {
	what := recordName(constantsID, rec.code)
	to := rec.typ
	switch x.(type) {
	case *air.ConstPoison:
		return &air.ConstPoison{Typ: to}, nil
	case *air.ConstUndef:
		if op == air.OpZExt || op == air.OpSExt || op == air.OpUIToFP || op == air.OpSIToFP {
			return nullOf(to), nil
		}
		return &air.ConstUndef{Typ: to}, nil
	}
	if op == air.OpBitCast && x.Type().String() == to.String() {
		return x, nil
	}
	if isNull(x) && op != air.OpAddrSpaceCast {
		return nullOf(to), nil
	}
	if ci, ok := x.(*air.ConstInt); ok && op == air.OpTrunc && ci.Wide == nil {
		if it, ok := to.(*air.IntType); ok {
			return &air.ConstInt{Typ: it, Bits: truncBits(ci.Bits, it.Bits)}, nil
		}
	}
	switch op {
	case air.OpAddrSpaceCast, air.OpPtrToInt, air.OpIntToPtr, air.OpBitCast:
		switch x.(type) {
		case *air.ConstInt, *air.ConstFloat, *air.ConstAggregate:
			if op == air.OpBitCast {
				return nil, unsupported(rec.pos, what, "constant bitcast of a number (LLVM folds it)")
			}
		}
		return &air.ConstExpr{Typ: to, Op: op, Ops: []air.Constant{x}, InRange: -1}, nil
	}
	return nil, unsupported(rec.pos, what, "constant %s expression (LLVM folds or expands it)", op)
}

// constGEP reads a constant getelementptr; all-zero indices fold to the base.
func (r *reader) constGEP(rec cstRec) (air.Constant, *Error) {
	ops := rec.ops
	what := recordName(constantsID, rec.code)
	i := 0
	var src air.Type
	var err *Error
	if rec.code == 32 || len(ops)%2 == 1 {
		if len(ops) < 1 {
			return nil, malformed(rec.pos, what, "no operands")
		}
		if src, err = r.typeAt(ops[0], what); err != nil {
			return nil, err
		}
		i = 1
	}
	var flags uint64
	switch rec.code {
	case 32:
		if i >= len(ops) {
			return nil, malformed(rec.pos, what, "no flags")
		}
		flags = ops[i]
		i++
	case 20:
		flags = 1
	}
	if flags&^7 != 0 {
		return nil, unsupported(rec.pos, what, "getelementptr flags %#x", flags)
	}
	if (len(ops)-i)%2 != 0 || len(ops)-i < 2 {
		return nil, malformed(rec.pos, what, "operand list")
	}
	var cs []air.Constant
	for ; i < len(ops); i += 2 {
		c, err := r.constOperand(ops[i+1], what)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	base := cs[0]
	bp, ok := base.Type().(*air.PointerType)
	if !ok {
		return nil, unsupported(rec.pos, what, "getelementptr on %s", base.Type())
	}
	if src == nil {
		if bp.Elem == nil {
			return nil, malformed(rec.pos, what, "no source element type")
		}
		src = bp.Elem
	}
	noop := true
	for _, ix := range cs[1:] {
		_, u := ix.(*air.ConstUndef)
		_, pz := ix.(*air.ConstPoison)
		if !isNull(ix) && !u && !pz {
			noop = false
		}
		if _, vec := ix.Type().(*air.VectorType); vec {
			return nil, unsupported(rec.pos, what, "vector getelementptr")
		}
	}
	if noop {
		return base, nil
	}
	return &air.ConstExpr{Typ: rec.typ, Op: air.OpGetElementPtr, Ops: cs, SourceElem: src,
		InBounds: flags&1 != 0, Flags: air.WrapFlags(flags >> 1 & 3), InRange: -1}, nil
}

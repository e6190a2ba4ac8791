package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

var binOps = [...][2]air.Opcode{ // [integer, floating point]
	{air.OpAdd, air.OpFAdd}, {air.OpSub, air.OpFSub}, {air.OpMul, air.OpFMul}, {air.OpUDiv, 0},
	{air.OpSDiv, air.OpFDiv}, {air.OpURem, 0}, {air.OpSRem, air.OpFRem}, {air.OpShl, 0},
	{air.OpLShr, 0}, {air.OpAShr, 0}, {air.OpAnd, 0}, {air.OpOr, 0}, {air.OpXor, 0},
}

func isFP(t air.Type) bool {
	_, ok := air.Scalar(t).(*air.FloatType)
	return ok
}

// fastMath decodes fast-math flags; the legacy "unsafe algebra" bit means all of them.
func fastMath(v uint64) air.FastMath {
	if v&1 != 0 {
		return 0xFE
	}
	return air.FastMath(v)
}

var orderings = [...]air.Ordering{air.NotAtomic, air.Unordered, air.Monotonic, air.Acquire, air.Release, air.AcqRel, air.SeqCst}

func (r *reader) instRecord(fs *fnState, code uint64, ops []uint64) *Error {
	c := r.c
	what := recordName(functionID, code)
	bad := func(f string, a ...any) *Error { return malformed(c.r.pos, what, f, a...) }
	need := func(n int) *Error {
		if len(ops) < n {
			return bad("%d operands, want at least %d", len(ops), n)
		}
		return nil
	}
	i := 0
	switch code {
	case 1: // DECLAREBLOCKS [n]
		if err := need(1); err != nil {
			return err
		}
		if ops[0] == 0 || ops[0] > maxBlocks || ops[0] > c.r.left()/2 || fs.blocks != nil {
			return bad("%d blocks", ops[0])
		}
		// blocks are made when first used, so a huge count costs 8 bytes each
		fs.blocks = make([]*air.Block, ops[0])
		return nil
	case 35: // DEBUG_LOC [line, col, scope, inlinedAt, implicit]
		if err := need(4); err != nil {
			return err
		}
		if len(fs.insts) == 0 {
			return bad("no instruction to attach to")
		}
		loc := &air.DebugLoc{Line: ops[0], Col: ops[1]}
		var err *Error
		if ops[2] != 0 {
			if loc.Scope, err = r.mdRef(ops[2]-1, c.r.pos); err != nil {
				return err
			}
		}
		if ops[3] != 0 {
			if loc.InlinedAt, err = r.mdRef(ops[3]-1, c.r.pos); err != nil {
				return err
			}
		}
		loc.Implicit = len(ops) > 4 && ops[4] != 0
		fs.insts[len(fs.insts)-1].Common().Loc = loc
		fs.lastLoc = loc
		return nil
	case 33: // DEBUG_LOC_AGAIN
		if len(fs.insts) == 0 || fs.lastLoc == nil {
			return bad("no location to repeat")
		}
		fs.insts[len(fs.insts)-1].Common().Loc = fs.lastLoc
		return nil
	case 55: // OPERAND_BUNDLE [tag, values...]
		if err := need(1); err != nil {
			return err
		}
		if ops[0] >= uint64(len(r.m.BundleTags)) {
			return bad("bundle tag %d", ops[0])
		}
		b := air.Bundle{Tag: r.m.BundleTags[ops[0]]}
		i = 1
		for i < len(ops) {
			v, err := r.opPair(fs, ops, &i)
			if err != nil {
				return err
			}
			b.Args = append(b.Args, v)
		}
		fs.bundles = append(fs.bundles, b)
		return nil
	}
	var in air.Instruction
	switch code {
	case 2: // BINOP [opval, opval, opcode, flags?]
		x, y, err := r.opPairOfOneType(fs, ops, &i)
		if err != nil {
			return err
		}
		if i >= len(ops) || ops[i] >= uint64(len(binOps)) {
			return bad("binary opcode")
		}
		fp := isFP(x.Type())
		op := binOps[ops[i]][0]
		if fp {
			op = binOps[ops[i]][1]
		}
		if op == 0 {
			return bad("binary opcode %d on floating point", ops[i])
		}
		i++
		b := &air.BinOp{Op: op, X: x, Y: y}
		b.Typ = x.Type()
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
		in = b
	case 56: // UNOP [opval, opcode, flags?]
		x, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		if i >= len(ops) || ops[i] != 0 {
			return bad("unary opcode")
		}
		i++
		u := &air.UnaryOp{Op: air.OpFNeg, X: x}
		u.Typ = x.Type()
		if i < len(ops) {
			u.FastMath = fastMath(ops[i])
		}
		in = u
	case 58: // FREEZE [opval]
		x, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		fz := &air.Freeze{X: x}
		fz.Typ = x.Type()
		in = fz
	case 3: // CAST [opval, destty, castopc, flags?]
		x, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		if i+2 > len(ops) {
			return bad("missing type or opcode")
		}
		to, err := r.typeAt(ops[i], what)
		if err != nil {
			return err
		}
		if ops[i+1] >= uint64(len(castOps)) {
			return bad("cast opcode %d", ops[i+1])
		}
		cs := &air.Cast{Op: castOps[ops[i+1]], X: x}
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
		in = cs
	case 43, 4, 30: // GEP [flags, srcty, ops...]; GEP_OLD/INBOUNDS_GEP_OLD [ops...]
		g := &air.GEP{}
		if code == 43 {
			if err := need(2); err != nil {
				return err
			}
			if ops[0]&^7 != 0 {
				return unsupported(c.r.pos, what, "getelementptr flags %#x", ops[0])
			}
			g.InBounds = ops[0]&1 != 0
			g.NUSW = ops[0]&3 != 0
			g.NUW = ops[0]&4 != 0
			t, err := r.typeAt(ops[1], what)
			if err != nil {
				return err
			}
			g.SourceElem = t
			i = 2
		} else {
			g.InBounds = code == 30
			g.NUSW = g.InBounds
		}
		base, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		g.Base = base
		if g.SourceElem == nil {
			p, ok := base.Type().(*air.PointerType)
			if !ok || p.Elem == nil {
				return bad("base of an untyped getelementptr is not a typed pointer")
			}
			g.SourceElem = p.Elem
		}
		for i < len(ops) {
			v, err := r.opPair(fs, ops, &i)
			if err != nil {
				return err
			}
			g.Indices = append(g.Indices, v)
		}
		t, err := r.gepResult(g)
		if err != nil {
			return err
		}
		g.Typ = t
		in = g
	case 29: // VSELECT [t, f, cond, fmf?]
		x, y, err := r.opPairOfOneType(fs, ops, &i)
		if err != nil {
			return err
		}
		cond, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		s := &air.Select{Cond: cond, X: x, Y: y}
		s.Typ = x.Type()
		if i < len(ops) {
			s.FastMath = fastMath(ops[i])
		}
		in = s
	case 6: // EXTRACTELT [vec, idx]
		v, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		idx, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		vt, ok := v.Type().(*air.VectorType)
		if !ok {
			return bad("extractelement from %s", v.Type())
		}
		e := &air.ExtractElement{Vec: v, Index: idx}
		e.Typ = vt.Elem
		in = e
	case 7: // INSERTELT [vec, elt, idx]
		v, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		vt, ok := v.Type().(*air.VectorType)
		if !ok {
			return bad("insertelement into %s", v.Type())
		}
		elt, err := r.opTyped(fs, ops, &i, vt.Elem)
		if err != nil {
			return err
		}
		idx, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		e := &air.InsertElement{Vec: v, Elem: elt, Index: idx}
		e.Typ = v.Type()
		in = e
	case 8: // SHUFFLEVEC [v1, v2, mask]
		x, y, err := r.opPairOfOneType(fs, ops, &i)
		if err != nil {
			return err
		}
		m, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		xt, ok := x.Type().(*air.VectorType)
		mt, ok2 := m.Type().(*air.VectorType)
		if !ok || !ok2 {
			return bad("shufflevector of %s with mask %s", x.Type(), m.Type())
		}
		mask, err2 := r.shuffleMask(m, mt.Len)
		if err2 != "" {
			return unsupported(c.r.pos, what, "%s", err2)
		}
		s := &air.ShuffleVector{X: x, Y: y, Mask: mask}
		s.Typ = &air.VectorType{Len: mt.Len, Elem: xt.Elem}
		s.Typ = r.internVector(s.Typ.(*air.VectorType))
		in = s
	case 9, 28: // CMP, CMP2 [lhs, rhs, pred, fmf?]
		x, y, err := r.opPairOfOneType(fs, ops, &i)
		if err != nil {
			return err
		}
		if i >= len(ops) {
			return bad("no predicate")
		}
		p := air.Predicate(ops[i])
		if p.String() == "pred?" || p.IsFloat() != isFP(x.Type()) {
			return bad("predicate %d for %s", ops[i], x.Type())
		}
		i++
		cm := &air.Cmp{Pred: p, X: x, Y: y}
		if i < len(ops) {
			cm.FastMath = fastMath(ops[i])
		}
		cm.Typ = r.boolLike(x.Type())
		in = cm
	case 10: // RET [val?]
		rt := &air.Ret{}
		rt.Typ = air.Void
		if len(ops) > 0 {
			v, err := r.opPair(fs, ops, &i)
			if err != nil {
				return err
			}
			if i != len(ops) {
				return unsupported(c.r.pos, what, "ret with several values")
			}
			rt.X = v
		}
		in = rt
	case 11: // BR [true, false, cond] or [dest]
		b := &air.Br{}
		b.Typ = air.Void
		var err *Error
		if b.True, err = r.block(fs, ops0(ops)); err != nil {
			return err
		}
		if len(ops) == 3 {
			if b.False, err = r.block(fs, ops[1]); err != nil {
				return err
			}
			i = 2
			if b.Cond, err = r.opTyped(fs, ops, &i, r.i1()); err != nil {
				return err
			}
		} else if len(ops) != 1 {
			return bad("%d operands", len(ops))
		}
		in = b
	case 12: // SWITCH [opty, cond, default, (val, bb)...]
		if err := need(3); err != nil {
			return err
		}
		if ops[0]>>16 == 0x4B5 {
			return unsupported(c.r.pos, what, "switch with case ranges")
		}
		ty, err := r.typeAt(ops[0], what)
		if err != nil {
			return err
		}
		i = 1
		cond, err := r.opTyped(fs, ops, &i, ty)
		if err != nil {
			return err
		}
		s := &air.Switch{Cond: cond}
		s.Typ = air.Void
		if s.Default, err = r.block(fs, ops[2]); err != nil {
			return err
		}
		if (len(ops)-3)%2 != 0 {
			return bad("odd case list")
		}
		for k := 3; k < len(ops); k += 2 {
			cv, err := r.value(fs, ops[k], ty)
			if err != nil {
				return err
			}
			ci, ok := cv.(*air.ConstInt)
			if !ok {
				return bad("case value is not an integer constant")
			}
			d, err := r.block(fs, ops[k+1])
			if err != nil {
				return err
			}
			s.Cases = append(s.Cases, air.Case{Value: ci, Dest: d})
		}
		in = s
	case 15: // UNREACHABLE
		u := &air.Unreachable{}
		u.Typ = air.Void
		in = u
	case 16: // PHI [ty, (val, bb)..., fmf?]
		if err := need(1); err != nil {
			return err
		}
		ty, err := r.typeAt(ops[0], what)
		if err != nil {
			return err
		}
		p := &air.Phi{}
		p.Typ = ty
		n := len(ops) - 1
		if n%2 == 1 {
			p.FastMath = fastMath(ops[len(ops)-1])
			n--
		}
		for k := 1; k < 1+n; k += 2 {
			var id uint64
			if r.version == 0 {
				id = ops[k]
			} else {
				id = uint64(uint32(int64(len(r.values)) - int64(decodeSigned(ops[k]))))
			}
			v, err := r.value(fs, id, ty)
			if err != nil {
				return err
			}
			b, err := r.block(fs, ops[k+1])
			if err != nil {
				return err
			}
			p.Incoming = append(p.Incoming, air.Incoming{Value: v, Block: b})
		}
		in = p
	case 19: // ALLOCA [instty, opty, op, align, addrspace?]
		if err := need(4); err != nil {
			return err
		}
		ty, err := r.typeAt(ops[0], what)
		if err != nil {
			return err
		}
		opty, err := r.typeAt(ops[1], what)
		if err != nil {
			return err
		}
		size, err := r.value(fs, ops[2], opty)
		if err != nil {
			return err
		}
		rec := ops[3]
		a := &air.Alloca{Count: size}
		a.InAlloca = rec&(1<<5) != 0
		a.SwiftErr = rec&(1<<7) != 0
		if rec&(1<<6) == 0 {
			p, ok := ty.(*air.PointerType)
			if !ok || p.Elem == nil {
				return bad("implicit alloca type is not a typed pointer")
			}
			ty = p.Elem
		}
		a.Elem = ty
		al, ok := decodeAlign(rec&31 | (rec>>8&7)<<5)
		if !ok {
			return bad("alignment")
		}
		a.Align = al
		if len(ops) > 4 {
			a.AddrSpace = int(ops[4])
		}
		a.Typ = r.ptrType(ty, a.AddrSpace)
		in = a
	case 20, 41: // LOAD [op, ty?, align, vol]; LOADATOMIC [op, ty?, align, vol, ordering, ssid]
		ptr, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		extra := 2
		if code == 41 {
			extra = 4
		}
		l := &air.Load{Ptr: ptr}
		if i+extra+1 == len(ops) {
			t, err := r.typeAt(ops[i], what)
			if err != nil {
				return err
			}
			l.Typ = t
			i++
		} else if i+extra == len(ops) {
			p, ok := ptr.Type().(*air.PointerType)
			if !ok || p.Elem == nil {
				return bad("implicit load type from %s", ptr.Type())
			}
			l.Typ = p.Elem
		} else {
			return bad("%d operands", len(ops))
		}
		if l.Align, l.Volatile, l.Ordering, l.SyncScope, err = memAccess(ops[i:], code == 41, bad); err != nil {
			return err
		}
		in = l
	case 44, 45, 24: // STORE [ptr, val, align, vol]; STOREATOMIC [..., ordering, ssid]; STORE_OLD
		ptr, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		var val air.Value
		if code == 24 {
			p, ok := ptr.Type().(*air.PointerType)
			if !ok || p.Elem == nil {
				return bad("store through %s", ptr.Type())
			}
			val, err = r.opTyped(fs, ops, &i, p.Elem)
		} else {
			val, err = r.opPair(fs, ops, &i)
		}
		if err != nil {
			return err
		}
		want := 2
		if code == 45 {
			want = 4
		}
		if len(ops) != i+want {
			return bad("%d operands", len(ops))
		}
		s := &air.Store{Val: val, Ptr: ptr}
		s.Typ = air.Void
		if s.Align, s.Volatile, s.Ordering, s.SyncScope, err = memAccess(ops[i:], code == 45, bad); err != nil {
			return err
		}
		in = s
	case 26: // EXTRACTVAL [agg, idx...]
		agg, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		e := &air.ExtractValue{Agg: agg}
		if e.Indices, e.Typ, err = r.memberPath(agg.Type(), ops[i:], bad); err != nil {
			return err
		}
		in = e
	case 27: // INSERTVAL [agg, val, idx...]
		agg, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		val, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		e := &air.InsertValue{Agg: agg, Val: val}
		if e.Indices, _, err = r.memberPath(agg.Type(), ops[i:], bad); err != nil {
			return err
		}
		e.Typ = agg.Type()
		in = e
	case 34: // CALL [attrs, cc, fmf?, fnty?, callee, args...]
		var err *Error
		in, err = r.call(fs, ops)
		if err != nil {
			return err
		}
	case 36: // FENCE [ordering, ssid]
		if err := need(2); err != nil {
			return err
		}
		if ops[0] >= uint64(len(orderings)) {
			return bad("ordering %d", ops[0])
		}
		f := &air.Fence{Ordering: orderings[ops[0]], SyncScope: ops[1]}
		f.Typ = air.Void
		in = f
	case 59: // ATOMICRMW [ptr, val, op, vol, ordering, ssid, align?]
		ptr, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		val, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		if len(ops) < i+4 {
			return bad("%d operands", len(ops))
		}
		if ops[i] > 16 || ops[i+2] >= uint64(len(orderings)) {
			return bad("operation %d / ordering %d", ops[i], ops[i+2])
		}
		a := &air.AtomicRMW{Op: air.RMWOp(ops[i]), Ptr: ptr, Val: val, Volatile: ops[i+1] != 0,
			Ordering: orderings[ops[i+2]], SyncScope: ops[i+3]}
		var ok bool
		if a.Align, ok = alignAt(ops, i+4); !ok {
			return bad("alignment")
		}
		a.Typ = val.Type()
		in = a
	case 46: // CMPXCHG [ptr, cmp, new, vol, success, ssid, failure, weak, align?]
		ptr, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		cmp, err := r.opPair(fs, ops, &i)
		if err != nil {
			return err
		}
		nw, err := r.opTyped(fs, ops, &i, cmp.Type())
		if err != nil {
			return err
		}
		if len(ops) < i+5 {
			return bad("%d operands", len(ops))
		}
		if ops[i+1] >= uint64(len(orderings)) || ops[i+3] >= uint64(len(orderings)) {
			return bad("ordering")
		}
		x := &air.CmpXchg{Ptr: ptr, Cmp: cmp, New: nw, Volatile: ops[i] != 0, Success: orderings[ops[i+1]],
			SyncScope: ops[i+2], Failure: orderings[ops[i+3]], Weak: ops[i+4] != 0}
		var ok bool
		if x.Align, ok = alignAt(ops, i+5); !ok {
			return bad("alignment")
		}
		x.Typ = &air.StructType{Literal: true, Fields: []air.Type{cmp.Type(), &air.IntType{Bits: 1}}}
		in = x
	default:
		return unknownRecord(c.r.pos, functionID, code)
	}
	return r.add(fs, in)
}

// memAccess decodes the [align, vol] tail of a load or store record, and the
// [ordering, ssid] after it when the access is atomic; the caller has checked
// that ops holds them all.
func memAccess(ops []uint64, atomic bool, bad func(string, ...any) *Error) (align uint64, volatile bool, ord air.Ordering, scope uint64, err *Error) {
	align, ok := decodeAlign(ops[0])
	if !ok {
		return 0, false, 0, 0, bad("alignment %d", ops[0])
	}
	volatile = ops[1] != 0
	if atomic {
		if ops[2] >= uint64(len(orderings)) {
			return 0, false, 0, 0, bad("ordering %d", ops[2])
		}
		ord, scope = orderings[ops[2]], ops[3]
	}
	return align, volatile, ord, scope, nil
}

// alignAt decodes the optional alignment at ops[k]: 0 when the record stops before it.
func alignAt(ops []uint64, k int) (uint64, bool) {
	if k >= len(ops) {
		return 0, true
	}
	return decodeAlign(ops[k])
}

// opPairOfOneType reads an operand pair and a second operand of the first one's type
// (binop, select, shufflevector and cmp records).
func (r *reader) opPairOfOneType(fs *fnState, ops []uint64, i *int) (x, y air.Value, err *Error) {
	if x, err = r.opPair(fs, ops, i); err != nil {
		return nil, nil, err
	}
	if y, err = r.opTyped(fs, ops, i, x.Type()); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

func ops0(ops []uint64) uint64 {
	if len(ops) == 0 {
		return 1 << 62
	}
	return ops[0]
}

// boolLike is i1, or <N x i1> for a vector operand type.
func (r *reader) boolLike(t air.Type) air.Type {
	if v, ok := t.(*air.VectorType); ok {
		return r.internVector(&air.VectorType{Len: v.Len, Elem: r.i1()})
	}
	return r.i1()
}

func (r *reader) i1() air.Type {
	if r.i1Type != nil {
		return r.i1Type
	}
	r.i1Type = &air.IntType{Bits: 1}
	for _, t := range r.types {
		if it, ok := t.(*air.IntType); ok && it.Bits == 1 {
			r.i1Type = it
			break
		}
	}
	return r.i1Type
}

// internVector returns the type table's vector equal to v, or v.
func (r *reader) internVector(v *air.VectorType) air.Type {
	key := vecKey{v.Len, v.Scalable, v.Elem}
	if t, ok := r.vecCache[key]; ok {
		return t
	}
	t := r.findVector(v)
	if r.vecCache == nil {
		r.vecCache = map[vecKey]air.Type{}
	}
	r.vecCache[key] = t
	return t
}

type vecKey struct {
	n        int
	scalable bool
	elem     air.Type
}

func (r *reader) findVector(v *air.VectorType) air.Type {
	for _, t := range r.types {
		if tv, ok := t.(*air.VectorType); ok && tv.Len == v.Len && tv.Scalable == v.Scalable && tv.Elem.String() == v.Elem.String() {
			return tv
		}
	}
	return v
}

// memberType is the type of field idx of an aggregate type.
func (r *reader) memberType(t air.Type, idx uint64) (air.Type, *Error) {
	switch t := t.(type) {
	case *air.StructType:
		if idx < uint64(len(t.Fields)) {
			return t.Fields[idx], nil
		}
	case *air.ArrayType:
		if idx < t.Len {
			return t.Elem, nil
		}
	}
	return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK", "index %d into %s", idx, t)
}

// memberPath walks the constant member indices of an extractvalue or insertvalue
// into t, returning them and the type of the member they reach.
func (r *reader) memberPath(t air.Type, ops []uint64, bad func(string, ...any) *Error) ([]uint32, air.Type, *Error) {
	if len(ops) == 0 {
		return nil, nil, bad("no indices")
	}
	idx := make([]uint32, 0, len(ops))
	for _, o := range ops {
		var err *Error
		if t, err = r.memberType(t, o); err != nil {
			return nil, nil, err
		}
		idx = append(idx, uint32(o))
	}
	return idx, t, nil
}

// gepResult computes a getelementptr's result type.
func (r *reader) gepResult(g *air.GEP) (air.Type, *Error) {
	bp, ok := g.Base.Type().(*air.PointerType)
	var vecLen int
	if !ok {
		if v, vok := g.Base.Type().(*air.VectorType); vok {
			return nil, unsupported(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "vector getelementptr of %s", v)
		}
		return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "base of type %s", g.Base.Type())
	}
	for _, ix := range g.Indices {
		if v, ok := ix.Type().(*air.VectorType); ok {
			vecLen = v.Len
		}
	}
	if vecLen != 0 {
		return nil, unsupported(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "vector getelementptr")
	}
	if bp.Elem == nil {
		return bp, nil
	}
	// typed pointers: walk the indices for the result's pointee type
	t := g.SourceElem
	for k, ix := range g.Indices {
		if k == 0 {
			continue
		}
		switch tt := t.(type) {
		case *air.StructType:
			ci, ok := ix.(*air.ConstInt)
			if !ok || ci.Bits >= uint64(len(tt.Fields)) {
				return nil, unsupported(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "struct field chosen at run time")
			}
			t = tt.Fields[ci.Bits]
		case *air.ArrayType:
			t = tt.Elem
		case *air.VectorType:
			t = tt.Elem
		default:
			return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK/INST_GEP", "index into %s", t)
		}
	}
	return r.ptrType(t, bp.AddrSpace), nil
}

// shuffleMask reads a shufflevector mask constant (-1 for undef/poison
// lanes). All-zero and all-undef masks of one length share one slice, so
// that a short record cannot make a long allocation.
func (r *reader) shuffleMask(m air.Value, n int) ([]int, string) {
	switch c := m.(type) {
	case *air.ConstZero:
		return r.sharedMask(n, 0), ""
	case *air.ConstUndef, *air.ConstPoison:
		return r.sharedMask(n, -1), ""
	case *air.ConstAggregate:
		mask := make([]int, n)
		for k, e := range c.Elems {
			switch e := e.(type) {
			case *air.ConstInt:
				mask[k] = int(e.Bits)
			case *air.ConstUndef, *air.ConstPoison:
				mask[k] = -1
			default:
				return nil, "shufflevector mask element is not a constant integer"
			}
		}
		return mask, ""
	}
	return nil, "shufflevector mask is not a constant"
}

func (r *reader) call(fs *fnState, ops []uint64) (air.Instruction, *Error) {
	c := r.c
	const what = "FUNCTION_BLOCK/INST_CALL(code 34)"
	if len(ops) < 3 {
		return nil, malformed(c.r.pos, what, "%d operands", len(ops))
	}
	attrs, err := r.attrList(ops[0], what)
	if err != nil {
		return nil, err
	}
	cc := ops[1]
	i := 2
	call := &air.Call{Attrs: attrs}
	if cc>>17&1 != 0 {
		if i >= len(ops) {
			return nil, malformed(c.r.pos, what, "no fast-math flags")
		}
		call.FastMath = fastMath(ops[i])
		i++
	}
	var ft *air.FunctionType
	if cc>>15&1 != 0 {
		if i >= len(ops) {
			return nil, malformed(c.r.pos, what, "no function type")
		}
		t, err := r.typeAt(ops[i], what)
		if err != nil {
			return nil, err
		}
		var ok bool
		if ft, ok = t.(*air.FunctionType); !ok {
			return nil, malformed(c.r.pos, what, "explicit type %s is not a function type", t)
		}
		i++
	}
	callee, err := r.opPair(fs, ops, &i)
	if err != nil {
		return nil, err
	}
	if ft == nil {
		p, ok := callee.Type().(*air.PointerType)
		if !ok {
			return nil, malformed(c.r.pos, what, "callee of type %s", callee.Type())
		}
		if ft, ok = p.Elem.(*air.FunctionType); !ok {
			return nil, malformed(c.r.pos, what, "callee is not a typed function pointer")
		}
	}
	// The callee is a function, a constant expression of one, or (a call
	// through a pointer) any other pointer value; air.Call.Called tells
	// the last apart by returning nil.
	call.Callee = callee
	call.Sig = ft
	call.CallingConv = uint32(cc>>1) & 0x3ff
	switch {
	case cc>>14&1 != 0:
		call.Tail = air.MustTail
	case cc&1 != 0:
		call.Tail = air.Tail
	case cc>>16&1 != 0:
		call.Tail = air.NoTailCall
	}
	for _, pt := range ft.Params {
		if _, ok := pt.(*air.LabelType); ok {
			return nil, unsupported(c.r.pos, what, "label argument")
		}
		v, err := r.opTyped(fs, ops, &i, pt)
		if err != nil {
			return nil, err
		}
		call.Args = append(call.Args, v)
	}
	if ft.VarArg {
		for i < len(ops) {
			v, err := r.opPair(fs, ops, &i)
			if err != nil {
				return nil, err
			}
			call.Args = append(call.Args, v)
		}
	} else if i != len(ops) {
		return nil, malformed(c.r.pos, what, "%d operands for %d parameters", len(ops), len(ft.Params))
	}
	if call.Attrs, err = r.upgradeTypeAttrs(call.Attrs, func(i int) air.Type {
		switch {
		case i < len(ft.Params):
			return ft.Params[i]
		case i < len(call.Args):
			return call.Args[i].Type()
		}
		return nil
	}, what); err != nil {
		return nil, err
	}
	call.Typ = ft.Ret
	call.Bundles = fs.bundles
	fs.bundles = nil
	return call, nil
}

func (r *reader) sharedMask(n, v int) []int {
	key := [2]int{n, v}
	if m, ok := r.masks[key]; ok {
		return m
	}
	m := make([]int, n)
	for k := range m {
		m[k] = v
	}
	if r.masks == nil {
		r.masks = map[[2]int][]int{}
	}
	r.masks[key] = m
	return m
}

package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Control-flow records: terminators, phi and select (compiler/air's
// terminator.go and phi_select.go).

// readRet reads RET [val?].
func (r *reader) readRet(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	rt := &air.Ret{}
	rt.Typ = air.Void
	if len(ops) > 0 {
		v, err := r.opPair(x.fs, ops, &i)
		if err != nil {
			return nil, err
		}
		if i != len(ops) {
			return nil, x.unsupported("ret with several values")
		}
		rt.X = v
	}
	return rt, nil
}

// readBr reads BR [true, false, cond] or [dest].
func (r *reader) readBr(x *instRec) (air.Instruction, *Error) {
	ops, fs := x.ops, x.fs
	b := &air.Br{}
	b.Typ = air.Void
	var err *Error
	if b.True, err = r.block(fs, ops0(ops)); err != nil {
		return nil, err
	}
	if len(ops) == 3 {
		if b.False, err = r.block(fs, ops[1]); err != nil {
			return nil, err
		}
		i := 2
		if b.Cond, err = r.opTyped(fs, ops, &i, r.i1()); err != nil {
			return nil, err
		}
	} else if len(ops) != 1 {
		return nil, x.bad("%d operands", len(ops))
	}
	return b, nil
}

// ops0 is the first operand, or a block id no function has when there is none.
func ops0(ops []uint64) uint64 {
	if len(ops) == 0 {
		return 1 << 62
	}
	return ops[0]
}

// readSwitch reads SWITCH [opty, cond, default, (val, bb)...].
func (r *reader) readSwitch(x *instRec) (air.Instruction, *Error) {
	if err := x.need(3); err != nil {
		return nil, err
	}
	ops, fs := x.ops, x.fs
	if ops[0]>>16 == 0x4B5 {
		return nil, x.unsupported("switch with case ranges")
	}
	ty, err := r.typeAt(ops[0], x.what)
	if err != nil {
		return nil, err
	}
	i := 1
	cond, err := r.opTyped(fs, ops, &i, ty)
	if err != nil {
		return nil, err
	}
	s := &air.Switch{Cond: cond}
	s.Typ = air.Void
	if s.Default, err = r.block(fs, ops[2]); err != nil {
		return nil, err
	}
	if (len(ops)-3)%2 != 0 {
		return nil, x.bad("odd case list")
	}
	for k := 3; k < len(ops); k += 2 {
		cv, err := r.value(fs, ops[k], ty)
		if err != nil {
			return nil, err
		}
		ci, ok := cv.(*air.ConstInt)
		if !ok {
			return nil, x.bad("case value is not an integer constant")
		}
		d, err := r.block(fs, ops[k+1])
		if err != nil {
			return nil, err
		}
		s.Cases = append(s.Cases, air.Case{Value: ci, Dest: d})
	}
	return s, nil
}

// readPhi reads PHI [ty, (val, bb)..., fmf?]; the values are signed
// relative ids.
func (r *reader) readPhi(x *instRec) (air.Instruction, *Error) {
	if err := x.need(1); err != nil {
		return nil, err
	}
	ops := x.ops
	ty, err := r.typeAt(ops[0], x.what)
	if err != nil {
		return nil, err
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
		v, err := r.value(x.fs, id, ty)
		if err != nil {
			return nil, err
		}
		b, err := r.block(x.fs, ops[k+1])
		if err != nil {
			return nil, err
		}
		p.Incoming = append(p.Incoming, air.Incoming{Value: v, Block: b})
	}
	return p, nil
}

// readSelect reads VSELECT [t, f, cond, fmf?].
func (r *reader) readSelect(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	a, b, err := r.opPairOfOneType(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	cond, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	s := &air.Select{Cond: cond, X: a, Y: b}
	s.Typ = a.Type()
	if i < len(ops) {
		s.FastMath = fastMath(ops[i])
	}
	return s, nil
}

// readUnreachable reads UNREACHABLE, which has no operands.
func (r *reader) readUnreachable(*instRec) (air.Instruction, *Error) {
	u := &air.Unreachable{}
	u.Typ = air.Void
	return u, nil
}

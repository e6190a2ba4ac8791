package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Call records and the operand bundles that precede them (compiler/air's
// call.go).

// readOperandBundle reads OPERAND_BUNDLE [tag, values...]: the bundles
// read are given to the next call.
func (r *reader) readOperandBundle(x *instRec) *Error {
	if err := x.need(1); err != nil {
		return err
	}
	ops := x.ops
	if ops[0] >= uint64(len(r.m.BundleTags)) {
		return x.bad("bundle tag %d", ops[0])
	}
	b := air.Bundle{Tag: r.m.BundleTags[ops[0]]}
	i := 1
	for i < len(ops) {
		v, err := r.opPair(x.fs, ops, &i)
		if err != nil {
			return err
		}
		b.Args = append(b.Args, v)
	}
	x.fs.bundles = append(x.fs.bundles, b)
	return nil
}

// readCall reads CALL [attrs, cc, fmf?, fnty?, callee, args...].
func (r *reader) readCall(x *instRec) (air.Instruction, *Error) {
	fs, ops := x.fs, x.ops
	if len(ops) < 3 {
		return nil, x.bad("%d operands", len(ops))
	}
	attrs, err := r.attrList(ops[0], x.what)
	if err != nil {
		return nil, err
	}
	cc := ops[1]
	i := 2
	call := &air.Call{Attrs: attrs}
	if cc>>17&1 != 0 {
		if i >= len(ops) {
			return nil, x.bad("no fast-math flags")
		}
		call.FastMath = fastMath(ops[i])
		i++
	}
	var ft *air.FunctionType
	if cc>>15&1 != 0 {
		if i >= len(ops) {
			return nil, x.bad("no function type")
		}
		t, err := r.typeAt(ops[i], x.what)
		if err != nil {
			return nil, err
		}
		var ok bool
		if ft, ok = t.(*air.FunctionType); !ok {
			return nil, x.bad("explicit type %s is not a function type", t)
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
			return nil, x.bad("callee of type %s", callee.Type())
		}
		if ft, ok = p.Elem.(*air.FunctionType); !ok {
			return nil, x.bad("callee is not a typed function pointer")
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
			return nil, x.unsupported("label argument")
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
		return nil, x.bad("%d operands for %d parameters", len(ops), len(ft.Params))
	}
	if call.Attrs, err = r.upgradeTypeAttrs(call.Attrs, func(i int) air.Type {
		switch {
		case i < len(ft.Params):
			return ft.Params[i]
		case i < len(call.Args):
			return call.Args[i].Type()
		}
		return nil
	}, x.what); err != nil {
		return nil, err
	}
	call.Typ = ft.Ret
	call.Bundles = fs.bundles
	fs.bundles = nil
	return call, nil
}

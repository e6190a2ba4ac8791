package air

import "fmt"

// Verify checks the invariants the translator relies on and returns the
// first violation: every block ends in its only terminator, phis lead their
// block and name blocks of their function, operands are present and local
// values belong to the same function, and operand types agree with the
// operation (binary operands alike, compare operands alike, call arguments
// matching the callee's signature, returns matching the function, branch
// conditions i1, memory operands pointers). Types are compared as LLVM 19
// prints them, so typed pointers of one address space are alike.
func Verify(m *Module) error {
	for _, f := range m.Functions {
		if err := verifyFunction(f); err != nil {
			return fmt.Errorf("@%s: %w", f.Name, err)
		}
	}
	return nil
}

func isTerminator(in Instruction) bool {
	switch in.(type) {
	case *Ret, *Br, *Switch, *Unreachable:
		return true
	}
	return false
}

func same(a, b Type) bool { return a == b || a.String() == b.String() }

func isPtr(v Value) bool {
	_, ok := v.Type().(*PointerType)
	return ok
}

func verifyFunction(f *Function) error {
	owner := map[Value]bool{}
	for _, a := range f.Args {
		owner[a] = true
	}
	for _, b := range f.Blocks {
		owner[b] = true
		for _, in := range b.Insts {
			owner[in] = true
		}
	}
	local := func(v Value) bool {
		switch v.(type) {
		case *Argument, *Block, Instruction:
			return true
		}
		return false
	}
	for bi, b := range f.Blocks {
		if len(b.Insts) == 0 {
			return fmt.Errorf("block %d is empty", bi)
		}
		for k, in := range b.Insts {
			last := k == len(b.Insts)-1
			if isTerminator(in) != last {
				return fmt.Errorf("block %d instruction %d (%s): terminator placement", bi, k, in.Opcode())
			}
			if _, ok := in.(*Phi); ok && k > 0 {
				if _, prev := b.Insts[k-1].(*Phi); !prev {
					return fmt.Errorf("block %d instruction %d: phi after a non-phi", bi, k)
				}
			}
			for _, o := range instOperands(in) {
				if o == nil {
					return fmt.Errorf("block %d instruction %d (%s): missing operand", bi, k, in.Opcode())
				}
				if local(o) && !owner[o] {
					return fmt.Errorf("block %d instruction %d (%s): operand from another function", bi, k, in.Opcode())
				}
			}
			if err := verifyTypes(f, in); err != nil {
				return fmt.Errorf("block %d instruction %d (%s): %w", bi, k, in.Opcode(), err)
			}
		}
	}
	return nil
}

// instOperands is the verifier's walk of an instruction's operands: that of
// LLVMOperands but for a phi (each incoming value beside its block), a call
// (the callee first, then the arguments, no operand-bundle arguments) and a
// conditional branch (its true destination before its false one).
func instOperands(in Instruction) []Value {
	switch i := in.(type) {
	case *Phi:
		var out []Value
		for _, x := range i.Incoming {
			out = append(out, x.Value, x.Block)
		}
		return out
	case *Call:
		return append([]Value{i.Callee}, i.Args...)
	case *Br:
		if i.Cond != nil {
			return []Value{i.Cond, i.True, i.False}
		}
		return []Value{i.True}
	}
	return LLVMOperands(in)
}

func verifyTypes(f *Function, in Instruction) error {
	switch i := in.(type) {
	case *BinOp:
		if !same(i.X.Type(), i.Y.Type()) || !same(i.Typ, i.X.Type()) {
			return fmt.Errorf("operands %s and %s", i.X.Type(), i.Y.Type())
		}
	case *Cmp:
		if !same(i.X.Type(), i.Y.Type()) {
			return fmt.Errorf("operands %s and %s", i.X.Type(), i.Y.Type())
		}
	case *Select:
		if !same(i.X.Type(), i.Y.Type()) {
			return fmt.Errorf("operands %s and %s", i.X.Type(), i.Y.Type())
		}
	case *Load:
		if !isPtr(i.Ptr) {
			return fmt.Errorf("load from %s", i.Ptr.Type())
		}
	case *Store:
		if !isPtr(i.Ptr) {
			return fmt.Errorf("store to %s", i.Ptr.Type())
		}
	case *GEP:
		if !isPtr(i.Base) {
			return fmt.Errorf("getelementptr on %s", i.Base.Type())
		}
	case *Phi:
		for _, x := range i.Incoming {
			if !same(x.Value.Type(), i.Typ) {
				return fmt.Errorf("incoming %s for a %s phi", x.Value.Type(), i.Typ)
			}
			if x.Block.Func != f {
				return fmt.Errorf("incoming block of another function")
			}
		}
	case *Call:
		if len(i.Args) < len(i.Sig.Params) || (!i.Sig.VarArg && len(i.Args) != len(i.Sig.Params)) {
			return fmt.Errorf("%d arguments for %d parameters", len(i.Args), len(i.Sig.Params))
		}
		for k, p := range i.Sig.Params {
			if !same(i.Args[k].Type(), p) {
				return fmt.Errorf("argument %d is %s, parameter is %s", k, i.Args[k].Type(), p)
			}
		}
	case *Ret:
		if i.X == nil {
			if _, ok := f.Sig.Ret.(*VoidType); !ok {
				return fmt.Errorf("ret void in a function returning %s", f.Sig.Ret)
			}
		} else if !same(i.X.Type(), f.Sig.Ret) {
			return fmt.Errorf("returns %s from a function returning %s", i.X.Type(), f.Sig.Ret)
		}
	case *Br:
		if i.Cond != nil {
			if it, ok := i.Cond.Type().(*IntType); !ok || it.Bits != 1 {
				return fmt.Errorf("condition of type %s", i.Cond.Type())
			}
		}
	}
	return nil
}

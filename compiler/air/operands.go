package air

// Operands returns the values an instruction reads, in the order the
// verifier walks them (a phi's incoming values alternate with their blocks,
// a call's callee comes first).
func Operands(in Instruction) []Value { return instOperands(in) }

// LLVMOperands returns an instruction's operands in LLVM's operand order,
// as the bitcode writer prints them: blocks included where LLVM keeps them
// as operands (a branch's false destination before its true one, a
// switch's default and case values and destinations), a phi's incoming
// values without their blocks, a call's arguments and operand-bundle
// arguments before its callee, none for a ret void. Operands differs: it
// is the verifier's walk (phi blocks, no bundle arguments).
func LLVMOperands(in Instruction) []Value {
	switch i := in.(type) {
	case *BinOp:
		return []Value{i.X, i.Y}
	case *UnaryOp:
		return []Value{i.X}
	case *Freeze:
		return []Value{i.X}
	case *Cast:
		return []Value{i.X}
	case *Alloca:
		return []Value{i.Count}
	case *Load:
		return []Value{i.Ptr}
	case *Store:
		return []Value{i.Val, i.Ptr}
	case *GEP:
		return append([]Value{i.Base}, i.Indices...)
	case *Cmp:
		return []Value{i.X, i.Y}
	case *Phi:
		out := make([]Value, len(i.Incoming))
		for k, x := range i.Incoming {
			out[k] = x.Value
		}
		return out
	case *Select:
		return []Value{i.Cond, i.X, i.Y}
	case *Call:
		out := append([]Value(nil), i.Args...)
		for _, b := range i.Bundles {
			out = append(out, b.Args...)
		}
		return append(out, i.Callee)
	case *Ret:
		if i.X == nil {
			return nil
		}
		return []Value{i.X}
	case *Br:
		if i.Cond == nil {
			return []Value{i.True}
		}
		return []Value{i.Cond, i.False, i.True}
	case *Switch:
		out := []Value{i.Cond, i.Default}
		for _, c := range i.Cases {
			out = append(out, c.Value, c.Dest)
		}
		return out
	case *ExtractElement:
		return []Value{i.Vec, i.Index}
	case *InsertElement:
		return []Value{i.Vec, i.Elem, i.Index}
	case *ShuffleVector:
		return []Value{i.X, i.Y}
	case *ExtractValue:
		return []Value{i.Agg}
	case *InsertValue:
		return []Value{i.Agg, i.Val}
	case *AtomicRMW:
		return []Value{i.Ptr, i.Val}
	case *CmpXchg:
		return []Value{i.Ptr, i.Cmp, i.New}
	}
	return nil
}

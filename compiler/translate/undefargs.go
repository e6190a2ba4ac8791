package translate

import "github.com/airpipe/airpipe/compiler/air"

// Undefined pointer arguments. LLVM's optimiser replaces an argument its
// callee never reads with undef or poison (a texture parameter the helper
// ignores arrives as `ptr addrspace(1) undef`). Such a pointer has no root;
// it is passed as offset 0 and must stay unread: when the callee uses the
// parameter at all, the call is refused as `undefined pointer`, as before.

// undefPointer reports whether v is an undef or poison pointer constant.
func undefPointer(v air.Value) bool {
	if !isPointer(v.Type()) {
		return false
	}
	switch v.(type) {
	case *air.ConstUndef, *air.ConstPoison:
		return true
	}
	return false
}

// argUnused reports whether no instruction of fn reads its parameter a.
func argUnused(fn *air.Function, a *air.Argument) bool {
	for _, bl := range fn.Blocks {
		for _, in := range bl.Insts {
			if p, ok := in.(*air.Phi); ok {
				for _, inc := range p.Incoming {
					if inc.Value == air.Value(a) {
						return false
					}
				}
				continue
			}
			ops := air.LLVMOperands(in)
			if ops == nil && !knownOperands(in) {
				return false // an instruction whose operands are not listed: assume it reads a
			}
			for _, x := range ops {
				if x == air.Value(a) {
					return false
				}
			}
		}
	}
	return true
}

// knownOperands reports whether air.LLVMOperands lists in's operands (an
// instruction without operands, such as unreachable or ret void, lists
// none).
func knownOperands(in air.Instruction) bool {
	switch in.(type) {
	case *air.Unreachable, *air.Fence, *air.Ret:
		return true
	}
	return false
}

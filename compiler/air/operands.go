package air

// Operands returns the values an instruction reads, in the order the
// verifier walks them (a phi's incoming values alternate with their blocks,
// a call's callee comes first).
func Operands(in Instruction) []Value { return instOperands(in) }

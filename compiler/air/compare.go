package air

// Cmp is icmp or fcmp (Pred.IsFloat tells which).
type Cmp struct {
	InstBase
	Pred     Predicate
	X, Y     Value
	FastMath FastMath
}

// Opcode implements Instruction.
func (i *Cmp) Opcode() Opcode {
	if i.Pred.IsFloat() {
		return OpFCmp
	}
	return OpICmp
}

package air

// Ret returns X (nil for ret void).
type Ret struct {
	InstBase
	X Value
}

// Br branches to True, or, when Cond is set, to True or False.
type Br struct {
	InstBase
	Cond        Value
	True, False *Block
}

// Case is one case of a switch.
type Case struct {
	Value *ConstInt
	Dest  *Block
}

// Switch jumps on Cond to the matching case or to Default.
type Switch struct {
	InstBase
	Cond    Value
	Default *Block
	Cases   []Case
}

// Unreachable is unreachable.
type Unreachable struct{ InstBase }

// Opcode implements Instruction.
func (*Ret) Opcode() Opcode { return OpRet }

// Opcode implements Instruction.
func (*Br) Opcode() Opcode { return OpBr }

// Opcode implements Instruction.
func (*Switch) Opcode() Opcode { return OpSwitch }

// Opcode implements Instruction.
func (*Unreachable) Opcode() Opcode { return OpUnreachable }

// Successors returns the blocks a terminator may jump to, in operand order.
func Successors(i Instruction) []*Block {
	switch t := i.(type) {
	case *Br:
		if t.Cond == nil {
			return []*Block{t.True}
		}
		return []*Block{t.True, t.False}
	case *Switch:
		s := []*Block{t.Default}
		for _, c := range t.Cases {
			s = append(s, c.Dest)
		}
		return s
	}
	return nil
}

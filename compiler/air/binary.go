package air

// BinOp is a binary arithmetic or logic instruction (add, fadd, shl, and, ...).
type BinOp struct {
	InstBase
	Op       Opcode
	X, Y     Value
	Flags    WrapFlags
	FastMath FastMath
}

// UnaryOp is fneg.
type UnaryOp struct {
	InstBase
	Op       Opcode
	X        Value
	FastMath FastMath
}

// Freeze is freeze.
type Freeze struct {
	InstBase
	X Value
}

// Opcode implements Instruction.
func (i *BinOp) Opcode() Opcode { return i.Op }

// Opcode implements Instruction.
func (i *UnaryOp) Opcode() Opcode { return i.Op }

// Opcode implements Instruction.
func (*Freeze) Opcode() Opcode { return OpFreeze }

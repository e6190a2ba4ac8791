package air

// Incoming is one (value, predecessor) pair of a phi.
type Incoming struct {
	Value Value
	Block *Block
}

// Phi selects a value by the predecessor the block was entered from.
type Phi struct {
	InstBase
	Incoming []Incoming
	FastMath FastMath
}

// Select is select Cond, X, Y.
type Select struct {
	InstBase
	Cond, X, Y Value
	FastMath   FastMath
}

// Opcode implements Instruction.
func (*Phi) Opcode() Opcode { return OpPhi }

// Opcode implements Instruction.
func (*Select) Opcode() Opcode { return OpSelect }

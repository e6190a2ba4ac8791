package air

// Cast is a conversion (trunc, zext, sitofp, bitcast, addrspacecast, ...);
// the destination type is the instruction's Type.
type Cast struct {
	InstBase
	Op       Opcode
	X        Value
	Flags    WrapFlags
	FastMath FastMath
}

// Opcode implements Instruction.
func (i *Cast) Opcode() Opcode { return i.Op }

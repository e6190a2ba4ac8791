package air

// ExtractElement is extractelement Vec, Index.
type ExtractElement struct {
	InstBase
	Vec, Index Value
}

// InsertElement is insertelement Vec, Elem, Index.
type InsertElement struct {
	InstBase
	Vec, Elem, Index Value
}

// ShuffleVector is shufflevector X, Y, Mask; a mask element of -1 is poison.
// Mask may be shared between instructions: do not modify it.
type ShuffleVector struct {
	InstBase
	X, Y Value
	Mask []int
}

// Opcode implements Instruction.
func (*ExtractElement) Opcode() Opcode { return OpExtractElement }

// Opcode implements Instruction.
func (*InsertElement) Opcode() Opcode { return OpInsertElement }

// Opcode implements Instruction.
func (*ShuffleVector) Opcode() Opcode { return OpShuffleVector }

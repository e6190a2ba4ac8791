package air

// ExtractValue is extractvalue Agg, Indices...
type ExtractValue struct {
	InstBase
	Agg     Value
	Indices []uint32
}

// InsertValue is insertvalue Agg, Val, Indices...
type InsertValue struct {
	InstBase
	Agg, Val Value
	Indices  []uint32
}

// Opcode implements Instruction.
func (*ExtractValue) Opcode() Opcode { return OpExtractValue }

// Opcode implements Instruction.
func (*InsertValue) Opcode() Opcode { return OpInsertValue }

package air

// Alloca reserves Count elements of Elem on the stack; Type is the pointer.
type Alloca struct {
	InstBase
	Elem      Type
	Count     Value
	Align     uint64
	InAlloca  bool
	SwiftErr  bool
	AddrSpace int
}

// Load reads a value of the instruction's Type from Ptr.
type Load struct {
	InstBase
	Ptr       Value
	Align     uint64
	Volatile  bool
	Ordering  Ordering
	SyncScope uint64
}

// Store writes Val to Ptr.
type Store struct {
	InstBase
	Val, Ptr  Value
	Align     uint64
	Volatile  bool
	Ordering  Ordering
	SyncScope uint64
}

// GEP is getelementptr: Base offset by Indices over SourceElem.
type GEP struct {
	InstBase
	SourceElem Type
	Base       Value
	Indices    []Value
	InBounds   bool
	// NUSW and NUW are LLVM 19's no-unsigned-signed-wrap and
	// no-unsigned-wrap flags (inbounds implies NUSW).
	NUSW, NUW bool
}

// Opcode implements Instruction.
func (*Alloca) Opcode() Opcode { return OpAlloca }

// Opcode implements Instruction.
func (*Load) Opcode() Opcode { return OpLoad }

// Opcode implements Instruction.
func (*Store) Opcode() Opcode { return OpStore }

// Opcode implements Instruction.
func (*GEP) Opcode() Opcode { return OpGetElementPtr }

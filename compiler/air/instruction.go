package air

// Instruction is one instruction. Implementers (one file per family):
// *BinOp, *UnaryOp (binary.go); *Cast (cast.go); *Alloca, *Load, *Store,
// *GEP (memory.go); *Cmp (compare.go); *Phi, *Select (phi_select.go);
// *Call (call.go); *Ret, *Br, *Switch, *Unreachable (terminator.go);
// *ExtractElement, *InsertElement, *ShuffleVector (vector.go);
// *ExtractValue, *InsertValue (aggregate.go); *AtomicRMW, *CmpXchg, *Fence
// (atomic.go); *Freeze (binary.go).
type Instruction interface {
	Value
	// Opcode is the instruction's operation.
	Opcode() Opcode
	// Common returns the fields every instruction has.
	Common() *InstBase
	isInstruction()
}

// InstBase holds what every instruction has: its result type (void when it
// has none), its name (empty when unnamed), its block, its metadata
// attachments and its debug location.
type InstBase struct {
	Typ      Type
	Name     string
	Parent   *Block
	Attached []Attachment
	Loc      *DebugLoc
}

// Type implements Value.
func (b *InstBase) Type() Type { return b.Typ }

// Common implements Instruction.
func (b *InstBase) Common() *InstBase { return b }

func (*InstBase) isInstruction() {}

// HasResult reports whether the instruction produces a value (non-void type).
func HasResult(i Instruction) bool {
	_, void := i.Type().(*VoidType)
	return !void
}

// Attachment is one metadata attachment: !kind !node.
type Attachment struct {
	Kind string
	Node Metadata
}

// DebugLoc is an instruction's source location (!dbg !DILocation(...)).
type DebugLoc struct {
	Line, Col        uint64
	Scope, InlinedAt Metadata
	Implicit         bool
}

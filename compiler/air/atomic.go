package air

// RMWOp is an atomicrmw operation, numbered as LLVM's bitcode encodes it.
type RMWOp uint8

var rmwNames = [...]string{"xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin", "fadd", "fsub", "fmax", "fmin", "uinc_wrap", "udec_wrap"}

// String is the operation's LLVM name.
func (o RMWOp) String() string {
	if int(o) < len(rmwNames) {
		return rmwNames[o]
	}
	return "rmw?"
}

// AtomicRMW is atomicrmw Op Ptr, Val.
type AtomicRMW struct {
	InstBase
	Op        RMWOp
	Ptr, Val  Value
	Ordering  Ordering
	SyncScope uint64
	Align     uint64
	Volatile  bool
}

// CmpXchg is cmpxchg Ptr, Cmp, New; its type is { T, i1 }.
type CmpXchg struct {
	InstBase
	Ptr, Cmp, New    Value
	Success, Failure Ordering
	SyncScope        uint64
	Align            uint64
	Volatile, Weak   bool
}

// Fence is fence.
type Fence struct {
	InstBase
	Ordering  Ordering
	SyncScope uint64
}

// Opcode implements Instruction.
func (*AtomicRMW) Opcode() Opcode { return OpAtomicRMW }

// Opcode implements Instruction.
func (*CmpXchg) Opcode() Opcode { return OpCmpXchg }

// Opcode implements Instruction.
func (*Fence) Opcode() Opcode { return OpFence }

package air

// Opcode names an instruction or constant-expression operation.
type Opcode uint8

// The opcodes, named as LLVM text names them (String).
const (
	OpInvalid Opcode = iota
	// terminators
	OpRet
	OpBr
	OpSwitch
	OpUnreachable
	// unary and binary
	OpFNeg
	OpAdd
	OpFAdd
	OpSub
	OpFSub
	OpMul
	OpFMul
	OpUDiv
	OpSDiv
	OpFDiv
	OpURem
	OpSRem
	OpFRem
	OpShl
	OpLShr
	OpAShr
	OpAnd
	OpOr
	OpXor
	// memory
	OpAlloca
	OpLoad
	OpStore
	OpGetElementPtr
	OpFence
	OpCmpXchg
	OpAtomicRMW
	// casts
	OpTrunc
	OpZExt
	OpSExt
	OpFPToUI
	OpFPToSI
	OpUIToFP
	OpSIToFP
	OpFPTrunc
	OpFPExt
	OpPtrToInt
	OpIntToPtr
	OpBitCast
	OpAddrSpaceCast
	// other
	OpICmp
	OpFCmp
	OpPhi
	OpCall
	OpSelect
	OpExtractElement
	OpInsertElement
	OpShuffleVector
	OpExtractValue
	OpInsertValue
	OpFreeze
	opCount
)

var opNames = [opCount]string{
	"invalid", "ret", "br", "switch", "unreachable",
	"fneg", "add", "fadd", "sub", "fsub", "mul", "fmul", "udiv", "sdiv", "fdiv", "urem", "srem", "frem",
	"shl", "lshr", "ashr", "and", "or", "xor",
	"alloca", "load", "store", "getelementptr", "fence", "cmpxchg", "atomicrmw",
	"trunc", "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp", "fptrunc", "fpext", "ptrtoint", "inttoptr", "bitcast", "addrspacecast",
	"icmp", "fcmp", "phi", "call", "select", "extractelement", "insertelement", "shufflevector", "extractvalue", "insertvalue", "freeze",
}

// String is the opcode's LLVM text name (fadd, getelementptr, ...).
func (o Opcode) String() string {
	if o < opCount {
		return opNames[o]
	}
	return "op?"
}

// IsCast reports whether o is a cast opcode.
func (o Opcode) IsCast() bool { return o >= OpTrunc && o <= OpAddrSpaceCast }

// IsBinary reports whether o is a binary arithmetic or logic opcode.
func (o Opcode) IsBinary() bool { return o >= OpAdd && o <= OpXor }

// WrapFlags are the poison-generating flags of integer operations.
type WrapFlags uint8

// The flags.
const (
	NUW      WrapFlags = 1 << iota // nuw (add, sub, mul, shl, trunc)
	NSW                            // nsw
	Exact                          // exact (udiv, sdiv, lshr, ashr)
	Disjoint                       // disjoint (or)
	NonNeg                         // nneg (zext, uitofp)
)

// FastMath are an instruction's fast-math flags, bits as LLVM's bitcode encodes them.
type FastMath uint8

// The fast-math flags (bitcode bit order).
const (
	UnsafeAlgebra   FastMath = 1 << 0 // old "fast"; read as all flags
	NoNaNs          FastMath = 1 << 1
	NoInfs          FastMath = 1 << 2
	NoSignedZeros   FastMath = 1 << 3
	AllowReciprocal FastMath = 1 << 4
	AllowContract   FastMath = 1 << 5
	ApproxFunc      FastMath = 1 << 6
	AllowReassoc    FastMath = 1 << 7
)

// ApproximatesDivision reports whether an fdiv carrying flags f may return
// other than the correctly rounded quotient (LLVM LangRef, "Fast-Math
// Flags"): fast (every flag; the old UnsafeAlgebra bit reads as it), arcp
// (x / y may be computed as x * (1 / y), two roundings) or afn (an
// approximate calculation may be substituted, as targets do for division:
// NVPTX's div.approx, AMDGPU's rcp). Metal emits these only under fast math,
// where MSL Table 8.2 bounds x / y at 2.5 ulp. The other flags do not change
// the quotient of finite operands: nnan, ninf and nsz make NaN, infinite and
// zero-sign cases poison or unspecified, contract and reassoc license fusing
// and reordering with other instructions (which the module's compiler has
// already done or not).
func (f FastMath) ApproximatesDivision() bool {
	return f&(UnsafeAlgebra|AllowReciprocal|ApproxFunc) != 0
}

// Predicate is a comparison predicate, numbered as LLVM's CmpInst::Predicate.
type Predicate uint8

var predNames = map[Predicate]string{
	0: "false", 1: "oeq", 2: "ogt", 3: "oge", 4: "olt", 5: "ole", 6: "one", 7: "ord",
	8: "uno", 9: "ueq", 10: "ugt", 11: "uge", 12: "ult", 13: "ule", 14: "une", 15: "true",
	32: "eq", 33: "ne", 34: "ugt", 35: "uge", 36: "ult", 37: "ule", 38: "sgt", 39: "sge", 40: "slt", 41: "sle",
}

// String is the predicate's LLVM name (oeq, slt, ...).
func (p Predicate) String() string {
	if s, ok := predNames[p]; ok {
		return s
	}
	return "pred?"
}

// IsFloat reports whether p is an fcmp predicate.
func (p Predicate) IsFloat() bool { return p <= 15 }

// Ordering is an atomic ordering, numbered as LLVM's AtomicOrdering.
type Ordering uint8

// The orderings.
const (
	NotAtomic Ordering = iota
	Unordered
	Monotonic
	_
	Acquire
	Release
	AcqRel
	SeqCst
)

var orderingNames = [...]string{"", "unordered", "monotonic", "consume", "acquire", "release", "acq_rel", "seq_cst"}

// String is the ordering's LLVM name.
func (o Ordering) String() string {
	if int(o) < len(orderingNames) {
		return orderingNames[o]
	}
	return "ordering?"
}

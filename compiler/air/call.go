package air

// TailKind is a call's tail marker.
type TailKind uint8

// The tail markers.
const (
	NoTail TailKind = iota
	Tail
	MustTail
	NoTailCall
)

// Call calls Callee (usually a *Function) with Args.
type Call struct {
	InstBase
	Callee      Value
	Sig         *FunctionType
	Args        []Value
	CallingConv uint32
	Tail        TailKind
	FastMath    FastMath
	Attrs       AttributeList
	// Bundles are operand bundles ("name"(operands)).
	Bundles []Bundle
}

// Bundle is one operand bundle of a call.
type Bundle struct {
	Tag  string
	Args []Value
}

// Called returns the called function, or nil for an indirect call.
func (c *Call) Called() *Function {
	f, _ := c.Callee.(*Function)
	return f
}

// Opcode implements Instruction.
func (*Call) Opcode() Opcode { return OpCall }

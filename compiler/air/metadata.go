package air

// Metadata is a metadata node or leaf. Implementers: *MDString, *MDNode,
// *MDValue, *DINode.
type Metadata interface{ isMetadata() }

// MDString is !"text".
type MDString struct{ Value string }

// MDNode is a generic node !{...}; a nil operand is null.
type MDNode struct {
	Ops      []Metadata
	Distinct bool
}

// MDValue is a value used as metadata (a constant, global or function: `i32 1`, `ptr @f`).
type MDValue struct{ Value Value }

// DINode is a specialised debug-info node, kept as its bitcode record: Kind
// is the record's name (DILocation, DISubprogram, ...) and Ops its raw
// operands (metadata references are metadata ids plus one, as in the bitcode).
type DINode struct {
	Kind     string
	Distinct bool
	Ops      []uint64
	// Refs[i] is the metadata operand i names when it is a reference
	// (Ops[i]-1 indexes the metadata list); nil otherwise. Which operands
	// are references depends on Kind.
	Refs []Metadata
}

func (*MDString) isMetadata() {}
func (*MDNode) isMetadata()   {}
func (*MDValue) isMetadata()  {}
func (*DINode) isMetadata()   {}

// NamedMD is !name = !{...}.
type NamedMD struct {
	Name  string
	Nodes []Metadata
}

// StringOp returns node operand i as a string, or "" and false.
func StringOp(n *MDNode, i int) (string, bool) {
	if i < 0 || i >= len(n.Ops) {
		return "", false
	}
	s, ok := n.Ops[i].(*MDString)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// IntOp returns node operand i as an integer constant, or 0 and false.
func IntOp(n *MDNode, i int) (int64, bool) {
	if i < 0 || i >= len(n.Ops) {
		return 0, false
	}
	v, ok := n.Ops[i].(*MDValue)
	if !ok {
		return 0, false
	}
	c, ok := v.Value.(*ConstInt)
	if !ok {
		return 0, false
	}
	return c.Int64(), true
}

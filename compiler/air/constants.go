package air

// Constant is a constant value. Implementers: *ConstInt, *ConstFloat,
// *ConstNull, *ConstZero, *ConstUndef, *ConstPoison, *ConstAggregate,
// *ConstExpr, *GlobalVariable, *Function.
type Constant interface {
	Value
	isConstant()
}

// ConstInt is an integer constant. Bits holds the value's bits zero-extended
// above the type's width (for widths up to 64); Wide holds all 64-bit words,
// least significant first, for wider integers.
type ConstInt struct {
	Typ  *IntType
	Bits uint64
	Wide []uint64
}

// Int64 is the constant sign-extended from its width.
func (c *ConstInt) Int64() int64 {
	w := c.Typ.Bits
	if w >= 64 {
		return int64(c.Bits)
	}
	s := uint(64 - w)
	return int64(c.Bits<<s) >> s
}

// ConstFloat is a floating-point constant; Bits is its IEEE encoding (for
// x86_fp80/fp128 the low word, with Hi the high word).
type ConstFloat struct {
	Typ  *FloatType
	Bits uint64
	Hi   uint64
}

// ConstNull is the null pointer of a pointer type (or the none token).
type ConstNull struct{ Typ Type }

// ConstZero is zeroinitializer of a vector, array or struct type.
type ConstZero struct{ Typ Type }

// ConstUndef is undef.
type ConstUndef struct{ Typ Type }

// ConstPoison is poison.
type ConstPoison struct{ Typ Type }

// ConstAggregate is a struct, array or vector constant with explicit
// elements (from CST_CODE_AGGREGATE, CST_CODE_DATA or CST_CODE_STRING).
type ConstAggregate struct {
	Typ   Type
	Elems []Constant
}

// ConstExpr is a constant expression: a cast, a getelementptr, a binary
// operation, and so on. Op says which; Ops are its operands.
type ConstExpr struct {
	Typ Type
	Op  Opcode
	Ops []Constant
	// Flags holds nuw/nsw/exact for binary operations.
	Flags WrapFlags
	// GEP fields: the source element type, inbounds, and the inrange index
	// (-1 none); for a GEP, Flags bit 0 is nusw and bit 1 nuw.
	SourceElem Type
	InBounds   bool
	InRange    int
	// Pred is the predicate of a compare expression.
	Pred Predicate
	// Indices holds extractvalue/insertvalue indices.
	Indices []uint32
}

func (*ConstInt) isConstant()       {}
func (*ConstFloat) isConstant()     {}
func (*ConstNull) isConstant()      {}
func (*ConstZero) isConstant()      {}
func (*ConstUndef) isConstant()     {}
func (*ConstPoison) isConstant()    {}
func (*ConstAggregate) isConstant() {}
func (*ConstExpr) isConstant()      {}
func (*GlobalVariable) isConstant() {}
func (*Function) isConstant()       {}

// Type implements Value.
func (c *ConstInt) Type() Type { return c.Typ }

// Type implements Value.
func (c *ConstFloat) Type() Type { return c.Typ }

// Type implements Value.
func (c *ConstNull) Type() Type { return c.Typ }

// Type implements Value.
func (c *ConstZero) Type() Type { return c.Typ }

// Type implements Value.
func (c *ConstUndef) Type() Type { return c.Typ }

// Type implements Value.
func (c *ConstPoison) Type() Type { return c.Typ }

// Type implements Value.
func (c *ConstAggregate) Type() Type { return c.Typ }

// Type implements Value.
func (c *ConstExpr) Type() Type { return c.Typ }

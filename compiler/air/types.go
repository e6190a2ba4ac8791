package air

import (
	"strconv"
	"strings"
)

// Type is an LLVM type. Implementers: *VoidType, *LabelType, *MetadataType,
// *TokenType, *IntType, *FloatType, *PointerType, *VectorType, *ArrayType,
// *StructType, *FunctionType.
type Type interface {
	// String is the type in LLVM 19 text syntax (pointers print as ptr).
	String() string
	isType()
}

// VoidType is void.
type VoidType struct{}

// LabelType is the type of a basic block.
type LabelType struct{}

// MetadataType is the type of metadata used as a value.
type MetadataType struct{}

// TokenType is token.
type TokenType struct{}

// IntType is iN.
type IntType struct{ Bits int }

// FloatKind says which floating-point format a FloatType is.
type FloatKind uint8

// The floating-point formats.
const (
	Half FloatKind = iota
	BFloat
	Float
	Double
	X86FP80
	FP128
	PPCFP128
)

// FloatType is half, bfloat, float, double, x86_fp80, fp128 or ppc_fp128.
type FloatType struct{ Kind FloatKind }

// PointerType is a pointer in an address space. Elem is the pointee type of
// a typed pointer and nil for an opaque pointer (ptr).
type PointerType struct {
	Elem      Type
	AddrSpace int
}

// VectorType is <N x T> (or <vscale x N x T>).
type VectorType struct {
	Len      int
	Elem     Type
	Scalable bool
}

// ArrayType is [N x T].
type ArrayType struct {
	Len  uint64
	Elem Type
}

// StructType is a literal ({...}, <{...}>) or identified (%name) struct.
// Opaque identified structs have no fields and Opaque set.
type StructType struct {
	Name    string // empty for literal structs and unnamed identified ones
	Fields  []Type
	Packed  bool
	Literal bool // literal (structural) rather than identified
	Opaque  bool
	// ID numbers unnamed identified structs (%0, %1 ...) in module order.
	ID int
}

// FunctionType is ret (params...).
type FunctionType struct {
	Ret    Type
	Params []Type
	VarArg bool
}

func (*VoidType) isType()     {}
func (*LabelType) isType()    {}
func (*MetadataType) isType() {}
func (*TokenType) isType()    {}
func (*IntType) isType()      {}
func (*FloatType) isType()    {}
func (*PointerType) isType()  {}
func (*VectorType) isType()   {}
func (*ArrayType) isType()    {}
func (*StructType) isType()   {}
func (*FunctionType) isType() {}

// String implements Type.
func (*VoidType) String() string { return "void" }

// String implements Type.
func (*LabelType) String() string { return "label" }

// String implements Type.
func (*MetadataType) String() string { return "metadata" }

// String implements Type.
func (*TokenType) String() string { return "token" }

// String implements Type.
func (t *IntType) String() string { return "i" + strconv.Itoa(t.Bits) }

var floatNames = [...]string{"half", "bfloat", "float", "double", "x86_fp80", "fp128", "ppc_fp128"}

// String implements Type.
func (t *FloatType) String() string { return floatNames[t.Kind] }

// String implements Type. Typed pointers print as LLVM 19 does: ptr.
func (t *PointerType) String() string {
	if t.AddrSpace != 0 {
		return "ptr addrspace(" + strconv.Itoa(t.AddrSpace) + ")"
	}
	return "ptr"
}

// String implements Type.
func (t *VectorType) String() string {
	if t.Scalable {
		return "<vscale x " + strconv.Itoa(t.Len) + " x " + t.Elem.String() + ">"
	}
	return "<" + strconv.Itoa(t.Len) + " x " + t.Elem.String() + ">"
}

// String implements Type.
func (t *ArrayType) String() string {
	return "[" + strconv.FormatUint(t.Len, 10) + " x " + t.Elem.String() + "]"
}

// String implements Type: %name for identified structs, the body for literal ones.
func (t *StructType) String() string {
	if !t.Literal {
		if t.Name == "" {
			return "%" + strconv.Itoa(t.ID)
		}
		return "%" + QuoteName(t.Name)
	}
	return t.Body()
}

// Body is the struct's field list in LLVM syntax ({ a, b }, <{ a }>, {}, or opaque).
func (t *StructType) Body() string { return t.BodyWith(Type.String) }

// BodyWith is Body with each field's type written by name (a printer that
// numbers identified structs its own way passes its own).
func (t *StructType) BodyWith(name func(Type) string) string {
	if t.Opaque {
		return "opaque"
	}
	var b strings.Builder
	if t.Packed {
		b.WriteByte('<')
	}
	if len(t.Fields) == 0 {
		b.WriteString("{}")
	} else {
		b.WriteString("{ ")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(name(f))
		}
		b.WriteString(" }")
	}
	if t.Packed {
		b.WriteByte('>')
	}
	return b.String()
}

// String implements Type.
func (t *FunctionType) String() string {
	var b strings.Builder
	b.WriteString(t.Ret.String())
	b.WriteString(" (")
	for i, p := range t.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.String())
	}
	if t.VarArg {
		if len(t.Params) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("...")
	}
	b.WriteByte(')')
	return b.String()
}

// Shared singletons for the types without parameters.
var (
	Void     = &VoidType{}
	Label    = &LabelType{}
	MDType   = &MetadataType{}
	Token    = &TokenType{}
	HalfTy   = &FloatType{Kind: Half}
	BFloatTy = &FloatType{Kind: BFloat}
	FloatTy  = &FloatType{Kind: Float}
	DoubleTy = &FloatType{Kind: Double}
)

// ElemType returns the element type of a vector, array or typed pointer, or nil.
func ElemType(t Type) Type {
	switch t := t.(type) {
	case *VectorType:
		return t.Elem
	case *ArrayType:
		return t.Elem
	case *PointerType:
		return t.Elem
	}
	return nil
}

// Scalar returns the element type of a vector and t itself otherwise.
func Scalar(t Type) Type {
	if v, ok := t.(*VectorType); ok {
		return v.Elem
	}
	return t
}

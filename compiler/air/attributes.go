package air

import "math/big"

// Attribute is one function, return or parameter attribute.
type Attribute struct {
	// Kind is the attribute's LLVM name ("nocapture", "align",
	// "dereferenceable", "memory") or, for a string attribute, its key.
	Kind string
	// String attributes ("key"="value") set IsString and Value.
	IsString bool
	Value    string
	// Integer attributes (align 4, dereferenceable(64), memory(...)) set HasInt and Int.
	HasInt bool
	Int    uint64
	// Type attributes (byval(T), sret(T), elementtype(T)) set Type.
	Type Type
	// Constant-range attributes set Ranges: range(i32 0, 10) one range of
	// RangeBits-bit integers, initializes((0, 4), (8, 12)) one or more
	// ranges of 64-bit integers. Each is half-open, its bounds signed.
	Ranges    []AttrRange
	RangeBits int
}

// AttrRange is one range [Lo, Hi) of a constant-range attribute.
type AttrRange struct {
	Lo, Hi *big.Int
}

// AttrSet is the attributes of one position, in the order LLVM prints them.
type AttrSet []Attribute

// Has reports whether the set holds an attribute of the given kind.
func (s AttrSet) Has(kind string) bool {
	for _, a := range s {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

// AttributeList is the attributes of a function or call site.
type AttributeList struct {
	Fn     AttrSet
	Ret    AttrSet
	Params []AttrSet // indexed by parameter number; may be shorter than the parameter list
	// Group is the PARAMATTR entry this list came from (-1 when none); the
	// printer uses it only to number attribute groups.
	Group int
}

// Param returns the attributes of parameter i (nil when none).
func (l AttributeList) Param(i int) AttrSet {
	if i < len(l.Params) {
		return l.Params[i]
	}
	return nil
}

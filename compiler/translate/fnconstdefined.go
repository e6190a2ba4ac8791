package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Metal's is_function_constant_defined(name) (ABI.md, "Function
// constants"): true when the app gave function constant name a value at
// pipeline creation. A SPIR-V specialization constant always has a value
// (its default when the pipeline does not specialise it), so whether one
// was given cannot be read off the value itself: each function constant the
// function asks about gets a second, boolean spec constant, its "defined"
// flag, with SpecId fnConstDefinedBase + its index and default false (no
// value given). The runtime sets the flag to true exactly when it
// specialises the constant's value (SpecId fnConstSpecBase + index);
// reflection lists the flag under spec_constants with "defined": true.

// fnConstDefinedBase is the SpecId of function constant 0's defined flag:
// past every value's SpecId (fnConstSpecBase + maxFnConstIndex), so a
// flag's SpecId is its value's plus 65536.
const fnConstDefinedBase = fnConstSpecBase + maxFnConstIndex + 1

// fnConstDefined lowers air.is_function_constant_defined(ptr @G).
func (t *translator) fnConstDefined(c *air.Call) (spirv.ID, bool) {
	if len(c.Args) != 1 || intBits(c.Type()) != 1 || lanes(c.Type()) != 1 || !isPointer(c.Args[0].Type()) {
		return 0, false
	}
	fc, zero := t.fnConstAt(c.Args[0])
	switch {
	case fc == nil || !zero:
		t.miss.add(CodeUnsupportedInterface, "air.is_function_constant_defined of a pointer that is no function constant")
		return t.undefResult(c), true
	case fc.bad != "":
		t.miss.add(CodeUnsupportedInterface, fc.bad)
		return t.undefResult(c), true
	}
	if fc.defined == 0 {
		id := t.b.SpecConstantFalse(t.b.TypeBool())
		sid := uint32(fnConstDefinedBase + fc.index)
		t.b.Decorate(id, spirv.DecorationSpecId, sid)
		t.b.Name(id, fc.name+".defined")
		t.refl.SpecConstants = append(t.refl.SpecConstants, SpecConstant{ID: sid, Index: fc.index, Name: fc.name, Type: "bool", Defined: true})
		fc.defined = id
	}
	return fc.defined, true
}

package translate

import (
	"errors"
	"reflect"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// TestFnConstDefined: each constant asked about gets a bool spec constant,
// default false, at SpecId 65636 + index, listed with "defined" in the
// reflection beside the value's own spec constant; spirv-val accepts it.
func TestFnConstDefined(t *testing.T) {
	needValidator(t)
	out := translatedFixture(t, "fnconst_defined.ll")
	mustValidate(t, out.SPIRV)
	want := []SpecConstant{
		{ID: 107, Index: 7, Name: "pitch", Type: "ushort"},
		{ID: 65643, Index: 7, Name: "pitch", Type: "bool", Defined: true},
		{ID: 105636, Index: 40000, Name: "fast", Type: "bool", Defined: true},
	}
	if !reflect.DeepEqual(out.Reflection.SpecConstants, want) {
		t.Errorf("spec constants %+v\nwant %+v", out.Reflection.SpecConstants, want)
	}
	// Both flags default to false: OpSpecConstantFalse, never True.
	counts := opcodeCounts(out.SPIRV)
	if counts[spirv.OpSpecConstantFalse] != 2 || counts[spirv.OpSpecConstantTrue] != 0 {
		t.Errorf("SpecConstantFalse %d, SpecConstantTrue %d: want 2 and 0", counts[spirv.OpSpecConstantFalse], counts[spirv.OpSpecConstantTrue])
	}
}

// TestFnConstDefinedRefused: asking about a global that is no function
// constant is refused by name.
func TestFnConstDefinedRefused(t *testing.T) {
	m, ep := fixtureEntry(t, "fnconst_defined_refused.ll")
	_, err := Translate(m, ep)
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("want a MissingError, got %v", err)
	}
	want := []Finding{{CodeUnsupportedInterface, "air.is_function_constant_defined of a pointer that is no function constant"}}
	if !reflect.DeepEqual(me.Missing, want) {
		t.Errorf("missing = %v\nwant      %v", me.Missing, want)
	}
}

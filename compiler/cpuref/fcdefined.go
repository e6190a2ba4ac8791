package cpuref

import "strings"

// isDefinedOp defines air.is_function_constant_defined(ptr addrspace(2)
// @G): Metal's is_function_constant_defined(name), true when the app gave
// function constant name a value at pipeline creation. The reference gives
// every function constant of !air.function_constants a value
// (FunctionConstantWord) or sets the module aside, and the device is
// specialised with the same values and their defined flags; Metal's
// compiler asks only about listed constants. So it is true.
func isDefinedOp(d declaration) (string, error) {
	if d.Ret != "i1" || len(d.Params) != 1 || !strings.HasPrefix(d.Params[0], "ptr") {
		return "", notJudgeable(KindFunctionConstant, d.Name, "%s of type %s(%s), not i1(ptr)", d.Name, d.Ret, strings.Join(d.Params, ", "))
	}
	return "define internal i1 @\"air.is_function_constant_defined\"(" + d.Params[0] + " %g) {\n  ret i1 true\n}\n", nil
}

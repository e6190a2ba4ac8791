package cpuref

import (
	"fmt"
	"strings"
)

// nullTextureOp defines air.is_null_texture_<dim> (MSL's is_null_texture):
// true when the texture operand is a null pointer. Every texture argument
// the reference gives is a pointer to its internal texture object, never
// null, so for them it is false — what compiler/translate lowers it to for
// a bound texture. ok is false for any other declaration.
func nullTextureOp(d declaration) (string, bool) {
	if !strings.HasPrefix(d.Name, "air.is_null_texture_") || d.Ret != "i1" || len(d.Params) != 1 || d.Params[0] != "ptr addrspace(1)" {
		return "", false
	}
	return fmt.Sprintf("define internal i1 @%q(ptr addrspace(1) %%a0) {\nentry:\n  %%n = icmp eq ptr addrspace(1) %%a0, null\n  ret i1 %%n\n}\n", d.Name), true
}

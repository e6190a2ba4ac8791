package spirv

import (
	"strings"
	"testing"
)

func TestValidationErrorDetail(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"error: line 12: ID 34[%x] has not been defined\n  %5 = OpLoad %int %x\n", "ID N[%x] has not been defined"},
		{"  error: line 7: Expected Result Type to be a float scalar type", "Expected Result Type to be a float scalar type"},
		{"OpEntryPoint 3 needs 1024 ids", "OpEntryPoint N needs N ids"},
		{"error: line 1: " + strings.Repeat("x", 200), strings.Repeat("x", 120)},
		{"", ""},
	} {
		if got := (&ValidationError{Output: tc.out}).Detail(); got != tc.want {
			t.Errorf("Detail(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

package translate

import (
	"context"
	"errors"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// TestConstructionDefects translates one fixture per class of invalid
// SPIR-V the translator once produced; each must now validate.
func TestConstructionDefects(t *testing.T) {
	needValidator(t)
	for _, name := range []string{
		"defect_alloca_callee", // a callee used its caller's Function variable
	} {
		t.Run(name, func(t *testing.T) {
			m, ep := fixtureEntry(t, name+".ll")
			out, err := Translate(m, ep)
			if err != nil {
				t.Fatalf("Translate: %v", err)
			}
			if err := spirv.Validate(context.Background(), out.SPIRV); err != nil {
				var ve *spirv.ValidationError
				if errors.As(err, &ve) {
					t.Fatalf("spirv-val rejects: %s", firstErrorLine(ve.Output))
				}
				t.Fatal(err)
			}
		})
	}
}

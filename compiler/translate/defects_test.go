package translate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// TestConstructionDefects translates one fixture per class of invalid
// SPIR-V the translator once produced; each must now validate.
func TestConstructionDefects(t *testing.T) {
	needValidator(t)
	for _, name := range []string{
		"defect_alloca_callee", // a callee used its caller's Function variable
		"defect_switch_widths", // switch on i64 / i16 / i1 selectors
		"bfloat_round",         // bfloat values, memory, arithmetic and rounding
	} {
		t.Run(name, func(t *testing.T) {
			out := translatedFixture(t, name+".ll")
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

// TestValueFlowContract: a loop with a return inside it is structured with a
// dispatch node, after which the exit blocks are no longer dominated by the
// blocks whose values they use. Demoted, those values validate; left in
// registers (the check switched off), spirv-val rejects the dominance.
func TestValueFlowContract(t *testing.T) {
	needValidator(t)
	succ := [][]int{{1}, {2, 4}, {3, 5}, {1}, {}, {}}
	m, ep := randomKernel(succ)
	for _, keep := range []bool{false, true} {
		out, err := translate(m, ep, options{keepCrossing: keep})
		if err != nil {
			t.Fatalf("keepCrossing %v: %v", keep, err)
		}
		err = spirv.Validate(context.Background(), out.SPIRV)
		var ve *spirv.ValidationError
		switch {
		case !keep && err != nil:
			t.Fatalf("demoted: %v", err)
		case keep && !errors.As(err, &ve):
			t.Fatalf("values left in registers: want a dominance rejection, got %v", err)
		case keep && !strings.Contains(ve.Output, "does not dominate"):
			t.Fatalf("values left in registers: %s", firstErrorLine(ve.Output))
		}
	}
}

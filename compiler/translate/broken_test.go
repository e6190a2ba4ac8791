package translate

import (
	"context"
	"errors"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// TestValidatorRejectsBrokenTranslation breaks the translator on purpose
// (no merge instructions: unstructured control flow) and checks that
// spirv-val rejects the result, so a validator pass means something.
func TestValidatorRejectsBrokenTranslation(t *testing.T) {
	needValidator(t)
	m, ep := fixtureEntry(t, "kernel_loop.ll")
	good, err := translate(m, ep, options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := spirv.Validate(context.Background(), good.SPIRV); err != nil {
		t.Fatalf("the intact translation is rejected: %v", err)
	}
	bad, err := translate(m, ep, options{dropMerges: true})
	if err != nil {
		t.Fatal(err)
	}
	err = spirv.Validate(context.Background(), bad.SPIRV)
	var ve *spirv.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("spirv-val accepted a module without merge instructions (err %v)", err)
	}
	t.Logf("verdict: %s", firstErrorLine(ve.Output))
}

package stages

import (
	"errors"
	"fmt"
	"testing"

	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/pipeline"
)

// TestTranslateFailure: missing features keep their own codes, a library
// function is unjudged, and any other translator error is an internal error,
// never spirv-val's invalid-spirv verdict.
func TestTranslateFailure(t *testing.T) {
	missing := &translate.MissingError{Entry: "f", Missing: []translate.Finding{
		{Code: translate.CodeUnsupportedCFG, Detail: "irreducible"},
		{Code: translate.CodeUnsupportedType, Detail: "bfloat"},
	}}
	library := &translate.MissingError{Entry: "f", Missing: []translate.Finding{{Code: translate.CodeLibraryFunction, Detail: "air.visible"}}}
	for _, c := range []struct {
		name    string
		err     error
		status  pipeline.Status
		code    string
		missing int
	}{
		{"missing features", fmt.Errorf("wrapped: %w", missing), pipeline.Failed, translate.CodeUnsupportedCFG, 2},
		{"library function", library, pipeline.Unjudged, translate.CodeLibraryFunction, 0},
		{"internal error", errors.New("translate @f: entry point has no body"), pipeline.Failed, CodeInternalError, 0},
		{"empty missing list", &translate.MissingError{Entry: "f"}, pipeline.Failed, CodeInternalError, 0},
	} {
		r := translateFailure(c.err)
		if r.Status != c.status || r.Code != c.code || len(r.Missing) != c.missing {
			t.Errorf("%s: %s %s (%d missing), want %s %s (%d)", c.name, r.Status, r.Code, len(r.Missing), c.status, c.code, c.missing)
		}
		if r.Code == translate.CodeInvalidSPIRV {
			t.Errorf("%s: a translator error reported as spirv-val's verdict", c.name)
		}
	}
}

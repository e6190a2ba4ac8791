package stages

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
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
		code    codes.Code
		missing int
	}{
		{"missing features", fmt.Errorf("wrapped: %w", missing), pipeline.Failed, translate.CodeUnsupportedCFG, 2},
		{"library function", library, pipeline.Unjudged, translate.CodeLibraryFunction, 0},
		{"internal error", errors.New("translate @f: entry point has no body"), pipeline.Failed, codes.TranslateInternalError, 0},
		{"empty missing list", &translate.MissingError{Entry: "f"}, pipeline.Failed, codes.TranslateInternalError, 0},
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

// TestValidationFailure: each way spirv-val can end maps to its own outcome;
// a validator that would not start is unavailable, not a cancelled run.
func TestValidationFailure(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		ctx    context.Context
		err    error
		status pipeline.Status
		code   codes.Code
	}{
		{live, &spirv.ValidationError{Output: "error: line 12: ID 7 has not been defined"}, pipeline.Failed, translate.CodeInvalidSPIRV},
		{live, &spirv.ToolFailure{Tool: "spirv-val", Code: codes.OOM, Msg: "killed"}, pipeline.Failed, codes.OOM},
		{live, fmt.Errorf("%w: spirv-val", spirv.ErrNoValidator), pipeline.Unavailable, ""},
		{live, errors.New("spirv: running spirv-val: exec format error"), pipeline.Unavailable, ""},
		{done, fmt.Errorf("spirv: running spirv-val: %w", context.Canceled), pipeline.Failed, pipeline.CodeCancelled},
	}
	for _, tc := range tests {
		r := validationFailure(tc.ctx, tc.err)
		if r.Status != tc.status || r.Code != tc.code {
			t.Errorf("%v: got %s %q, want %s %q", tc.err, r.Status, r.Code, tc.status, tc.code)
		}
	}
}

// TestTranslateStopsWithItsContext: the translate stage watches its
// context too — a timed-out module is a timeout, not a verdict; with a live
// context the same module translates.
func TestTranslateStopsWithItsContext(t *testing.T) {
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skip("llvm-as-19 not installed")
	}
	m := emuModule(t, filepath.Join("testdata", "emulator", "builtins.ll"))
	m.Function = &mtlb.Function{Name: m.Translation.Entry}
	m.Library = &Library{Source: "x"}
	m.Translation = nil
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if r := translateModule(expired, m); r.Status != pipeline.Failed || r.Code != pipeline.CodeTimeout || m.Translation != nil {
		t.Errorf("timed out: %s %s (%s), translation kept %v", r.Status, r.Code, r.Message, m.Translation != nil)
	}
	if r := translateModule(context.Background(), m); r.Status != pipeline.Passed {
		t.Errorf("live: %s %s (%s)", r.Status, r.Code, r.Message)
	}
}

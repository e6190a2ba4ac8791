package stages

import (
	"testing"

	"github.com/airpipe/airpipe/compiler/libwrap"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// TestDataOnlyLibrary: a row whose module holds data only (globals, no
// function body, no entry point: GPUCompiler's tracepoint libraries) is
// unjudged with its own code whatever the container types the function,
// neither a translate failure nor a pass; a module with a body keeps the
// verdict it had (the extern fixture's row typed kernel: no entry point).
func TestDataOnlyLibrary(t *testing.T) {
	for _, typ := range []uint8{mtlb.FunctionKernel, mtlb.FunctionUnqualified, mtlb.FunctionVisible} {
		_, r := libraryRow(t, "data_only.ll", "__tracepoint_data", typ)
		if r.Status != pipeline.Unjudged || r.Code != libwrap.CodeDataOnly || r.Detail != "globals only" {
			t.Errorf("type %d: %s %s %q (%s), want unjudged %s \"globals only\"", typ, r.Status, r.Code, r.Detail, r.Message, libwrap.CodeDataOnly)
		}
	}
	if _, r := libraryRow(t, "extern_cikernel.ll", "_max3", mtlb.FunctionKernel); r.Code != codes.TranslateNoEntryPoint {
		t.Errorf("a module with bodies: %s %s, want %s", r.Status, r.Code, codes.TranslateNoEntryPoint)
	}
}

package libwrap

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/internal/codes"
)

// CodeDataOnly is the code of a row whose module holds data only
// (DataOnly): unjudged, neither a translate failure nor a pass.
const CodeDataOnly = codes.TranslateDataOnly

// DataOnly reports whether m holds data only: no function with a body and
// no entry point in its metadata, so nothing in it can run or be called
// (GPUCompiler's tracepoint runtime libraries hold only globals such as
// __tracepoint_data.p1i8). Declarations do not count: they have no body to
// translate; nor does an internal static initialiser (section
// air.static_init), which only fills the globals. detail is "globals only",
// or "empty module" when m has no globals either. An entry point listed in
// metadata whose function has no body is no data-only module: that is the
// entry point's own failure.
func DataOnly(m *air.Module) (detail string, ok bool) {
	for _, f := range m.Functions {
		initialiser := f.Section == "air.static_init" && (f.Linkage == air.Internal || f.Linkage == air.Private)
		if !f.IsDeclaration() && !initialiser {
			return "", false
		}
	}
	eps, err := air.EntryPoints(m)
	if err != nil || len(eps) > 0 {
		return "", false
	}
	if len(m.Globals) == 0 {
		return "empty module", true
	}
	return "globals only", true
}

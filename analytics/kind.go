package analytics

// Function kinds, for the report's split of entry points from library
// functions (issue 16: library functions are counted apart, never mixed
// into entry-point percentages).
const (
	// KindEntryPoint is a function a pipeline runs: vertex, fragment,
	// kernel, and the mesh and intersection stages.
	KindEntryPoint = "entry point"
	// KindLibraryFunction is a function other shaders call: visible
	// (stitchable), extern (Core Image kernels) and unqualified
	// functions, measured behind airpipe's wrapper kernel.
	KindLibraryFunction = "library function"
	// KindWholeLibrary is the row of a library that failed as a whole
	// (function index -1): no function to classify.
	KindWholeLibrary = "whole library"
	// KindOther is a function type the library format does not document.
	KindOther = "other"
)

// FunctionKind classifies a row's function type (function_type).
func FunctionKind(functionType string) string {
	switch functionType {
	case "vertex", "fragment", "kernel", "intersection", "mesh?":
		return KindEntryPoint
	case "visible", "extern", "unqualified":
		return KindLibraryFunction
	case "":
		return KindWholeLibrary
	}
	return KindOther
}

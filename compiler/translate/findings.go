package translate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/airpipe/airpipe/internal/codes"
)

// Finding codes. They are stable and append-only; analytics groups by code
// and detail, never by message.
const (
	// CodeUnhandledIntrinsic is an air.* (or llvm.*) function with no lowering; detail is its name.
	CodeUnhandledIntrinsic = codes.TranslateUnhandledIntrinsic
	// CodeUnhandledInstruction is an LLVM instruction (or a form of one) with no lowering; detail is the opcode.
	CodeUnhandledInstruction = codes.TranslateUnhandledInstruction
	// CodeUnsupportedType is a type the translator cannot represent; detail is the LLVM type.
	CodeUnsupportedType = codes.TranslateUnsupportedType
	// CodeUnsupportedCFG is a control-flow shape outside the structured subset; detail names the shape.
	CodeUnsupportedCFG = codes.TranslateUnsupportedCFG
	// CodeUnsupportedInterface is an entry-point metadata role or key with no mapping; detail is the key.
	CodeUnsupportedInterface = codes.TranslateUnsupportedInterface
	// CodeLibraryFunction is an air.visible (stitchable) function: a library function, not an entry point.
	CodeLibraryFunction = codes.TranslateLibraryFunction
	// CodeUnsupportedStage is an entry-point stage with no Vulkan mapping here (mesh, intersection...).
	CodeUnsupportedStage = codes.TranslateUnsupportedStage
	// CodeInvalidSPIRV is spirv-val's rejection of a module the translator produced.
	CodeInvalidSPIRV = codes.TranslateInvalidSPIRV
)

// Finding is one missing feature: a stable code and the thing missing.
type Finding struct {
	Code   codes.Code `json:"code"`
	Detail string     `json:"detail"`
}

func (f Finding) String() string { return string(f.Code) + " " + f.Detail }

// MissingError lists every missing feature found in one entry point,
// deduplicated and in a stable order (the first is the headline).
type MissingError struct {
	Entry   string
	Missing []Finding
}

func (e *MissingError) Error() string {
	if len(e.Missing) == 0 {
		return "translate " + e.Entry + ": nothing missing"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "translate %s: %s", e.Entry, e.Missing[0])
	if n := len(e.Missing) - 1; n > 0 {
		fmt.Fprintf(&b, " (and %d more)", n)
	}
	return b.String()
}

// findings collects findings in first-seen order without duplicates.
type findings struct {
	list []Finding
	seen map[Finding]bool
}

func (f *findings) add(code codes.Code, detail string) {
	k := Finding{code, detail}
	if f.seen == nil {
		f.seen = map[Finding]bool{}
	}
	if !f.seen[k] {
		f.seen[k] = true
		f.list = append(f.list, k)
	}
}

func (f *findings) addf(code codes.Code, format string, args ...any) {
	f.add(code, fmt.Sprintf(format, args...))
}

// sorted returns the findings with the first-seen one first and the rest by code and detail.
func (f *findings) sorted() []Finding {
	if len(f.list) < 2 {
		return f.list
	}
	rest := append([]Finding(nil), f.list[1:]...)
	sort.Slice(rest, func(i, j int) bool {
		if rest[i].Code != rest[j].Code {
			return rest[i].Code < rest[j].Code
		}
		return rest[i].Detail < rest[j].Detail
	})
	return append([]Finding{f.list[0]}, rest...)
}

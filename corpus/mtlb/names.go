package mtlb

import "fmt"

// Platform codes of the header's target-platform field.
const (
	PlatformIOS   uint16 = 0x0001
	PlatformMacOS uint16 = 0x8001
)

// PlatformName names a header platform code: "macOS", "iOS" or
// "unknown(0x1234)".
func PlatformName(p uint16) string {
	switch p {
	case PlatformMacOS:
		return "macOS"
	case PlatformIOS:
		return "iOS"
	}
	return fmt.Sprintf("unknown(0x%04x)", p)
}

// knownPlatform reports whether seed 000 documents the platform code.
func knownPlatform(p uint16) bool { return p == PlatformMacOS || p == PlatformIOS }

// targetOSNames holds the target-OS codes: those of seed 000 and the two
// visionOS codes inferred from corpus file names (see documentedTargetOS).
var targetOSNames = map[uint8]string{
	0x00: "unknown",
	0x81: "macOS",
	0x82: "iOS",
	0x83: "tvOS",
	0x84: "watchOS",
	0x85: "bridgeOS",
	0x86: "Mac Catalyst",
	0x87: "iOS Simulator",
	0x88: "tvOS Simulator",
	0x89: "watchOS Simulator",
	0x8b: "visionOS",
	0x8c: "visionOS Simulator",
}

// TargetOSName names a header target-OS code, "unknown(0x8d)" style for
// codes nobody has identified. 0x8b and 0x8c (visionOS and its simulator) are
// inferred from file names, not documented.
func TargetOSName(os uint8) string {
	if s, ok := targetOSNames[os]; ok {
		return s
	}
	return fmt.Sprintf("unknown(0x%02x)", os)
}

// documentedTargetOS reports whether seed 000's table lists the code.
func documentedTargetOS(os uint8) bool { return os == 0 || (os >= 0x81 && os <= 0x89) }

// Library type codes of the header.
const (
	LibraryExecutable      uint8 = 0x00
	LibraryCoreImage       uint8 = 0x01
	LibraryDynamic         uint8 = 0x02
	LibrarySymbolCompanion uint8 = 0x03
)

// LibraryTypeName names a header library-type code.
func LibraryTypeName(t uint8) string {
	switch t {
	case LibraryExecutable:
		return "executable"
	case LibraryCoreImage:
		return "coreimage"
	case LibraryDynamic:
		return "dynamic"
	case LibrarySymbolCompanion:
		return "symbol-companion"
	}
	return fmt.Sprintf("unknown(0x%02x)", t)
}

// Function type codes of the TYPE tag (file codes, not the Metal API's).
const (
	FunctionVertex       uint8 = 0
	FunctionFragment     uint8 = 1
	FunctionKernel       uint8 = 2
	FunctionUnqualified  uint8 = 3
	FunctionVisible      uint8 = 4
	FunctionExtern       uint8 = 5
	FunctionIntersection uint8 = 6
	// FunctionMesh is undocumented; the corpus shows 7 on what appear to be
	// mesh (or object) functions.
	FunctionMesh uint8 = 7
)

var functionTypeNames = [...]string{"vertex", "fragment", "kernel", "unqualified", "visible", "extern", "intersection", "mesh?"}

// FunctionTypeName names a TYPE code: "vertex", "fragment", "kernel",
// "unqualified", "visible", "extern", "intersection", "mesh?" (7, inferred),
// or "unknown(0x08)" style.
func FunctionTypeName(t uint8) string {
	if int(t) < len(functionTypeNames) {
		return functionTypeNames[t]
	}
	return fmt.Sprintf("unknown(0x%02x)", t)
}

// documentedFunctionType reports whether seed 000 documents the TYPE code.
func documentedFunctionType(t uint8) bool { return t <= FunctionIntersection }

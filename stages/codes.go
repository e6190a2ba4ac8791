package stages

import "github.com/airpipe/airpipe/internal/codes"

// Container failure codes: the stage package's names for the registry's
// (internal/codes, where each is declared, documented and kept
// append-only; docs/codes.md lists them).
const (
	// CodeMalformedLibrary: the library as a whole does not parse; the row
	// has function index -1 and the detail names the construct.
	CodeMalformedLibrary = codes.ContainerMalformedLibrary
	// CodeFileTooLarge: the file is larger than --max-file-size.
	CodeFileTooLarge = codes.ContainerFileTooLarge
	// CodeUnreadable: the file could not be read.
	CodeUnreadable = codes.ContainerUnreadable
	// CodeBitcodeOutOfBounds: the function's bitcode slice lies outside
	// the bitcode section or the file.
	CodeBitcodeOutOfBounds = codes.ContainerBitcodeOutOfBounds
	// CodeMissingHash: the function has no HASH tag to check its bitcode by.
	CodeMissingHash = codes.ContainerMissingHash
	// CodeHashMismatch: SHA-256 of the bitcode slice differs from HASH.
	CodeHashMismatch = codes.ContainerHashMismatch
	// CodeBadWrapper: the slice's LLVM bitcode wrapper header is invalid.
	CodeBadWrapper = codes.ContainerBadWrapper
	// CodeNotALibrary: a file named *.metallib holds no library and no
	// AIR module; the row has function index -1.
	CodeNotALibrary = codes.ContainerNotALibrary
	// CodeFileChanged: the file changed (shrank, grew, was rewritten)
	// while it was read; the row has function index -1.
	CodeFileChanged = codes.ContainerFileChanged
)

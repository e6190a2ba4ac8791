package stages

// Failure codes. This list is append-only: a code, once released, keeps its
// name and meaning forever (rankings and diffs across runs group by it).
// Each is documented in docs/codes.md. The engine's own codes (crash,
// timeout, cancelled) live in package pipeline.
const (
	// CodeMalformedLibrary: the library as a whole does not parse; the row
	// has function index -1 and the detail names the construct.
	CodeMalformedLibrary = "container/malformed-library"
	// CodeFileTooLarge: the file is larger than --max-file-size.
	CodeFileTooLarge = "container/file-too-large"
	// CodeUnreadable: the file could not be read.
	CodeUnreadable = "container/unreadable"
	// CodeBitcodeOutOfBounds: the function's bitcode slice lies outside
	// the bitcode section or the file.
	CodeBitcodeOutOfBounds = "container/bitcode-out-of-bounds"
	// CodeMissingHash: the function has no HASH tag to check its bitcode by.
	CodeMissingHash = "container/missing-hash"
	// CodeHashMismatch: SHA-256 of the bitcode slice differs from HASH.
	CodeHashMismatch = "container/hash-mismatch"
	// CodeBadWrapper: the slice's LLVM bitcode wrapper header is invalid.
	CodeBadWrapper = "container/bad-wrapper"
	// CodeNotALibrary: a file named *.metallib holds no library and no
	// AIR module; the row has function index -1.
	CodeNotALibrary = "container/not-a-library"
	// CodeFileChanged: the file changed (shrank, grew, was rewritten)
	// while it was read; the row has function index -1.
	CodeFileChanged = "container/file-changed"
)

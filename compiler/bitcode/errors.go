package bitcode

import (
	"fmt"

	"github.com/airpipe/airpipe/internal/codes"
)

// The error codes a read can fail with (stable, append-only).
const (
	// CodeUnknownRecord is a record this reader does not know; Detail is
	// "BLOCK/RECORD(code N)", e.g. "FUNCTION_BLOCK/INST_INVOKE(code 13)".
	CodeUnknownRecord = string(codes.ReaderUnknownRecord)
	// CodeUnknownBlock is a block this reader does not know; Detail is "BLOCK(id N)".
	CodeUnknownBlock = string(codes.ReaderUnknownBlock)
	// CodeMalformed is input that breaks the format; Detail names the construct.
	CodeMalformed = string(codes.ReaderMalformed)
	// CodeUnsupported is a known construct this reader refuses; Detail names it.
	CodeUnsupported = string(codes.ReaderUnsupported)
)

// Error is a read failure. Offset is a bit offset into the bitcode after
// the wrapper header (the bitstream's own offset), -1 when unknown.
type Error struct {
	Code   string
	Detail string
	Offset int64
	Msg    string
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("%s %s at bit %d: %s", e.Code, e.Detail, e.Offset, e.Msg)
}

func malformed(off uint64, detail, format string, args ...any) *Error {
	return &Error{Code: CodeMalformed, Detail: detail, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

func unsupported(off uint64, detail, format string, args ...any) *Error {
	return &Error{Code: CodeUnsupported, Detail: detail, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

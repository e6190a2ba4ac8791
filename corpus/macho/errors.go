package macho

import "fmt"

// FormatError describes malformed data: the construct being read, its byte
// offset in the input and what was wrong.
type FormatError struct {
	Offset    int64
	Construct string
	Msg       string
}

// Error implements error.
func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: %s (at offset 0x%x)", e.Construct, e.Msg, e.Offset)
}

func errorf(off int64, construct, format string, args ...any) *FormatError {
	return &FormatError{Offset: off, Construct: construct, Msg: fmt.Sprintf(format, args...)}
}

// span reports whether [off, off+size) lies inside n bytes, without overflow.
func span(off, size uint64, n int) bool {
	return off <= uint64(n) && size <= uint64(n)-off
}

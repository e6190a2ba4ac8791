package mtlb

import "fmt"

// FormatError describes malformed container data: the construct being read
// (for example "function[3] tag OFFT"), the byte offset in the library where
// the problem was found, and what was wrong.
type FormatError struct {
	Offset    int64  `json:"offset"`
	Construct string `json:"construct"`
	Msg       string `json:"message"`
	Err       error  `json:"-"`
}

// Error implements error.
func (e *FormatError) Error() string {
	msg := e.Msg
	if e.Err != nil {
		if msg != "" {
			msg += ": " + e.Err.Error()
		} else {
			msg = e.Err.Error()
		}
	}
	return fmt.Sprintf("%s: %s (at offset 0x%x)", e.Construct, msg, e.Offset)
}

// Unwrap returns the underlying error, if any.
func (e *FormatError) Unwrap() error { return e.Err }

// errorf builds a *FormatError.
func errorf(off int64, construct, format string, args ...any) *FormatError {
	return &FormatError{Offset: off, Construct: construct, Msg: fmt.Sprintf(format, args...)}
}

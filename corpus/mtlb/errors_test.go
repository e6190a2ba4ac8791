package mtlb

import (
	"errors"
	"io"
	"testing"
)

func TestFormatError(t *testing.T) {
	tests := []struct {
		err  *FormatError
		want string
	}{
		{errorf(0x1234, "function[3] tag OFFT", "offset 0x%x beyond bitcode section (size 0x%x)", 0x2000, 0x900),
			"function[3] tag OFFT: offset 0x2000 beyond bitcode section (size 0x900) (at offset 0x1234)"},
		{&FormatError{Offset: 8, Construct: "x", Err: io.ErrUnexpectedEOF}, "x: unexpected EOF (at offset 0x8)"},
		{&FormatError{Offset: 8, Construct: "x", Msg: "reading", Err: io.ErrUnexpectedEOF}, "x: reading: unexpected EOF (at offset 0x8)"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	if !errors.Is(tests[1].err, io.ErrUnexpectedEOF) {
		t.Error("Unwrap does not reach the cause")
	}
	if fe := asFormatError(io.EOF, 4, "y"); fe.Construct != "y" || fe.Offset != 4 || !errors.Is(fe, io.EOF) {
		t.Errorf("asFormatError = %+v", fe)
	}
}

package mtlb

import (
	"bufio"
	"fmt"
	"io"
)

// WriteText writes one function as Library.WriteText lists it.
func (f *Function) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	writeFunction(func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }, f)
	return bw.Flush()
}

package harness

import (
	"fmt"
	"os"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

// The input buffers of a request to a child travel in a file beside the
// request line rather than inside it: the line is JSON, where bytes are
// base64 the child must scan, unquote and decode (its largest cost after
// the driver's compiles), while the file is read in one copy.

// withInputFile writes q's input bytes, one after the other, into a new file
// in dir and returns the request to send — q with InputFile naming the file,
// InputSizes each buffer's length and every buffer's Bytes left out — and a
// function that removes the file. q itself is not changed.
func withInputFile(dir string, q Request) (Request, func(), error) {
	f, err := os.CreateTemp(dir, "airpipe-emulator-*.in")
	if err != nil {
		return q, nil, err
	}
	remove := func() { _ = os.Remove(f.Name()) }
	sent := q
	sent.Buffers = make([]cpuref.Data, len(q.Buffers))
	sent.InputSizes = make([]int, len(q.Buffers))
	for i, b := range q.Buffers {
		if _, err := f.Write(b.Bytes); err != nil {
			_ = f.Close()
			remove()
			return q, nil, err
		}
		sent.Buffers[i] = cpuref.Data{Index: b.Index}
		sent.InputSizes[i] = len(b.Bytes)
	}
	if err := f.Close(); err != nil {
		remove()
		return q, nil, err
	}
	sent.InputFile = f.Name()
	return sent, remove, nil
}

// readInputFile is the child's side of withInputFile: q with each buffer's
// bytes read back from q.InputFile. A file of another size than the sizes
// add up to, or sizes that do not match the buffers, is an error.
func readInputFile(q Request) (Request, error) {
	if q.InputFile == "" {
		return q, nil
	}
	if len(q.InputSizes) != len(q.Buffers) {
		return q, fmt.Errorf("%d input sizes for %d buffers", len(q.InputSizes), len(q.Buffers))
	}
	b, err := os.ReadFile(q.InputFile)
	if err != nil {
		return q, err
	}
	total := 0
	for _, n := range q.InputSizes {
		if n < 0 {
			return q, fmt.Errorf("an input size of %d", n)
		}
		total += n
	}
	if total != len(b) {
		return q, fmt.Errorf("%s holds %d bytes, the input sizes add up to %d", q.InputFile, len(b), total)
	}
	bufs := make([]cpuref.Data, len(q.Buffers))
	at := 0
	for i, n := range q.InputSizes {
		bufs[i] = cpuref.Data{Index: q.Buffers[i].Index, Bytes: b[at : at+n : at+n]}
		at += n
	}
	q.Buffers, q.InputFile, q.InputSizes = bufs, "", nil
	return q, nil
}

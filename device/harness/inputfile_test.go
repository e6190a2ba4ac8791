package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

// TestInputFileRoundTrip: a request sent with its inputs in a file (through
// JSON, as a child reads it) has the same buffers on the child's side, in
// order, empty ones included; the line carries none of the bytes, the
// parent's request is unchanged, and remove takes the file away.
func TestInputFileRoundTrip(t *testing.T) {
	q := Request{Name: "m", Buffers: []cpuref.Data{{Index: 3, Bytes: pattern(4096, 1)}, {Index: 0, Bytes: nil}, {Index: 1, Bytes: pattern(10, 2)}}}
	sent, remove, err := withInputFile(t.TempDir(), q)
	if err != nil {
		t.Fatal(err)
	}
	line, err := json.Marshal(sent)
	if err != nil {
		t.Fatal(err)
	}
	if len(line) > 1000 { // 4 KiB of base64 alone is 5,464
		t.Fatalf("the line is %d bytes: the inputs travelled in it", len(line))
	}
	var got Request
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatal(err)
	}
	if got, err = readInputFile(got); err != nil {
		t.Fatal(err)
	}
	if len(got.Buffers) != 3 || got.InputFile != "" || got.InputSizes != nil {
		t.Fatalf("%d buffers, file %q, sizes %v", len(got.Buffers), got.InputFile, got.InputSizes)
	}
	for i, want := range q.Buffers {
		if got.Buffers[i].Index != want.Index || !bytes.Equal(got.Buffers[i].Bytes, want.Bytes) {
			t.Fatalf("buffer %d: index %d, %d bytes; want index %d, %d bytes", i, got.Buffers[i].Index, len(got.Buffers[i].Bytes), want.Index, len(want.Bytes))
		}
	}
	if q.InputFile != "" || len(q.Buffers[0].Bytes) != 4096 {
		t.Fatal("the parent's request was changed")
	}
	remove()
	if _, err := os.Stat(sent.InputFile); !os.IsNotExist(err) {
		t.Fatalf("the input file is still there: %v", err)
	}
	// A request without a file is read as it is.
	if r, err := readInputFile(q); err != nil || !bytes.Equal(r.Buffers[0].Bytes, q.Buffers[0].Bytes) {
		t.Fatalf("a request without a file: %v", err)
	}
}

// TestInputFileRefused: a file that does not hold what the sizes say, sizes
// that do not match the buffers, a negative size or a missing file are
// refused by name.
func TestInputFileRefused(t *testing.T) {
	q := Request{Buffers: []cpuref.Data{{Index: 0, Bytes: pattern(16, 1)}, {Index: 1, Bytes: pattern(8, 2)}}}
	sent, remove, err := withInputFile(t.TempDir(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	tests := []struct {
		name, want string
		edit       func(r *Request)
	}{
		{"short file", "holds 24 bytes, the input sizes add up to 25", func(r *Request) { r.InputSizes = []int{17, 8} }},
		{"sizes for other buffers", "1 input sizes for 2 buffers", func(r *Request) { r.InputSizes = []int{24} }},
		{"negative size", "an input size of -1", func(r *Request) { r.InputSizes = []int{25, -1} }},
		{"missing file", "no such file", func(r *Request) { r.InputFile += ".gone" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := sent
			r.InputSizes = append([]int(nil), sent.InputSizes...)
			tc.edit(&r)
			if _, err := readInputFile(r); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

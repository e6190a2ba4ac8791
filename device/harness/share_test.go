package harness

import (
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

// TestSameRun: two requests give the same run when the device is given the
// same things, whatever they are named; any one thing given otherwise makes
// another run.
func TestSameRun(t *testing.T) {
	base := func() Request {
		return Request{Device: "lavapipe", Name: "a", Entry: "k", SPIRV: []byte{1, 2, 3, 4},
			Grid:    cpuref.Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{4, 1, 1}},
			Buffers: []cpuref.Data{{Index: 0, Bytes: []byte{9, 9}}},
			Kernel:  &cpuref.Kernel{Name: "k", Buffers: []cpuref.Buffer{{Index: 0, Access: "read_write"}}}}
	}
	cases := []struct {
		name string
		edit func(*Request)
		same bool
	}{
		{"another name", func(q *Request) { q.Name = "b" }, true},
		{"another SPIR-V", func(q *Request) { q.SPIRV = []byte{1, 2, 3, 5} }, false},
		{"another input byte", func(q *Request) { q.Buffers = []cpuref.Data{{Index: 0, Bytes: []byte{9, 8}}} }, false},
		{"another binding", func(q *Request) { q.Buffers = []cpuref.Data{{Index: 1, Bytes: []byte{9, 9}}} }, false},
		{"another grid", func(q *Request) { q.Grid.Groups[0] = 2 }, false},
		{"another entry", func(q *Request) { q.Entry = "j" }, false},
		{"another device", func(q *Request) { q.Device = "radv" }, false},
		{"another interface", func(q *Request) {
			q.Kernel = &cpuref.Kernel{Name: "k", Buffers: []cpuref.Buffer{{Index: 0, Access: "read"}}}
		}, false},
		{"a draw", func(q *Request) { q.Draw = &Draw{Width: 4, Height: 4} }, false},
		{"a capture", func(q *Request) { q.Capture = &Capture{Vertices: 3} }, false},
	}
	for _, c := range cases {
		b := base()
		c.edit(&b)
		if got := SameRun(base(), b); got != c.same {
			t.Errorf("%s: SameRun %v, want %v", c.name, got, c.same)
		}
	}
}

package approxtrace

import (
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device/harness"
)

// TestTracedOutputs: the traced run stands for the function's own run only
// when the two requests differ in nothing but the trace (its buffer, its
// SPIR-V) and the function's SPIR-V is the translator's own translation of
// the function traced; its outputs then come back without the trace
// buffer, and the traced reply is left as it was.
func TestTracedOutputs(t *testing.T) {
	const tb = translate.TraceBinding
	m, ep := fixture(t)
	out, err := translate.Translate(m, ep)
	if err != nil {
		t.Fatal(err)
	}
	other, err := translate.Translate(m, ep)
	if err != nil {
		t.Fatal(err)
	}
	// Another translation of the same function: one word changed.
	other.SPIRV = append([]byte(nil), other.SPIRV...)
	other.SPIRV[len(other.SPIRV)-5] ^= 1
	traced := func() *Traced {
		k := &cpuref.Kernel{Name: "k", Buffers: []cpuref.Buffer{{Index: 0, Access: "read_write", AddrSpace: 1}, {Index: tb}}}
		return &Traced{
			Outcome: &Outcome{Trace: &translate.Trace{Binding: tb, Capacity: 1}},
			Run: harness.Request{Device: "lavapipe", Name: "m", Entry: "k", SPIRV: []byte{1, 2, 3, 4},
				Grid:    cpuref.Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{4, 1, 1}},
				Buffers: []cpuref.Data{{Index: 0, Bytes: []byte{9, 9, 9, 9}}, {Index: tb, Bytes: make([]byte, 8)}},
				Kernel:  k},
			Reply:  harness.Reply{Name: "m", Buffers: map[int][]byte{0: {7, 7, 7, 7}, tb: {1, 0, 0, 0, 5, 0, 0, 0}}},
			module: m, entry: ep,
		}
	}
	own := func() harness.Request {
		return harness.Request{Device: "lavapipe", Name: "m", Entry: "k", SPIRV: out.SPIRV,
			Grid:    cpuref.Grid{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{4, 1, 1}},
			Buffers: []cpuref.Data{{Index: 0, Bytes: []byte{9, 9, 9, 9}}},
			Kernel:  &cpuref.Kernel{Name: "k", Buffers: []cpuref.Buffer{{Index: 0, Access: "read_write", AddrSpace: 1}}}}
	}
	cases := []struct {
		name   string
		traced func(*Traced) *Traced
		q      func(*harness.Request)
		want   bool
	}{
		{"the same run but for the SPIR-V and the trace", nil, nil, true},
		{"a SPIR-V other than the translator's own of the function traced", nil, func(q *harness.Request) { q.SPIRV = other.SPIRV }, false},
		{"no function to translate", func(t *Traced) *Traced { t.module = nil; return t }, nil, false},
		{"other input bytes", nil, func(q *harness.Request) { q.Buffers[0].Bytes = []byte{9, 9, 9, 8} }, false},
		{"another grid", nil, func(q *harness.Request) { q.Grid.Threads[0] = 8 }, false},
		{"another entry point", nil, func(q *harness.Request) { q.Entry = "other" }, false},
		{"another device", nil, func(q *harness.Request) { q.Device = "radv" }, false},
		{"another interface", nil, func(q *harness.Request) { q.Kernel.Buffers[0].Access = "read" }, false},
		{"a draw the traced run did not make", nil, func(q *harness.Request) { q.Draw = &harness.Draw{Width: 4, Height: 4} }, false},
		{"a buffer the traced run did not have", nil, func(q *harness.Request) {
			q.Buffers = append(q.Buffers, cpuref.Data{Index: 1, Bytes: []byte{0}})
		}, false},
		{"a kernel whose only buffer was the trace", func(t *Traced) *Traced {
			t.Run.Buffers, t.Run.Kernel.Buffers = t.Run.Buffers[1:], t.Run.Kernel.Buffers[1:]
			return t
		}, func(q *harness.Request) { q.Buffers, q.Kernel.Buffers = nil, nil }, true},
		{"no traced run", func(*Traced) *Traced { return nil }, nil, false},
		{"a traced run that failed", func(t *Traced) *Traced { t.Reply.Buffers = nil; return t }, nil, false},
	}
	for _, c := range cases {
		tr := traced()
		if c.traced != nil {
			tr = c.traced(tr)
		}
		q := own()
		if c.q != nil {
			c.q(&q)
		}
		rep, ok := tr.Outputs(q)
		if ok != c.want {
			t.Errorf("%s: Outputs says %v, want %v", c.name, ok, c.want)
			continue
		}
		if !ok {
			continue
		}
		if _, kept := rep.Buffers[tb]; kept {
			t.Errorf("%s: the trace buffer came back among the outputs", c.name)
		}
		if _, left := tr.Reply.Buffers[tb]; !left {
			t.Errorf("%s: the traced reply lost its trace buffer", c.name)
		}
		if c.traced == nil && string(rep.Buffers[0]) != string([]byte{7, 7, 7, 7}) {
			t.Errorf("%s: buffer 0 came back as %v", c.name, rep.Buffers[0])
		}
	}
}

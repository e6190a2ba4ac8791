package harness

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
)

// pattern is n bytes of a pattern, as the reference's inputs are.
func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + seed)
	}
	return b
}

// written is in with the bytes at each offset of at set to 0xee.
func written(in []byte, at ...int) []byte {
	b := append([]byte(nil), in...)
	for _, o := range at {
		b[o] = 0xee
	}
	return b
}

// TestChangesRoundTrip: what a child sends (onlyChanges) and the parent
// rebuilds (withChanges) through JSON are the buffers the device left, for
// unchanged, sparsely and wholly written buffers, ones without an input or
// of another length, and a failure.
func TestChangesRoundTrip(t *testing.T) {
	in0, in1, in2 := pattern(4096, 1), pattern(1000, 2), pattern(64, 3)
	q := Request{Buffers: []cpuref.Data{{Index: 0, Bytes: in0}, {Index: 1, Bytes: in1}, {Index: 2, Bytes: in2}, {Index: 5, Bytes: pattern(8, 4)}}}
	whole := pattern(64, 9)
	tests := []struct {
		name string
		bufs map[int][]byte
	}{
		{"unchanged", map[int][]byte{0: in0, 1: in1}},
		{"sparse writes, near and far apart", map[int][]byte{0: written(in0, 0, 3, 20, 21, 4095), 1: written(in1, 500)}},
		{"every byte written", map[int][]byte{2: whole}},
		{"no input: render target", map[int][]byte{cpuref.RenderTargetBase: pattern(64, 5), 0: written(in0, 7)}},
		{"another length than the input", map[int][]byte{5: pattern(12, 6)}},
		{"failure", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := Reply{Name: "m", Buffers: tc.bufs, Verdict: judge.Verdict{Message: "v"}}
			line, err := json.Marshal(onlyChanges(q, rep))
			if err != nil {
				t.Fatal(err)
			}
			var back Reply
			if err := json.Unmarshal(line, &back); err != nil {
				t.Fatal(err)
			}
			got, err := withChanges(q, back)
			if err != nil {
				t.Fatal(err)
			}
			if (got.Buffers == nil) != (tc.bufs == nil) || len(got.Buffers) != len(tc.bufs) || got.Changes != nil || got.Verdict.Message != "v" {
				t.Fatalf("got %d buffers (nil %v), changes %v, verdict %q", len(got.Buffers), got.Buffers == nil, got.Changes, got.Verdict.Message)
			}
			for i, want := range tc.bufs {
				if !bytes.Equal(got.Buffers[i], want) {
					t.Fatalf("buffer %d differs after the round trip", i)
				}
			}
			for i, fresh := range [][]byte{pattern(4096, 1), pattern(1000, 2), pattern(64, 3), pattern(8, 4)} {
				if !bytes.Equal(q.Buffers[i].Bytes, fresh) {
					t.Fatalf("the request's input %d was modified", i)
				}
			}
		})
	}
	// The point of it: an unchanged 4 KiB buffer costs a few bytes, not its base64.
	line, _ := json.Marshal(onlyChanges(q, Reply{Buffers: map[int][]byte{0: written(in0, 9)}}))
	if len(line) > 200 {
		t.Fatalf("a one-byte change travels as %d bytes: %s", len(line), line)
	}
}

// TestChangesRefused: a reply whose changes cannot be the request's (a span
// outside its buffer, a buffer the request has no input for, one sent both
// ways) is refused by name.
func TestChangesRefused(t *testing.T) {
	q := Request{Buffers: []cpuref.Data{{Index: 0, Bytes: pattern(16, 1)}}}
	tests := []struct {
		name, want string
		rep        Reply
	}{
		{"past the end", "outside its 16 bytes", Reply{Changes: map[int][]Span{0: {{Offset: 12, Bytes: []byte{1, 2, 3, 4, 5}}}}}},
		{"negative offset", "outside its 16 bytes", Reply{Changes: map[int][]Span{0: {{Offset: -1, Bytes: []byte{1}}}}}},
		{"no input", "no input for", Reply{Changes: map[int][]Span{3: {}}}},
		{"both ways", "both whole and as changes", Reply{Buffers: map[int][]byte{0: pattern(16, 2)}, Changes: map[int][]Span{0: {}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := withChanges(q, tc.rep); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestSpansOf: the spans cover every changed byte and nothing else far from
// one (runs fewer than spanGap bytes apart merge).
func TestSpansOf(t *testing.T) {
	in := pattern(300, 0)
	tests := []struct {
		name string
		at   []int
		want []Span
	}{
		{"none", nil, []Span{}},
		{"first and last byte", []int{0, 299}, []Span{{0, []byte{0xee}}, {299, []byte{0xee}}}},
		{"close ones merge", []int{100, 110}, []Span{{100, written(in, 100, 110)[100:111]}}},
		{"a gap of spanGap-1 merges", []int{100, 100 + spanGap}, []Span{{100, written(in, 100, 100+spanGap)[100 : 101+spanGap]}}},
		{"a gap of spanGap splits", []int{100, 101 + spanGap}, []Span{{100, []byte{0xee}}, {101 + spanGap, []byte{0xee}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := spansOf(in, written(in, tc.at...))
			if len(got) != len(tc.want) {
				t.Fatalf("%d spans %v, want %v", len(got), got, tc.want)
			}
			for i := range got {
				if got[i].Offset != tc.want[i].Offset || !bytes.Equal(got[i].Bytes, tc.want[i].Bytes) {
					t.Fatalf("span %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestCompactReply: a kept reply holds copies of the changed bytes and of
// whole buffers, not slices of the device's buffers (which would keep them
// all alive), and rebuilds to the same buffers.
func TestCompactReply(t *testing.T) {
	in := pattern(4096, 1)
	q := Request{Buffers: []cpuref.Data{{Index: 0, Bytes: in}}}
	dev := written(in, 10, 11)
	target := pattern(64, 5)
	kept := compactReply(onlyChanges(q, Reply{Buffers: map[int][]byte{0: dev, cpuref.RenderTargetBase: target}}))
	dev[10], target[0] = 0, 0 // the device's memory is reused
	got, err := withChanges(q, kept)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Buffers[0], written(in, 10, 11)) || !bytes.Equal(got.Buffers[cpuref.RenderTargetBase], pattern(64, 5)) {
		t.Fatal("the kept reply followed the device's buffers")
	}
}

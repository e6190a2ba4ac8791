package harness

import (
	"bytes"
	"fmt"
)

// Span is a run of bytes a device changed in a buffer: Bytes from Offset on.
type Span struct {
	Offset int    `json:"o"`
	Bytes  []byte `json:"b"`
}

// spanGap unchanged bytes in a row end a Span; fewer are taken into it (a
// span costs a few bytes of JSON of its own).
const spanGap = 16

// onlyChanges is the reply a child sends for rep: every buffer that q's
// inputs hold at the same length travels as the spans the device changed
// (Reply.Changes, an empty list when it changed none) instead of whole —
// a kernel's buffers are mostly pattern the device only read, and encoding
// them both ways was most of the child protocol's cost. Buffers without an
// input of their length (render targets, depth, textures) stay whole.
// A reply without Buffers (a failure) is sent as it is. withChanges undoes it.
func onlyChanges(q Request, rep Reply) Reply {
	if rep.Buffers == nil {
		return rep
	}
	inputs := inputsOf(q)
	whole := map[int][]byte{}
	changes := map[int][]Span{}
	for i, b := range rep.Buffers {
		in, ok := inputs[i]
		if !ok || len(in) != len(b) {
			whole[i] = b
			continue
		}
		changes[i] = spansOf(in, b)
	}
	rep.Buffers, rep.Changes = whole, changes
	return rep
}

// spansOf lists the runs of bytes where b differs from in (of equal
// length), runs fewer than spanGap bytes apart merged.
func spansOf(in, b []byte) []Span {
	spans := []Span{}
	for at := 0; at < len(b); {
		if in[at] == b[at] {
			// Skip equal bytes 64 at a time where they are.
			if n := min(64, len(b)-at); bytes.Equal(in[at:at+n], b[at:at+n]) {
				at += n
				continue
			}
			at++
			continue
		}
		start, end := at, at+1
		for at = end; at < len(b); at++ {
			if in[at] != b[at] {
				end = at + 1
			} else if at-end+1 >= spanGap {
				break
			}
		}
		spans = append(spans, Span{Offset: start, Bytes: b[start:end]})
		at = end
	}
	return spans
}

// withChanges is the reply a parent makes of a child's onlyChanges reply to
// q: each buffer of Changes rebuilt from q's input with the spans written
// over it. A span outside its buffer, or changes to a buffer q has no input
// for, is an error: the reply did not come from q.
func withChanges(q Request, rep Reply) (Reply, error) {
	if rep.Changes == nil {
		return rep, nil
	}
	inputs := inputsOf(q)
	bufs := make(map[int][]byte, len(rep.Buffers)+len(rep.Changes))
	for i, b := range rep.Buffers {
		bufs[i] = b
	}
	for i, spans := range rep.Changes {
		in, ok := inputs[i]
		if !ok {
			return Reply{}, fmt.Errorf("changes to buffer %d, which the request has no input for", i)
		}
		if _, dup := bufs[i]; dup {
			return Reply{}, fmt.Errorf("buffer %d both whole and as changes", i)
		}
		b := append([]byte(nil), in...)
		for _, s := range spans {
			if s.Offset < 0 || s.Offset+len(s.Bytes) > len(b) {
				return Reply{}, fmt.Errorf("a change to buffer %d at bytes %d..%d, outside its %d bytes", i, s.Offset, s.Offset+len(s.Bytes), len(b))
			}
			copy(b[s.Offset:], s.Bytes)
		}
		bufs[i] = b
	}
	rep.Buffers, rep.Changes = bufs, nil
	return rep, nil
}

// inputsOf is q's input bytes by buffer index (the last one for an index
// given twice, as Dispatch binds them).
func inputsOf(q Request) map[int][]byte {
	m := make(map[int][]byte, len(q.Buffers))
	for _, in := range q.Buffers {
		m[in.Index] = in.Bytes
	}
	return m
}

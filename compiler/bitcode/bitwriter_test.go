package bitcode

import (
	"bytes"
	"testing"
)

// bitWriter builds small bitstreams by hand for tests of the reader's
// refusals: unabbreviated records and blocks only.
type bitWriter struct {
	buf  []byte
	cur  uint64
	n    uint
	ends []int // word index of each open block's length field
}

func (w *bitWriter) emit(v uint64, width uint) {
	for i := uint(0); i < width; i++ {
		w.cur |= (v >> i & 1) << w.n
		w.n++
		if w.n == 8 {
			w.buf = append(w.buf, byte(w.cur))
			w.cur, w.n = 0, 0
		}
	}
}

func (w *bitWriter) vbr(v uint64, width uint) {
	hi := uint64(1) << (width - 1)
	for v >= hi {
		w.emit(v&(hi-1)|hi, width)
		v >>= width - 1
	}
	w.emit(v, width)
}

func (w *bitWriter) align() {
	for w.n != 0 || len(w.buf)%4 != 0 {
		w.emit(0, 1)
	}
}

// enter opens a block (abbreviation width 4 inside; outer width given).
func (w *bitWriter) enter(id uint64, outer uint) {
	w.emit(1, outer)
	w.vbr(id, 8)
	w.vbr(4, 4)
	w.align()
	w.ends = append(w.ends, len(w.buf))
	w.emit(0, 32)
}

func (w *bitWriter) end() {
	w.emit(0, 4)
	w.align()
	at := w.ends[len(w.ends)-1]
	w.ends = w.ends[:len(w.ends)-1]
	words := uint32((len(w.buf) - at - 4) / 4)
	w.buf[at], w.buf[at+1], w.buf[at+2], w.buf[at+3] = byte(words), byte(words>>8), byte(words>>16), byte(words>>24)
}

func (w *bitWriter) record(code uint64, ops ...uint64) {
	w.emit(3, 4)
	w.vbr(code, 6)
	w.vbr(uint64(len(ops)), 6)
	for _, o := range ops {
		w.vbr(o, 6)
	}
}

func module(body func(w *bitWriter)) []byte {
	w := &bitWriter{buf: []byte("BC\xc0\xde")}
	w.enter(moduleBlockID, 2)
	w.record(1, 2) // VERSION 2
	body(w)
	w.end()
	return w.buf
}

func TestRefusals(t *testing.T) {
	cases := []struct {
		name   string
		data   []byte
		code   string
		detail string
	}{
		{"unknown block", module(func(w *bitWriter) { w.enter(99, 4); w.end() }), CodeUnknownBlock, "BLOCK(id 99)"},
		{"uselist record", module(func(w *bitWriter) { w.enter(uselistID, 4); w.record(3, 1, 0, 0); w.end() }), CodeUnknownRecord, "USELIST_BLOCK/RECORD(code 3)"},
		{"uselist short", module(func(w *bitWriter) { w.enter(uselistID, 4); w.record(1, 1, 0); w.end() }), CodeMalformed, "USELIST_BLOCK/DEFAULT(code 1)"},
		{"uselist value", module(func(w *bitWriter) { w.enter(uselistID, 4); w.record(1, 1, 0, 0); w.end() }), CodeMalformed, "USELIST_BLOCK/DEFAULT(code 1)"},
		{"uselist block outside a function", module(func(w *bitWriter) { w.enter(uselistID, 4); w.record(2, 1, 0, 0); w.end() }), CodeMalformed, "USELIST_BLOCK/BB(code 2)"},
		{"unknown module record", module(func(w *bitWriter) { w.record(60, 1) }), CodeUnknownRecord, "MODULE_BLOCK/RECORD(code 60)"},
		{"alias", module(func(w *bitWriter) { w.record(14, 0, 0) }), CodeUnknownRecord, "MODULE_BLOCK/ALIAS(code 14)"},
		{"unknown type", module(func(w *bitWriter) { w.enter(typeBlockID, 4); w.record(1, 1); w.record(26); w.end() }), CodeUnknownRecord, "TYPE_BLOCK/TARGET_TYPE(code 26)"},
		{"version 3", module(func(w *bitWriter) { w.record(1, 3) }), CodeUnsupported, "MODULE_BLOCK/VERSION"},
		{"truncated", module(func(w *bitWriter) {})[:12], CodeMalformed, "ENTER_SUBBLOCK"},
		{"not bitcode", []byte("MTLB...."), CodeMalformed, "magic"},
	}
	for _, c := range cases {
		_, err := ReadModule(c.data)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("%s: got %v, want %s %s", c.name, err, c.code, c.detail)
			continue
		}
		if e.Code != c.code || e.Detail != c.detail {
			t.Errorf("%s: got %s %q, want %s %q", c.name, e.Code, e.Detail, c.code, c.detail)
		}
	}
}

// TestHandBuiltModuleReads checks the hand-built stream itself is valid
// (so the refusals above are about the one thing each case changes).
func TestHandBuiltModuleReads(t *testing.T) {
	data := module(func(w *bitWriter) {
		w.enter(typeBlockID, 4)
		w.record(1, 1)
		w.record(2) // void
		w.end()
		w.record(2, 'a', 'i', 'r') // TRIPLE
	})
	m, err := ReadModule(data)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteLL(&buf, m); err != nil {
		t.Fatal(err)
	}
	if m.Triple != "air" || m.Version != 2 {
		t.Fatalf("module %+v", m)
	}
}

// TestAmplificationBounded builds inputs where short records name large
// things (a 4000-parameter function declared 3000 times; a BLOCKINFO
// block with many abbreviations inherited by many small blocks) and checks
// the allocation stays within the fuzz target's bound.
func TestAmplificationBounded(t *testing.T) {
	w := &bitWriter{buf: []byte("BC\xc0\xde")}
	w.enter(moduleBlockID, 2)
	w.record(1, 1) // VERSION 1: names from the symbol table
	w.enter(typeBlockID, 4)
	w.record(1, 3)
	w.record(2)     // 0: void
	w.record(7, 32) // 1: i32
	params := make([]uint64, 2, 4002)
	params[0], params[1] = 0, 0 // not vararg, returns void
	for i := 0; i < 4000; i++ {
		params = append(params, 1)
	}
	w.record(21, params...) // 2: void (i32 x 4000)
	w.end()
	for i := 0; i < 3000; i++ {
		w.record(8, 2, 0, 1, 0, 0, 0, 0, 0) // FUNCTION declaration
	}
	w.end()
	before := allocated()
	_, err := ReadModule(w.buf)
	got := allocated() - before
	if got > allocBound(len(w.buf)) {
		t.Fatalf("%d input bytes allocated %d bytes (bound %d)", len(w.buf), got, allocBound(len(w.buf)))
	}
	t.Logf("%d bytes in, %d allocated, err %v", len(w.buf), got, err)
}

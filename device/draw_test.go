package device

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

func f32bits(f float32) uint32 { return math.Float32bits(f) }

// TestDraw draws testdata/drawfrag.spvasm over 4×4 pixels with constant inputs and checks
// every pixel of both targets, the masked-off components (still the clear value) and the
// storage buffer the shader writes from each pixel.
func TestDraw(t *testing.T) {
	d := openDevice(t, Options{})
	frag := assemble(t, "drawfrag")
	buf, err := d.NewBuffer(32 * 4)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Free()
	clear := [4]uint32{0x7f7f7f7f, 0x7e7e7e7e, 0x7d7d7d7d, 0x7c7c7c7c}
	in0 := []float32{1.5, -2.25, 3.125, 0.75}
	x := DrawArgs{Width: 4, Height: 4,
		Targets:  []DrawTarget{{Format: FormatR32G32B32A32Sfloat, Clear: clear}, {Format: FormatR32G32B32A32Uint, Mask: 0x3, Clear: clear}},
		Inputs:   map[uint32][]uint32{0: {f32bits(in0[0]), f32bits(in0[1]), f32bits(in0[2]), f32bits(in0[3])}, 1: {7, 13}},
		Bindings: []Binding{{Set: 0, Binding: 0, Buffer: buf}}}
	out, err := d.Draw(context.Background(), frag, "main", x)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("cannot draw here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	for y := range 4 {
		for px := range 4 {
			p := y*4 + px
			want0 := []uint32{f32bits(3 + float32(px) + 0.5), f32bits(-4.5 + float32(y) + 0.5), f32bits(6.25 + 0.5), f32bits(1.5 + 1)}
			want1 := []uint32{8, 15, clear[2], clear[3]}
			for c := range 4 {
				if got := word(out[0], 4*p+c); got != want0[c] {
					t.Errorf("target 0 pixel (%d,%d) component %d: got %#x want %#x", px, y, c, got, want0[c])
				}
				if got := word(out[1], 4*p+c); got != want1[c] {
					t.Errorf("target 1 pixel (%d,%d) component %d: got %#x want %#x", px, y, c, got, want1[c])
				}
			}
			if got := word(buf.Bytes(), 4*y+px+2); got != f32bits(float32(px)+0.5) {
				t.Errorf("buffer word %d: got %#x want %g", 4*y+px+2, got, float32(px)+0.5)
			}
		}
	}
	// Misuse: an input without a value, a missing binding, a bad size.
	bad := x
	bad.Inputs = map[uint32][]uint32{0: x.Inputs[0]}
	if _, err := d.Draw(context.Background(), frag, "main", bad); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("input without a value: %v", err)
	}
	bad = x
	bad.Bindings = nil
	if _, err := d.Draw(context.Background(), frag, "main", bad); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("unbound buffer: %v", err)
	}
	bad = x
	bad.Width = 0
	if _, err := d.Draw(context.Background(), frag, "main", bad); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("zero width: %v", err)
	}
	if err := d.Err(); err != nil {
		t.Fatalf("misuse lost the device: %v", err)
	}
}

func TestFragmentTargets(t *testing.T) {
	got, err := FragmentTargets(assemble(t, "drawfrag"), "main")
	if err != nil {
		t.Fatal(err)
	}
	want := []DrawTarget{{Format: FormatR32G32B32A32Sfloat, Mask: 0xf}, {Format: FormatR32G32B32A32Uint, Mask: 0x3}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if _, err := FragmentTargets(assemble(t, "drawfrag"), "nope"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("missing entry: %v", err)
	}
}

// FuzzDrawHelpers runs the draw and capture helpers that read a module (its colour targets,
// the generated full-screen vertex shader, the transform-feedback rewrite) over arbitrary
// modules: they must return, not loop or panic, and a rewrite must stay parseable.
func FuzzDrawHelpers(f *testing.F) {
	addSPIRVSeeds(f, "drawfrag", "capvert", "frag", "vert", "depthfrag")
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseSPIRV(b)
		if err != nil {
			return
		}
		for _, e := range m.entryPoints {
			FragmentTargets(b, e.Name)
			if e.Model == execModelFragment {
				fullScreenVertex(m, e, map[uint32][]uint32{0: {1, 2, 3, 4}})
			}
			offsets := map[uint32]uint32{}
			for _, id := range e.Interface {
				offsets[id] = 0
			}
			if words, err := m.withXfb(e.ID, offsets, 16); err == nil {
				if _, err := parseSPIRV(wordsBytes(words)); err != nil {
					t.Fatalf("the rewritten module does not parse: %v", err)
				}
			}
		}
	})
}

func wordsBytes(ws []uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// TestDrawScratchDepth draws testdata/drawfrag.spvasm with and without DrawArgs.ScratchDepth
// and wants every target word and every buffer word the same: the depth test (ALWAYS) the
// scratch attachment brings must change no pixel. It also wants the caller's DrawArgs left
// without a depth buffer.
func TestDrawScratchDepth(t *testing.T) {
	d := openDevice(t, Options{})
	frag := assemble(t, "drawfrag")
	clear := [4]uint32{0x7f7f7f7f, 0x7e7e7e7e, 0x7d7d7d7d, 0x7c7c7c7c}
	draw := func(scratch bool) ([][]byte, []byte) {
		t.Helper()
		buf, err := d.NewBuffer(32 * 4)
		if err != nil {
			t.Fatal(err)
		}
		defer buf.Free()
		x := DrawArgs{Width: 4, Height: 4, ScratchDepth: scratch,
			Targets:  []DrawTarget{{Format: FormatR32G32B32A32Sfloat, Clear: clear}, {Format: FormatR32G32B32A32Uint, Mask: 0x3, Clear: clear}},
			Inputs:   map[uint32][]uint32{0: {f32bits(1.5), f32bits(-2.25), f32bits(3.125), f32bits(0.75)}, 1: {7, 13}},
			Bindings: []Binding{{Set: 0, Binding: 0, Buffer: buf}}}
		out, err := d.Draw(context.Background(), frag, "main", x)
		if errors.Is(err, ErrUnavailable) {
			t.Skipf("cannot draw here: %v", err)
		}
		if err != nil {
			t.Fatalf("scratch depth %v: %v", scratch, err)
		}
		if x.Depth != nil {
			t.Fatalf("scratch depth %v: Draw gave the caller's DrawArgs a depth buffer", scratch)
		}
		return out, append([]byte(nil), buf.Bytes()...)
	}
	want, wantBuf := draw(false)
	got, gotBuf := draw(true)
	for i := range want {
		if string(got[i]) != string(want[i]) {
			t.Errorf("target %d differs with a scratch depth attachment:\n got %x\nwant %x", i, got[i], want[i])
		}
	}
	if string(gotBuf) != string(wantBuf) {
		t.Errorf("the storage buffer differs with a scratch depth attachment:\n got %x\nwant %x", gotBuf, wantBuf)
	}
}

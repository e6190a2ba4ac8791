package device

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"testing"
)

// TestDrawStencil draws testdata/stencilfrag.spvasm (FragStencilRefEXT = 37·x + 5·y + 250,
// FragDepth = x / 8) with a stencil buffer, with and without a depth buffer, and
// testdata/depthfrag.spvasm (no stencil export) with one: every stencil byte is the low 8
// bits of the pixel's reference (0, the pipeline's reference, without an export), every
// depth word is the fragment's, and the colour target is what it is without either.
func TestDrawStencil(t *testing.T) {
	d := openDevice(t, Options{})
	const w, h = 8, 3
	draw := func(frag []byte, depth, stencil []byte) [][]byte {
		t.Helper()
		x := DrawArgs{Width: w, Height: h, Targets: []DrawTarget{{Format: FormatR32G32B32A32Sfloat}}, Depth: depth, Stencil: stencil, StencilClear: 0x5a}
		out, err := d.Draw(context.Background(), frag, "main", x)
		if errors.Is(err, ErrUnavailable) {
			t.Skipf("cannot draw with a stencil attachment here: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	exporting, plain := assemble(t, "stencilfrag"), assemble(t, "depthfrag")
	for _, c := range []struct {
		name      string
		frag      []byte
		withDepth bool
		want      func(x, y int) byte
	}{
		{"export", exporting, false, func(x, y int) byte { return byte(37*x + 5*y + 250) }},
		{"export with depth", exporting, true, func(x, y int) byte { return byte(37*x + 5*y + 250) }},
		{"no export", plain, true, func(x, y int) byte { return 0 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			stencil := bytes.Repeat([]byte{0xa5}, w*h) // Draw must overwrite every byte
			var depth []byte
			if c.withDepth {
				depth = bytes.Repeat([]byte{0xa5}, w*h*4)
			}
			out := draw(c.frag, depth, stencil)
			if !bytes.Equal(out[0], draw(c.frag, nil, nil)[0]) {
				t.Errorf("the colour target differs with a stencil attachment")
			}
			for y := range h {
				for x := range w {
					p := y*w + x
					if got, want := stencil[p], c.want(x, y); got != want {
						t.Errorf("stencil of pixel (%d,%d): got %#x want %#x", x, y, got, want)
					}
					if depth != nil {
						if got, want := binary.LittleEndian.Uint32(depth[4*p:]), f32bits((float32(x)+0.5)/8); got != want {
							t.Errorf("depth of pixel (%d,%d): got %#x want %#x", x, y, got, want)
						}
					}
				}
			}
		})
	}
	// A stencil buffer of the wrong size is misuse, and loses nothing.
	for _, n := range []int{0, w*h - 1, w*h + 1} {
		x := DrawArgs{Width: w, Height: h, Targets: []DrawTarget{{Format: FormatR32G32B32A32Sfloat}}, Stencil: make([]byte, n)}
		if _, err := d.Draw(context.Background(), exporting, "main", x); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("stencil buffer of %d bytes: %v, want ErrInvalidArgument", n, err)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatalf("misuse lost the device: %v", err)
	}
}

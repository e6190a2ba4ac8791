package device

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// drawDepth draws frag over w×h pixels into one float4 target and a depth buffer.
func drawDepth(t *testing.T, d *Device, frag []byte, w, h uint32, depth []byte) [][]byte {
	t.Helper()
	x := DrawArgs{Width: w, Height: h, Targets: []DrawTarget{{Format: FormatR32G32B32A32Sfloat}}, Depth: depth}
	out, err := d.Draw(context.Background(), frag, "main", x)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("cannot draw with a depth attachment here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDrawDepth draws testdata/depthfrag.spvasm (FragDepth = FragCoord.x / 8) and
// testdata/colourfrag.spvasm (no FragDepth) with a depth buffer and checks every depth word
// and that the colour target is what it is without one.
func TestDrawDepth(t *testing.T) {
	d := openDevice(t, Options{})
	const w, h = 8, 3
	word := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	for _, c := range []struct {
		name  string
		depth func(x, y int) float32 // the depth word of pixel (x, y)
		col   func(x, y int) [4]float32
	}{
		{"depthfrag", func(x, y int) float32 { return (float32(x) + 0.5) / 8 },
			func(x, y int) [4]float32 { return [4]float32{float32(x) + 0.5, float32(y) + 0.5, 0.25, 1} }},
		// Without FragDepth the rasterised depth stays: the full-screen triangle's z, 0.5.
		{"colourfrag", func(x, y int) float32 { return 0.5 },
			func(x, y int) [4]float32 { return [4]float32{float32(x) + 0.5, float32(y) + 0.5, 0.5, 1} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			frag := assemble(t, c.name)
			depth := bytes.Repeat([]byte{0xa5}, w*h*4) // Draw must overwrite every word
			with := drawDepth(t, d, frag, w, h, depth)
			without := drawDepth(t, d, frag, w, h, nil)
			if !bytes.Equal(with[0], without[0]) {
				t.Errorf("the colour target differs with a depth attachment")
			}
			for y := range h {
				for x := range w {
					p := y*w + x
					if got, want := word(depth, p), f32bits(c.depth(x, y)); got != want {
						t.Errorf("depth of pixel (%d,%d): got %#x want %#x (%g)", x, y, got, want, c.depth(x, y))
					}
					for k, v := range c.col(x, y) {
						if got := word(with[0], 4*p+k); got != f32bits(v) {
							t.Errorf("colour of pixel (%d,%d) component %d: got %#x want %g", x, y, k, got, v)
						}
					}
				}
			}
		})
	}
	// A depth buffer of the wrong size is misuse, and loses nothing.
	frag := assemble(t, "depthfrag")
	for _, n := range []int{0, w*h*4 - 1, w*h*4 + 4} {
		x := DrawArgs{Width: w, Height: h, Targets: []DrawTarget{{Format: FormatR32G32B32A32Sfloat}}, Depth: make([]byte, n)}
		if _, err := d.Draw(context.Background(), frag, "main", x); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("depth buffer of %d bytes: %v, want ErrInvalidArgument", n, err)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatalf("misuse lost the device: %v", err)
	}
}

// TestDepthFeatures breaks the depth format's features on purpose: without depth-stencil
// attachment or transfer-source support the draw is unavailable, naming the format.
func TestDepthFeatures(t *testing.T) {
	const all = vk.FormatFeatureDepthStencilAttach | vk.FormatFeatureTransferSrc
	if err := depthFeatures("dev", "VK_FORMAT_D32_SFLOAT (126)", all|vk.FormatFeatureSampledImage); err != nil {
		t.Fatalf("all features: %v", err)
	}
	for _, have := range []uint32{0, vk.FormatFeatureDepthStencilAttach, vk.FormatFeatureTransferSrc} {
		err := depthFeatures("dev", "VK_FORMAT_D32_SFLOAT (126)", have)
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "VK_FORMAT_D32_SFLOAT") {
			t.Errorf("features %#x: %v, want ErrUnavailable naming the format", have, err)
		}
	}
}

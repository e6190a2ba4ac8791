package device

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// TestCaptureVertices runs testdata/capvert.spvasm over 6 vertices with an attribute per
// vertex and checks every captured word, and that bytes no output covers keep their value.
func TestCaptureVertices(t *testing.T) {
	d := openDevice(t, Options{})
	vert := assemble(t, "capvert")
	const n, stride = 6, 48
	attrs := make([][]uint32, n)
	for v := range attrs {
		for c := range 4 {
			attrs[v] = append(attrs[v], math.Float32bits(float32(v*4+c)+0.25))
		}
	}
	initial := make([]byte, n*stride)
	for i := range initial {
		initial[i] = 0xa5
	}
	x := VertexArgs{Vertices: n, Attributes: map[uint32][][]uint32{0: attrs}, Stride: stride, Initial: initial,
		Outputs: []VertexOutput{{Location: -1, BuiltIn: 0, Offset: 0}, {Location: 0, Offset: 16}, {Location: 1, Offset: 32}}}
	out, err := d.CaptureVertices(context.Background(), vert, "main", x)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("cannot capture here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	word := func(v, w int) uint32 { return binary.LittleEndian.Uint32(out[v*stride+4*w:]) }
	for v := range n {
		want := make([]uint32, 12)
		for c := range 4 {
			want[c] = math.Float32bits(2 * (float32(v*4+c) + 0.25))
		}
		want[4], want[5], want[6], want[7] = uint32(v), uint32(3*v), 0xa5a5a5a5, 0xa5a5a5a5
		want[8] = math.Float32bits(float32(v*4) + 0.25)
		want[9], want[10], want[11] = 0xa5a5a5a5, 0xa5a5a5a5, 0xa5a5a5a5
		for w := range want {
			if got := word(v, w); got != want[w] {
				t.Errorf("vertex %d word %d: got %#x want %#x", v, w, got, want[w])
			}
		}
	}
	bad := x
	bad.Outputs = []VertexOutput{{Location: 5}}
	if _, err := d.CaptureVertices(context.Background(), vert, "main", bad); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("missing output: %v", err)
	}
	bad = x
	bad.Attributes = nil
	if _, err := d.CaptureVertices(context.Background(), vert, "main", bad); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("missing attribute: %v", err)
	}
	if err := d.Err(); err != nil {
		t.Fatalf("misuse lost the device: %v", err)
	}
}

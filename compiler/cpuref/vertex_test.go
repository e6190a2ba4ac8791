package cpuref

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"testing"
)

// TestVertex runs the vertex fixture over its 6 vertices and checks every word of every
// output record against answers computed here from the attribute pattern and the buffer's.
func TestVertex(t *testing.T) {
	needTools(t)
	ll, err := os.ReadFile("testdata/vertex.ll")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), assemble(t, string(ll)), "vert", Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := res.Kernel
	if k.Stage != "vertex" || len(k.Outputs) != 3 || len(k.Inputs) != 2 || k.Inputs[1].Location != 3 || k.Outputs[1].Name != "generated(1h)" {
		t.Fatalf("interface: %+v", k)
	}
	var rec []byte
	for _, o := range res.Outputs {
		if o.Index == OutputBuffer {
			rec = o.Bytes
		}
	}
	if len(rec) != Vertices*3*16 {
		t.Fatalf("output buffer of %d bytes", len(rec))
	}
	buf := Pattern(0, 4*Vertices)
	f := func(v uint32) float32 { return math.Float32frombits(v) }
	for v := range Vertices {
		a, h := k.Inputs[0].PerVertex[v], k.Inputs[1].PerVertex[v]
		want := []uint32{
			math.Float32bits(f(a[0]) + float32(v)), a[1], a[2], a[3], // iid is 0: a.y + 0 = a.y
			math.Float32bits(2 * f(h[0])), math.Float32bits(2 * f(h[1])), Clear[2], Clear[3],
			binary.LittleEndian.Uint32(buf[4*v:]), Clear[1], Clear[2], Clear[3],
		}
		for w, x := range want {
			if got := binary.LittleEndian.Uint32(rec[(v*12+w)*4:]); got != x {
				t.Errorf("vertex %d word %d = %#x, want %#x", v, w, got, x)
			}
		}
	}
}

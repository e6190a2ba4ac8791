package cpuref

import (
	"context"
	"encoding/binary"
	"math"
	"testing"
)

// TestCubeStorage runs the emulator's cube-write fixture and checks every texel of both cube
// textures against Go: thread (x, y) wrote face (x + 2y) mod 6 of the float texture and face
// (x + 2y + 3) mod 6 of the int one; every other texel keeps TexelWords.
func TestCubeStorage(t *testing.T) {
	needTools(t)
	res, err := Run(context.Background(), assemble(t, readFixture(t, "../../stages/testdata/emulator/texture_cube_write.ll")), "cube", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]byte{0: StorageTexels(0, 'f', "cube"), 2: StorageTexels(2, 'i', "cube")}
	put := func(b []byte, x, y, face int, w [4]uint32) {
		for c := range 4 {
			binary.LittleEndian.PutUint32(b[((face*4+y)*4+x)*TexelSize+4*c:], w[c])
		}
	}
	for y := range 4 {
		for x := range 4 {
			f := (x + 2*y) % 6
			put(want[0], x, y, f, [4]uint32{math.Float32bits(float32(x)), math.Float32bits(float32(y)), math.Float32bits(float32(f)), math.Float32bits(0.5)})
			g := (x + 2*y + 3) % 6
			put(want[2], x, y, g, [4]uint32{uint32(x), uint32(y), uint32(g), uint32(0xfffffff9)})
		}
	}
	seen := 0
	for _, o := range res.Outputs {
		w, ok := want[o.Index-StorageTextureBase]
		if !ok {
			continue
		}
		seen++
		if len(o.Bytes) != StorageBytes("cube") || string(o.Bytes) != string(w) {
			t.Errorf("texture %d: %d bytes, differ from Go's", o.Index-StorageTextureBase, len(o.Bytes))
		}
	}
	if seen != 2 {
		t.Fatalf("%d cube textures in the outputs, want 2", seen)
	}
}

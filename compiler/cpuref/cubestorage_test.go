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

// TestWriteWithoutWritableTexture runs a kernel that declares a texture write, behind a branch
// no thread takes, but has no writable texture (as a function whose conditional texture
// arguments are all absent): the write's support code is emitted all the same.
func TestWriteWithoutWritableTexture(t *testing.T) {
	needTools(t)
	ll := `target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

declare void @air.write_texture_cube.v4f32(ptr addrspace(1) nocapture, <2 x i32>, i32, <4 x float>, i32, i32)

define void @k(ptr addrspace(1) %out, i32 %tid) {
entry:
  %i = zext i32 %tid to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %tid, ptr addrspace(1) %p, align 4
  %c = icmp eq i32 %tid, 99
  br i1 %c, label %w, label %e

w:
  call void @air.write_texture_cube.v4f32(ptr addrspace(1) %out, <2 x i32> zeroinitializer, i32 0, <4 x float> zeroinitializer, i32 0, i32 2)
  br label %e

e:
  ret void
}

!air.kernel = !{!0}
!0 = !{ptr @k, !1, !2}
!1 = !{}
!2 = !{!3, !4}
!3 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!4 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
`
	if _, err := RunText(context.Background(), ll, "k", Options{}); err != nil {
		t.Fatal(err)
	}
}

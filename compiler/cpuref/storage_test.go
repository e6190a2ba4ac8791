package cpuref

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// storageOutput is the output buffer of writable texture index, failing when it is missing
// or not StorageTextureSize bytes; it also checks that the inputs carry the initial texels.
func storageOutput(t *testing.T, res *Result, index int, kind byte) []byte {
	t.Helper()
	var in, out []byte
	for _, d := range res.Inputs {
		if d.Index == StorageTextureBase+index {
			in = d.Bytes
		}
	}
	for _, d := range res.Outputs {
		if d.Index == StorageTextureBase+index {
			out = d.Bytes
		}
	}
	if string(in) != string(StorageTexels(index, kind, "2d")) {
		t.Fatalf("input of texture %d: % x, want StorageTexels", index, in)
	}
	if len(out) != StorageTextureSize {
		t.Fatalf("output of texture %d has %d bytes, want %d", index, len(out), StorageTextureSize)
	}
	return out
}

// texel is the words of texel (x, y) of a writable texture's buffer.
func texel(b []byte, x, y int) [4]uint32 {
	var w [4]uint32
	for c := range 4 {
		w[c] = binary.LittleEndian.Uint32(b[(y*TextureExtent+x)*TexelSize+4*c:])
	}
	return w
}

// TestStorageWrite writes float4(x, y, x + 4y, 2) at each thread's position outside column 3
// (as float and as half: the half texture is stored widened to 32-bit floats) and checks every
// texel: written ones exactly, column 3 still TexelWords; also through the .i16 form (16-bit
// coordinate and LOD).
func TestStorageWrite(t *testing.T) {
	needTools(t)
	ll := readFixture(t, "testdata/storage_write.ll")
	half := replaceAll(t, ll, "<4 x float> %v, i32 0", "<4 x half> %vh, i32 0", "<4 x float>, i32, i32)", "<4 x half>, i32, i32)",
		"v4f32", "v4f16", "texture2d<float, write>", "texture2d<half, write>",
		"  %coord =", "  %vh = fptrunc <4 x float> %v to <4 x half>\n  %coord =")
	short := replaceAll(t, ll, "declare void @air.write_texture_2d.v4f32(ptr addrspace(1) nocapture, <2 x i32>, <4 x float>, i32, i32)",
		"declare void @air.write_texture_2d.i16.v4f32(ptr addrspace(1) nocapture, <2 x i16>, <4 x float>, i16, i32)",
		"  call void @air.write_texture_2d.v4f32(ptr addrspace(1) %tex, <2 x i32> %coord, <4 x float> %v, i32 0, i32 2)",
		"  %c16 = trunc <2 x i32> %coord to <2 x i16>\n  call void @air.write_texture_2d.i16.v4f32(ptr addrspace(1) %tex, <2 x i16> %c16, <4 x float> %v, i16 0, i32 2)")
	for name, src := range map[string]string{"float": ll, "half": half, "16-bit coordinates": short} {
		t.Run(name, func(t *testing.T) {
			res, err := Run(context.Background(), assemble(t, src), "writetex", Options{})
			if err != nil {
				t.Fatal(err)
			}
			k := res.Kernel
			if len(k.Textures) != 1 || !k.Textures[0].Writable() || k.Textures[0].Index != 2 || !k.Params[0].Storage || k.Params[0].Texture != 2 {
				t.Fatalf("textures %+v, params %+v", k.Textures, k.Params)
			}
			out := storageOutput(t, res, 2, 'f')
			f := math.Float32bits
			for y := range 4 {
				for x := range 4 {
					want := [4]uint32{f(float32(x)), f(float32(y)), f(float32(x + 4*y)), f(2)}
					if x == 3 {
						want = TexelWords(2, 'f')
					}
					if got := texel(out, x, y); got != want {
						t.Errorf("texel (%d, %d) = %#x, want %#x", x, y, got, want)
					}
				}
			}
		})
	}
}

// TestStorageReadWrite reads each texel of a uint read_write texture, adds (x, y, 100, 0) and
// writes the sum back.
func TestStorageReadWrite(t *testing.T) {
	needTools(t)
	res, err := Run(context.Background(), assemble(t, readFixture(t, "testdata/storage_read_write.ll")), "rwtex", Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := storageOutput(t, res, 1, 'u')
	base := TexelWords(1, 'u')
	for y := range 4 {
		for x := range 4 {
			want := [4]uint32{base[0] + uint32(x), base[1] + uint32(y), base[2] + 100, base[3]}
			if got := texel(out, x, y); got != want {
				t.Errorf("texel (%d, %d) = %v, want %v", x, y, got, want)
			}
		}
	}
}

// TestStorageNotJudgeable breaks the writable-texture fixtures in the ways the reference must
// refuse: each check is shown to fire.
func TestStorageNotJudgeable(t *testing.T) {
	needTools(t)
	w := readFixture(t, "testdata/storage_write.ll")
	rw := readFixture(t, "testdata/storage_read_write.ll")
	const wmeta = `i32 2, i32 1, !"air.write", !"air.arg_type_name", !"texture2d<float, write>"`
	for _, c := range []struct {
		name, ll, entry, kind, detail string
		edits                         []string
	}{
		{"write outside the texture", w, "writetex", KindOutOfBounds, "texture write", []string{"%coord = insertelement <2 x i32> %gid, i32 %x, i32 0", "%x4 = add i32 %x, 4\n  %coord = insertelement <2 x i32> %gid, i32 %x4, i32 0"}},
		{"write at LOD 1", w, "writetex", KindOutOfBounds, "texture write", []string{"<4 x float> %v, i32 0, i32 2)", "<4 x float> %v, i32 1, i32 2)"}},
		{"read outside a read_write texture", rw, "rwtex", KindOutOfBounds, "texture read", []string{"<2 x i32> %gid, i32 0, i32 3)\n  %t", "<2 x i32> <i32 0, i32 4>, i32 0, i32 3)\n  %t"}},
		{"two threads write one texel", w, "writetex", KindRace, "", []string{"%coord = insertelement <2 x i32> %gid, i32 %x, i32 0", "%coord = insertelement <2 x i32> %gid, i32 0, i32 0"}},
		{"write to a read-only texture", w, "writetex", KindTexture, "texture operand", []string{wmeta, `i32 2, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<float, read>"`}},
		{"read of a write-only texture", rw, "rwtex", KindTexture, "texture operand", []string{`!"air.read_write", !"air.arg_type_name", !"texture2d<uint, read_write>"`, `!"air.write", !"air.arg_type_name", !"texture2d<uint, write>"`}},
		{"texel type not the texture's", w, "writetex", KindTexture, "texture operand", []string{"texture2d<float, write>", "texture2d<int, write>"}},
		{"2D write to a 3D texture", w, "writetex", KindTexture, "texture operand", []string{"texture2d<float, write>", "texture3d<float, write>"}},
		{"writable texture index 16", w, "writetex", KindTexture, "texture2d<float, write> argument", []string{wmeta, strings.Replace(wmeta, "i32 2, i32 1", "i32 16, i32 1", 1)}},
		{"3D write on a 2D coordinate", w, "writetex", KindTexture, "air.write_texture_3d.v4f32", []string{"@air.write_texture_2d.v4f32", "@air.write_texture_3d.v4f32"}},
		{"writable cube array", w, "writetex", KindTexture, "texturecube_array<float, write> argument", []string{"texture2d<float, write>", "texturecube_array<float, write>"}},
		{"2D write to a cube", w, "writetex", KindTexture, "texture operand", []string{"texture2d<float, write>", "texturecube<float, write>"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), assemble(t, replaceAll(t, c.ll, c.edits...)), c.entry, Options{})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != c.kind || nj.Detail != c.detail || nj.Reason == "" {
				t.Fatalf("got %v, want not judgeable (%s %s)", err, c.kind, c.detail)
			}
		})
	}
}

// TestStorageDims writes a 1D uint texture, read-modify-writes a one-layer 2D-array int
// texture and writes one z-slice of a 3D float texture, and checks every texel of each
// (StorageBytes per dimension; untouched texels keep TexelWords).
func TestStorageDims(t *testing.T) {
	needTools(t)
	res, err := Run(context.Background(), assemble(t, readFixture(t, "testdata/storage_dims.ll")), "dims", Options{})
	if err != nil {
		t.Fatal(err)
	}
	outs := map[int][]byte{}
	for i, o := range res.Outputs {
		outs[o.Index] = o.Bytes
		tx := res.Kernel.Textures[i]
		if o.Index != StorageTextureBase+tx.Index || string(res.Inputs[i].Bytes) != string(StorageTexels(tx.Index, tx.Kind, tx.Dim)) || len(o.Bytes) != StorageBytes(tx.Dim) {
			t.Fatalf("output %d (%d bytes) for texture %+v", o.Index, len(o.Bytes), tx)
		}
	}
	at := func(b []byte, x, y, z int) [4]uint32 {
		var w [4]uint32
		for c := range 4 {
			w[c] = binary.LittleEndian.Uint32(b[((z*4+y)*4+x)*TexelSize+4*c:])
		}
		return w
	}
	f := math.Float32bits
	arr := TexelWords(4, 'i')
	for x := range 4 {
		if got, want := at(outs[StorageTextureBase+3], x, 0, 0), [4]uint32{uint32(x), 0, 2, 3}; got != want {
			t.Errorf("1D texel %d = %v, want %v", x, got, want)
		}
		for y := range 4 {
			if got, want := at(outs[StorageTextureBase+4], x, y, 0), [4]uint32{arr[0] + uint32(x), arr[1] + uint32(y), arr[2], arr[3]}; got != want {
				t.Errorf("2D array texel (%d, %d) = %v, want %v", x, y, got, want)
			}
			for z := range 4 {
				want := TexelWords(5, 'f')
				if z == 2 {
					want = [4]uint32{f(float32(x)), f(float32(y)), f(2), f(1)}
				}
				if got := at(outs[StorageTextureBase+5], x, y, z); got != want {
					t.Errorf("3D texel (%d, %d, %d) = %#x, want %#x", x, y, z, got, want)
				}
			}
		}
	}
	ll := readFixture(t, "testdata/storage_dims.ll")
	for _, c := range []struct {
		name, kind, detail string
		edits              []string
	}{
		{"2D array layer 1", KindOutOfBounds, "texture write", []string{"<2 x i32> %gid, i32 0, <4 x i32> %s", "<2 x i32> %gid, i32 1, <4 x i32> %s"}},
		{"3D z 4", KindOutOfBounds, "texture write", []string{"<i32 0, i32 0, i32 2>", "<i32 0, i32 0, i32 4>"}},
		{"1D from every row", KindRace, "", []string{"%first = icmp eq i32 %y, 0", "%first = icmp ult i32 %y, 2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), assemble(t, replaceAll(t, ll, c.edits...)), "dims", Options{})
			var nj *NotJudgeableError
			if !errors.As(err, &nj) || nj.Kind != c.kind || nj.Detail != c.detail {
				t.Fatalf("got %v, want not judgeable (%s %s)", err, c.kind, c.detail)
			}
		})
	}
}

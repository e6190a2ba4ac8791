package device

import (
	"encoding/binary"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestParseSPIRV(t *testing.T) {
	for _, c := range []struct {
		name      string
		wantBinds []spirvBinding
		wantSize  [3]uint32
	}{
		{"gid3", []spirvBinding{{Set: 0, Binding: 0, Type: 7, Count: 1}}, [3]uint32{64, 1, 1}},
		{"argmul", []spirvBinding{{Set: 0, Binding: 0, Type: 7, Count: 1}}, [3]uint32{1, 1, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := parseSPIRV(assemble(t, c.name))
			if err != nil {
				t.Fatal(err)
			}
			id, ok := m.entries["main"]
			if !ok {
				t.Fatalf("no entry main: %v", m.entries)
			}
			if len(m.bindings) != len(c.wantBinds) || m.bindings[0] != c.wantBinds[0] {
				t.Errorf("bindings %+v, want %+v", m.bindings, c.wantBinds)
			}
			at := m.localSizeAt[id]
			if got := [3]uint32(m.words[at : at+3]); got != c.wantSize {
				t.Errorf("local size %v, want %v", got, c.wantSize)
			}
			code, spec := m.withLocalSize(id, [3]uint32{7, 8, 9})
			if got := [3]uint32(code[at : at+3]); got != [3]uint32{7, 8, 9} || len(spec) != 0 {
				t.Errorf("withLocalSize: %v, spec %v", got, spec)
			}
			if got := [3]uint32(m.words[at : at+3]); got != c.wantSize {
				t.Errorf("withLocalSize changed the original module: %v", got)
			}
		})
	}
}

// TestParseSPIRVRejects breaks a valid module in each way the reader checks.
func TestParseSPIRVRejects(t *testing.T) {
	good := assemble(t, "gid3")
	for _, c := range []struct {
		name    string
		corrupt func([]byte) []byte
	}{
		{"odd length", func(b []byte) []byte { return b[:len(b)-1] }},
		{"short header", func(b []byte) []byte { return b[:16] }},
		{"bad magic", func(b []byte) []byte { b[0] ^= 0xff; return b }},
		{"word count past end", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[20:], 0xffff<<16|17)
			return b
		}},
		{"zero word count", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[20:], 17)
			return b
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := c.corrupt(append([]byte(nil), good...))
			_, err := parseSPIRV(b)
			var se *SPIRVError
			if !errors.As(err, &se) {
				t.Fatalf("err %v, want *SPIRVError", err)
			}
			t.Log(err)
		})
	}
}

func FuzzParseSPIRV(f *testing.F) {
	if _, err := exec.LookPath("spirv-as"); err == nil {
		for _, n := range []string{"gid3", "argmul", "invalid"} {
			out := filepath.Join(f.TempDir(), n+".spv")
			if exec.Command("spirv-as", "--target-env", "vulkan1.2", "-o", out, filepath.Join("testdata", n+".spvasm")).Run() == nil {
				if b, err := readFile(out); err == nil {
					f.Add(b)
				}
			}
		}
	}
	addSPIRVSeeds(f, "texsample", "texfrag", "texvert", "texstore")
	f.Add([]byte{0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseSPIRV(b)
		if err != nil {
			return
		}
		for _, id := range m.entries {
			m.withLocalSize(id, [3]uint32{1, 2, 3})
		}
		for _, bd := range m.bindings {
			for dim := Dim1D; dim <= DimCubeArray; dim++ {
				matchImage(bd.Image, TextureSpec{Dim: dim, Kind: 'd'})
				matchImage(bd.Image, TextureSpec{Dim: dim, Kind: 'u', Storage: true})
			}
		}
		spirvCapabilities(m.words)
	})
}

// FuzzGraphicsReflection runs the graphics helpers (interface variables, formats, the
// generated vertex shader) over arbitrary modules: they must return, not loop or panic.
func FuzzGraphicsReflection(f *testing.F) {
	addSPIRVSeeds(f, "vert", "frag")
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseSPIRV(b)
		if err != nil {
			return
		}
		for _, e := range m.entryPoints {
			outputFormats(m, e)
			vertexAttributes(m, e)
			if e.Model == execModelFragment {
				vertexFor(m, e)
			}
		}
	})
}

// TestSelfReferentialTypes gives the reflection a type that contains itself.
func TestSelfReferentialTypes(t *testing.T) {
	m, err := parseSPIRV(assemble(t, "frag"))
	if err != nil {
		t.Fatal(err)
	}
	const arr = 1000
	m.types[arr] = []uint32{4<<16 | opTypeArray, arr, arr, 1}
	m.constAt[1] = 0 // the length: words[0], the magic number, a huge count
	if _, err := m.locationFormats(arr); err == nil {
		t.Fatal("a self-containing array type was accepted")
	}
}

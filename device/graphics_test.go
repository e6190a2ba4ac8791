package device

import (
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCompileGraphics(t *testing.T) {
	vert, frag := assemble(t, "vert"), assemble(t, "frag")
	for _, target := range []string{"radv-navi21", "lavapipe"} {
		t.Run(target, func(t *testing.T) {
			c := openCompiler(t, target)
			for _, g := range []struct {
				name       string
				vert, frag []byte
				formats    []Format
				wantStage  string // an executable name RADV must report
			}{
				{"pair", vert, frag, nil, "Fragment"},
				{"pair with formats", vert, frag, []Format{FormatR8G8B8A8Unorm, FormatR32Uint}, "Fragment"},
				{"fragment alone", nil, frag, nil, "Fragment"},
				{"vertex alone", vert, nil, nil, "Vertex"},
			} {
				st, err := c.CompileGraphics(g.vert, g.frag, "main", "main", g.formats)
				if err != nil {
					t.Fatalf("%s: %v", g.name, err)
				}
				if target == "radv-navi21" && !strings.Contains(strings.Join(st.Keys(), " "), g.wantStage) {
					t.Errorf("%s: no statistics of a %s executable: %v", g.name, g.wantStage, st.Keys())
				}
				t.Logf("%s: %d statistics", g.name, len(st))
			}
			if _, err := c.CompileGraphics(vert, frag, "main", "nope", nil); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("missing fragment entry: %v", err)
			}
			if _, err := c.CompileGraphics(nil, nil, "", "", nil); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("no shaders: %v", err)
			}
		})
	}
}

// TestVertexFor checks the generated vertex shader with spirv-val and its interface against
// the fragment shader's inputs.
func TestVertexFor(t *testing.T) {
	if _, err := exec.LookPath("spirv-val"); err != nil {
		t.Skip("spirv-val (Debian: spirv-tools) not installed")
	}
	fm, err := parseSPIRV(assemble(t, "frag"))
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := fm.entry(execModelFragment, "main")
	words, err := vertexFor(fm, fe)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	path := filepath.Join(t.TempDir(), "gen.spv")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("spirv-val", "--target-env", "vulkan1.2", path).CombinedOutput(); err != nil {
		t.Fatalf("spirv-val rejects the generated vertex shader: %v\n%s", err, out)
	}
	vm, err := parseSPIRV(b)
	if err != nil {
		t.Fatal(err)
	}
	ve, ok := vm.entry(execModelVertex, "main")
	if !ok {
		t.Fatal("no Vertex entry main")
	}
	outs := vm.ioVars(ve, scOutput)
	if len(outs) != 2 || outs[0].Location != 0 || outs[1].Location != 1 {
		t.Fatalf("outputs %+v, want locations 0 and 1", outs)
	}
	if _, flat := vm.decorations[outs[1].ID][decFlat]; !flat {
		t.Error("location 1 lost its Flat decoration")
	}
}

func TestOutputFormats(t *testing.T) {
	fm, err := parseSPIRV(assemble(t, "frag"))
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := fm.entry(execModelFragment, "main")
	got, err := outputFormats(fm, fe)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Format{FormatR32G32B32A32Sfloat, FormatR32Uint}; !reflect.DeepEqual(got, want) {
		t.Fatalf("formats %v, want %v", got, want)
	}
	vm, err := parseSPIRV(assemble(t, "vert"))
	if err != nil {
		t.Fatal(err)
	}
	ve, _ := vm.entry(execModelVertex, "main")
	attrs, err := vertexAttributes(vm, ve)
	if err != nil {
		t.Fatal(err)
	}
	if len(attrs) != 2 || attrs[0].Format != 109 || attrs[1].Format != 103 || attrs[1].Location != 1 {
		t.Fatalf("attributes %+v, want float4 at 0 and float2 at 1", attrs)
	}
}

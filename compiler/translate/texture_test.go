package translate

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
)

// translateText assembles LLVM text (a fixture with edits) and translates its one entry point.
func translateText(t *testing.T, text string) (*Output, error) {
	t.Helper()
	if _, err := exec.LookPath("llvm-as-19"); err != nil {
		t.Skipf("llvm-as-19 not installed: %v", err)
	}
	dir := t.TempDir()
	src, bc := filepath.Join(dir, "m.ll"), filepath.Join(dir, "m.bc")
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("llvm-as-19", src, "-o", bc).CombinedOutput(); err != nil {
		t.Fatalf("llvm-as-19: %v\n%s", err, b)
	}
	data, err := os.ReadFile(bc)
	if err != nil {
		t.Fatal(err)
	}
	m, err := bitcode.ReadModule(data)
	if err != nil {
		t.Fatal(err)
	}
	eps, err := air.EntryPoints(m)
	if err != nil || len(eps) != 1 {
		t.Fatalf("EntryPoints: %d, %v", len(eps), err)
	}
	return Translate(m, eps[0])
}

// validDisassembly validates out with spirv-val and returns its disassembly.
func validDisassembly(t *testing.T, out *Output) string {
	t.Helper()
	ctx := context.Background()
	mustValidate(t, out.SPIRV)
	// spirv-dis itself, for its friendly names (%v4float, %uint_2).
	cmd := exec.CommandContext(ctx, "spirv-dis", "-")
	cmd.Stdin = bytes.NewReader(out.SPIRV)
	dis, err := cmd.Output()
	if err != nil {
		t.Fatalf("spirv-dis: %v", err)
	}
	return string(dis)
}

// TestTextureShapes translates the multisampled and cube fixtures, and
// variants of them: each must validate and hold the instructions Metal's
// meaning asks for, or be refused by name.
func TestTextureShapes(t *testing.T) {
	needValidator(t)
	cases := []struct {
		name, file string
		edit       [2]string // an edit of the fixture's text (old, new), if any
		want       []string  // lines of the disassembly (substrings), in order
		refused    string    // the finding expected instead
	}{
		{name: "multisampled", file: "texture_ms.ll", want: []string{
			"OpCapability ImageQuery",
			"OpTypeImage %float 2D 0 0 1 1 Unknown", // MS=1, sampled
			"OpTypeImage %uint 2D 0 1 1 1 Unknown",  // arrayed MS
			"OpImageQuerySamples %uint",
			"OpImageFetch %v4float", "Sample", // the sample index, no Lod
			"OpImageQuerySize %v2uint", // no level on a multisampled image
			"OpImageFetch %v4uint", "Sample %uint_2",
		}},
		{name: "multisampled read_write refused", file: "texture_ms.ll",
			edit:    [2]string{`!"air.read", !"air.arg_type_name", !"texture2d_ms<float, read>"`, `!"air.read_write", !"air.arg_type_name", !"texture2d_ms<float, read_write>"`},
			refused: "air.texture texture2d_ms with read_write access"},
		{name: "mip levels of a multisampled texture refused", file: "texture_ms.ll",
			edit:    [2]string{"@air.get_width_texture_2d_ms(", "@air.get_num_mip_levels_texture_2d_ms("},
			refused: "air.get_num_mip_levels_texture_2d_ms"},
		{name: "cube", file: "texture_cube.ll", want: []string{
			"OpTypeImage %uint 2D 0 1 0 1 Unknown", // the read-only cube as its six faces
			"OpTypeImage %uint Cube 0 0 0 2 Unknown",
			"OpTypeImage %int 3D 0 0 0 2 Unknown",
			"OpCompositeConstruct %v3uint", "OpImageFetch %v4uint", "Lod %uint_0",
			"OpImageQuerySizeLod %v3uint",
			"OpCompositeConstruct %v3uint", "OpImageWrite", // (x, y, face 5)
			"OpBitcast %v4int", "OpImageWrite",
		}},
		{name: "read of a sampled cube refused", file: "texture_cube.ll",
			edit:    [2]string{`!"air.read", !"air.arg_type_name", !"texturecube<uint, read>"`, `!"air.sample", !"air.arg_type_name", !"texturecube<uint, sample>"`},
			refused: "read of a sampled cube or cube-array texture"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			s := string(text)
			if c.edit[0] != "" {
				if !strings.Contains(s, c.edit[0]) {
					t.Fatalf("the edit's text %q is not in %s", c.edit[0], c.file)
				}
				s = strings.ReplaceAll(s, c.edit[0], c.edit[1])
			}
			out, err := translateText(t, s)
			if c.refused != "" {
				var me *MissingError
				if !errors.As(err, &me) {
					t.Fatalf("want the finding %q, got %v", c.refused, err)
				}
				for _, f := range me.Missing {
					if f.Detail == c.refused {
						return
					}
				}
				t.Fatalf("want the finding %q, got %v", c.refused, me.Missing)
			}
			if err != nil {
				t.Fatal(err)
			}
			dis := validDisassembly(t, out)
			rest := dis
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("%q missing (or out of order) in:\n%s", w, dis)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

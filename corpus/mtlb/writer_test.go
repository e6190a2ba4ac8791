package mtlb

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWriteRoundTrip(t *testing.T) {
	raw := func(seed byte, n int) []byte {
		b := append([]byte{}, rawMagic...)
		for i := range n {
			b = append(b, seed+byte(i))
		}
		return b
	}
	spec := &Spec{Platform: PlatformIOS, FormatMajor: 2, FormatMinor: 8, LibraryType: LibraryDynamic, TargetOS: 0x87, OSMajor: 17, OSMinor: 4,
		Functions: []SpecFunction{
			{Name: "v", Type: FunctionVertex, Bitcode: raw(1, 100), AIRMajor: 2, AIRMinor: 7, LangMajor: 3, LangMinor: 2},
			{Name: "f", Type: FunctionFragment, Bitcode: raw(2, 1), AIRMajor: 2, AIRMinor: 6, LangMajor: 3, LangMinor: 1},
			{Name: "k", Type: FunctionKernel, Bitcode: fakeModule(3, 44), AIRMajor: 1, AIRMinor: 6, LangMajor: 2, LangMinor: 0},
			{Name: "visible_fn", Type: FunctionVisible, Bitcode: raw(4, 4096), AIRMajor: 2, AIRMinor: 8, LangMajor: 4, LangMinor: 0},
			{Name: "i", Type: FunctionIntersection, Bitcode: raw(5, 12)},
		}}
	data, err := Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, spec); err != nil || !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("Write = %v, bytes equal %v", err, bytes.Equal(buf.Bytes(), data))
	}
	lib, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if lib.Platform != spec.Platform || lib.FormatMajor != spec.FormatMajor || lib.FormatMinor != spec.FormatMinor ||
		lib.LibraryType != spec.LibraryType || lib.TargetOS != spec.TargetOS || lib.OSMajor != spec.OSMajor || lib.OSMinor != spec.OSMinor {
		t.Errorf("header = %+v", lib)
	}
	if lib.FileSize != uint64(len(data)) || lib.Extension != nil || len(lib.Unknown) != 0 {
		t.Errorf("file size 0x%x (len 0x%x), extension %v, unknown %q", lib.FileSize, len(data), lib.Extension, lib.Unknown)
	}
	if len(lib.Functions) != len(spec.Functions) {
		t.Fatalf("%d functions, want %d", len(lib.Functions), len(spec.Functions))
	}
	var next uint64
	for i, f := range lib.Functions {
		s := spec.Functions[i]
		if f.Problem != nil {
			t.Errorf("function %d: %v", i, f.Problem)
		}
		if f.Name != s.Name || f.Type != s.Type || !f.HasVersion || f.AIRMajor != s.AIRMajor || f.AIRMinor != s.AIRMinor ||
			f.LangMajor != s.LangMajor || f.LangMinor != s.LangMinor || !f.HasMDSZ || !f.HasHash || !f.HashMatches() {
			t.Errorf("function %d = %+v, spec %+v", i, f, s)
		}
		wrapped, _ := Wrap(s.Bitcode)
		if !bytes.Equal(f.Bitcode, wrapped) || f.BitcodeOffset != next || f.BitcodeSize != uint64(len(wrapped)) {
			t.Errorf("function %d: bitcode at 0x%x size 0x%x differs from the wrapped input", i, f.BitcodeOffset, f.BitcodeSize)
		}
		next += f.BitcodeSize
		got, err := f.RawBitcode()
		want, _ := unwrap(wrapped, 0, "want")
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("function %d: RawBitcode %v", i, err)
		}
		if len(s.Bitcode) > 0 && le.Uint32(s.Bitcode) != WrapperMagic && !bytes.Equal(got, s.Bitcode) {
			t.Errorf("function %d: raw input not reproduced", i)
		}
		if len(f.PublicMetadata) != 0 || len(f.PrivateMetadata) != 0 {
			t.Errorf("function %d: metadata %v %v", i, f.PublicMetadata, f.PrivateMetadata)
		}
	}
	if next != lib.Sections.Bitcode.Size {
		t.Errorf("modules cover 0x%x of the 0x%x-byte bitcode section", next, lib.Sections.Bitcode.Size)
	}
}

func TestWriteRejects(t *testing.T) {
	good := fakeModule(1, 8)
	tests := []struct {
		name string
		spec *Spec
		err  string
	}{
		{"nil", nil, "nil Spec"},
		{"empty name", &Spec{Functions: []SpecFunction{{Bitcode: good}}}, "name"},
		{"NUL in name", &Spec{Functions: []SpecFunction{{Name: "a\x00b", Bitcode: good}}}, "name"},
		{"no bitcode", &Spec{Functions: []SpecFunction{{Name: "a"}}}, "neither"},
		{"not bitcode", &Spec{Functions: []SpecFunction{{Name: "a", Bitcode: []byte("hello world")}}}, "neither"},
		{"bad wrapper", &Spec{Functions: []SpecFunction{{Name: "a", Bitcode: patch(good, func(b []byte) { le.PutUint32(b[12:], 1<<20) })}}}, "outside"},
	}
	for _, tt := range tests {
		_, err := Marshal(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want an error containing %q", tt.name, err, tt.err)
		}
	}
}

func TestUnknownCodes(t *testing.T) {
	data, err := Marshal(&Spec{Platform: 2, LibraryType: 9, TargetOS: 0x9f,
		Functions: []SpecFunction{{Name: "x", Type: 99, Bitcode: fakeModule(1, 8)}}})
	if err != nil {
		t.Fatal(err)
	}
	lib, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"container.function_type.99", "container.library_type.9", "container.platform.0x0002", "container.target_os.0x9f"}
	if !slices.Equal(lib.Unknown, want) {
		t.Errorf("unknown = %q, want %q", lib.Unknown, want)
	}
	if lib.Functions[0].Problem != nil || lib.Functions[0].TypeName() != "unknown(0x63)" {
		t.Errorf("function = %v %q", lib.Functions[0].Problem, lib.Functions[0].TypeName())
	}
}

// TestWriteLLVMBitcode packs llvm-as-19 output and checks that llvm-dis-19
// reads back the module RawBitcode returns.
func TestWriteLLVMBitcode(t *testing.T) {
	dis, err := exec.LookPath("llvm-dis-19")
	if err != nil {
		t.Skip("llvm-dis-19 not installed")
	}
	bc := llvmAs(t, "add_one")
	raw, err := unwrap(bc, 0, "llvm-as output")
	if err != nil {
		t.Fatal(err)
	}
	for name, input := range map[string][]byte{"wrapped": bc, "raw": raw} {
		data, err := Marshal(&Spec{Platform: PlatformMacOS, FormatMajor: 2, FormatMinor: 7,
			Functions: []SpecFunction{{Name: "add_one", Type: FunctionKernel, Bitcode: input}}})
		if err != nil {
			t.Fatal(err)
		}
		lib, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := lib.Functions[0].RawBitcode()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "m.bc")
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(dis, path, "-o", "-").CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("define void @add_one(")) {
			t.Errorf("%s: llvm-dis-19: %v\n%s", name, err, out)
		}
	}
}

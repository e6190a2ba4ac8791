package mtlb

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseSmallLibraries(t *testing.T) {
	tests := []struct {
		file      string
		names     []string
		types     []uint8
		mdsz      bool
		extension bool
		unknown   []string
	}{
		{"one_kernel.metallib", []string{"add_one"}, []uint8{FunctionKernel}, true, false, nil},
		{"three_functions.metallib", []string{"vertex_main", "fragment_main", "add_one"},
			[]uint8{FunctionVertex, FunctionFragment, FunctionKernel}, true, false, nil},
		{"old_style.metallib", []string{"vs", "fs"}, []uint8{FunctionVertex, FunctionFragment}, false, false, nil},
		{"modern_style.metallib", []string{"main0", "mesh0"}, []uint8{FunctionKernel, FunctionMesh}, true, true,
			[]string{"container.function_type.7", "container.tag.QQQQ", "container.tag.RBUF", "container.tag.RFLT",
				"container.tag.RLST", "container.tag.ZZZZ", "container.target_os.0x8b"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data := readTestdata(t, tt.file)
			if !ValidHeader(data) {
				t.Error("ValidHeader false")
			}
			lib, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if lib.FileSize != uint64(len(data)) || lib.TrailingBytes != 0 {
				t.Errorf("file size 0x%x trailing %d, want 0x%x and 0", lib.FileSize, lib.TrailingBytes, len(data))
			}
			if len(lib.Functions) != len(tt.names) {
				t.Fatalf("%d functions, want %d", len(lib.Functions), len(tt.names))
			}
			for i, f := range lib.Functions {
				if f.Problem != nil {
					t.Errorf("function %d: %v", i, f.Problem)
				}
				if f.Name != tt.names[i] || f.Type != tt.types[i] || f.HasMDSZ != tt.mdsz || !f.HasVersion || !f.HasHash {
					t.Errorf("function %d = %q type %d mdsz %v version %v hash %v, want %q type %d mdsz %v",
						i, f.Name, f.Type, f.HasMDSZ, f.HasVersion, f.HasHash, tt.names[i], tt.types[i], tt.mdsz)
				}
				if !f.HashMatches() {
					t.Errorf("function %d: hash does not match", i)
				}
				if _, err := f.RawBitcode(); err != nil {
					t.Errorf("function %d: %v", i, err)
				}
			}
			if (lib.Extension != nil) != tt.extension {
				t.Errorf("extension present %v, want %v", lib.Extension != nil, tt.extension)
			}
			if !slices.Equal(lib.Unknown, tt.unknown) {
				t.Errorf("unknown = %q, want %q", lib.Unknown, tt.unknown)
			}
		})
	}
}

func TestParseModernDetails(t *testing.T) {
	lib, err := Parse(readTestdata(t, "modern_style.metallib"))
	if err != nil {
		t.Fatal(err)
	}
	e := lib.Extension
	if e.UUID != "12345678-9ABC-DEF0-0123-456789ABCDEF" || e.SourceTag != "HSRD" || e.Dynamic == nil || e.Reflection == nil {
		t.Errorf("extension = %+v", e)
	}
	if n := len(e.Tags); n != 5 || e.Tags[4].Name != "ZZZZ" {
		t.Errorf("extension keeps %d tags, want 5 ending in ZZZZ", n)
	}
	if d := lib.Dynamic; d == nil || d.InstallName != "lib.metallib" || !slices.Equal(d.Libraries, []string{"other.metallib"}) {
		t.Errorf("dynamic header = %+v", d)
	}
	if len(lib.Reflection) != 2 {
		t.Errorf("reflection groups = %d, want 2", len(lib.Reflection))
	}
	f0, f1 := &lib.Functions[0], &lib.Functions[1]
	if f0.SourceArchive != "0" || f0.Reflection == nil || *f0.Reflection != 0 || f1.Reflection == nil || *f1.Reflection != 1 {
		t.Errorf("links: source %q reflection %v / %v", f0.SourceArchive, f0.Reflection, f1.Reflection)
	}
	if !slices.ContainsFunc(f0.Tags, func(t Tag) bool { return t.Name == "QQQQ" && bytes.Equal(t.Data, []byte{1, 2, 3}) }) {
		t.Error("unknown function tag QQQQ was not kept")
	}
	if want := []string{"container.function_type.7", "container.tag.RFLT"}; !slices.Equal(f1.Unknown, want) {
		t.Errorf("function unknown = %q, want %q", f1.Unknown, want)
	}
	if want := []string{"container.tag.QQQQ", "container.tag.RFLT"}; !slices.Equal(f0.Unknown, want) {
		t.Errorf("function unknown = %q, want %q", f0.Unknown, want)
	}
	if f1.Layer == nil || *f1.Layer != 33 || f1.Tess == nil || *f1.Tess != 3<<2|1 {
		t.Errorf("LAYR/TESS = %v/%v", f1.Layer, f1.Tess)
	}
	cs, ok := f0.PublicMetadata[0].Value.([]FunctionConstant)
	if !ok || len(cs) != 1 || cs[0] != (FunctionConstant{Name: "k", Type: 3, TypeName: "Float", Index: 2, Required: true}) {
		t.Errorf("CNST = %#v", f0.PublicMetadata[0].Value)
	}
	s := lib.Source
	if s == nil || s.LinkOptions != "air-lld -o x.metallib" || s.WorkingDir != "/work/dir" || len(s.Archives) != 1 {
		t.Fatalf("source = %+v", s)
	}
	a := s.Archives[0]
	want := []ArchiveEntry{{"metal-options.txt", 17, 0o644}, {"add_one.metal", 100, 0o644}}
	if a.ID != "0" || a.Problem != "" || !slices.Equal(a.Entries, want) {
		t.Errorf("archive = %q %q %+v", a.ID, a.Problem, a.Entries)
	}
}

func TestParseOldStyle(t *testing.T) {
	lib, err := Parse(readTestdata(t, "old_style.metallib"))
	if err != nil {
		t.Fatal(err)
	}
	// Without MDSZ, the first slice runs to the second's offset, the last to
	// the section's end.
	f0, f1 := lib.Functions[0], lib.Functions[1]
	if f0.BitcodeSize != f1.BitcodeOffset || f1.BitcodeOffset+f1.BitcodeSize != lib.Sections.Bitcode.Size {
		t.Errorf("slices [0x%x+0x%x] [0x%x+0x%x] in section 0x%x", f0.BitcodeOffset, f0.BitcodeSize, f1.BitcodeOffset, f1.BitcodeSize, lib.Sections.Bitcode.Size)
	}
	attrs, ok := f0.PublicMetadata[0].Value.([]VertexAttribute)
	if !ok || len(attrs) != 1 || attrs[0] != (VertexAttribute{Name: "pos", Index: 0, Raw: 0x8000}) {
		t.Errorf("VATT = %#v", f0.PublicMetadata[0].Value)
	}
	if ty, ok := f0.PublicMetadata[1].Value.([]string); !ok || !slices.Equal(ty, []string{"Float4"}) {
		t.Errorf("VATY = %#v", f0.PublicMetadata[1].Value)
	}
	if len(lib.PublicMetadata) != 2 || len(lib.PrivateMetadata) != 1 || lib.PrivateMetadata[0].Name != "DEPF" {
		t.Errorf("library metadata: %d public, %d private tags", len(lib.PublicMetadata), len(lib.PrivateMetadata))
	}
}

// paddedOld assembles two functions without MDSZ whose first module is
// followed by a gap byte outside its HASH, as 2 corpus libraries do.
func paddedOld(gap byte) []byte {
	m0, m1 := fakeModule(5, 28), fakeModule(6, 28)
	return assemble(rawLib{
		platform: PlatformMacOS, major: 2, minor: 2,
		funcs: [][]rawTag{
			funcTags("a", FunctionVertex, m0, 0, 0, 0, false),
			funcTags("b", FunctionFragment, m1, uint64(len(m0))+1, 0, 0, false),
		},
		pub: [][]rawTag{{}}, priv: [][]rawTag{{}},
		bitcode: append(append(append([]byte{}, m0...), gap), m1...),
	})
}

func TestUnhashedPadding(t *testing.T) {
	for _, tt := range []struct {
		gap     byte
		matches bool
	}{{0, true}, {7, false}} {
		lib, err := Parse(paddedOld(tt.gap))
		if err != nil {
			t.Fatal(err)
		}
		f := lib.Functions[0]
		if f.HashMatches() != tt.matches {
			t.Errorf("gap 0x%02x: hash matches %v, want %v", tt.gap, f.HashMatches(), tt.matches)
		}
		noted := slices.Contains(lib.Unknown, "container.bitcode.unhashed_padding")
		if noted != tt.matches {
			t.Errorf("gap 0x%02x: padding feature noted %v, want %v", tt.gap, noted, tt.matches)
		}
	}
}

func TestCorruptHash(t *testing.T) {
	data := readTestdata(t, "three_functions.metallib")
	lib, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	// Flip one byte inside function 1's bitcode, then one inside function
	// 2's HASH tag.
	bad := bytes.Clone(data)
	bad[lib.Sections.Bitcode.Offset+lib.Functions[1].BitcodeOffset+40] ^= 0xff
	bad[lib.Functions[2].Tags[2].Offset+6] ^= 0xff
	lib, err = Parse(bad)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false, false} {
		if got := lib.Functions[i].HashMatches(); got != want {
			t.Errorf("function %d: HashMatches = %v, want %v", i, got, want)
		}
	}
}

func TestZeroFunctions(t *testing.T) {
	plain, err := Marshal(&Spec{Platform: PlatformMacOS, FormatMajor: 2, FormatMinor: 7})
	if err != nil {
		t.Fatal(err)
	}
	withExt := assemble(rawLib{platform: PlatformIOS, major: 2, minor: 8,
		ext: func(uint64) []rawTag { return []rawTag{{name: "UUID", data: make([]byte, 16)}} }})
	for name, data := range map[string][]byte{"plain": plain, "extension": withExt} {
		lib, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(lib.Functions) != 0 || len(lib.Unknown) != 0 {
			t.Errorf("%s: %d functions, unknown %q", name, len(lib.Functions), lib.Unknown)
		}
		if (lib.Extension != nil) != (name == "extension") {
			t.Errorf("%s: extension %v", name, lib.Extension)
		}
	}
}

func TestTrailingBytes(t *testing.T) {
	data := append(readTestdata(t, "one_kernel.metallib"), "trailing junk"...)
	if !ValidHeader(data) {
		t.Error("ValidHeader false with trailing bytes")
	}
	lib, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if lib.TrailingBytes != 13 || !lib.Functions[0].HashMatches() {
		t.Errorf("trailing %d, hash %v", lib.TrailingBytes, lib.Functions[0].HashMatches())
	}
}

// clampHeader patches a truncated library's header so that the file size is
// its length and every section is cut to fit, to reach the code past the
// header checks.
func clampHeader(p []byte) []byte {
	n := uint64(len(p))
	if n < HeaderSize {
		return p
	}
	le.PutUint64(p[16:], n)
	for at := 24; at < HeaderSize; at += 16 {
		off, size := min(le.Uint64(p[at:]), n), le.Uint64(p[at+8:])
		if at == 24 {
			size = min(size, n-min(off+4, n)) // the function list's count
		} else {
			size = min(size, n-off)
		}
		le.PutUint64(p[at:], off)
		le.PutUint64(p[at+8:], size)
	}
	return p
}

// TestTruncated parses every prefix of each small library, as is and with
// the header clamped to the prefix: never a panic, an error for every short
// prefix as is, and for clamped prefixes either a *FormatError or a library
// whose every function has its bitcode or a Problem.
func TestTruncated(t *testing.T) {
	for _, name := range []string{"one_kernel.metallib", "three_functions.metallib", "old_style.metallib", "modern_style.metallib"} {
		data := readTestdata(t, name)
		parsed := 0
		for n := range len(data) {
			if _, err := Parse(data[:n]); err == nil {
				t.Fatalf("%s[:%d] parsed", name, n)
			}
			p := clampHeader(bytes.Clone(data[:n]))
			lib, err := Parse(p)
			if err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("%s[:%d]: error %T is not a *FormatError", name, n, err)
				}
				continue
			}
			parsed++
			for _, f := range lib.Functions {
				if f.Problem == nil && f.Bitcode == nil {
					t.Errorf("%s[:%d]: function %q has neither bitcode nor problem", name, n, f.Name)
				}
			}
		}
		t.Logf("%s: %d of %d clamped prefixes parse", name, parsed, len(data))
		if parsed == 0 {
			t.Errorf("%s: no clamped prefix parses: the test reaches nothing past the header", name)
		}
	}
}

// patch returns a copy of data with f applied.
func patch(data []byte, f func(b []byte)) []byte {
	b := bytes.Clone(data)
	f(b)
	return b
}

// at returns the offset of the first occurrence of s in b after from.
func at(b []byte, s string, from int) int {
	i := bytes.Index(b[from:], []byte(s))
	if i < 0 {
		panic("marker " + s + " not found")
	}
	return from + i
}

func TestHostileLibrary(t *testing.T) {
	one := readTestdata(t, "one_kernel.metallib")
	modern := readTestdata(t, "modern_style.metallib")
	tests := []struct {
		name      string
		data      []byte
		construct string
		offset    int64 // -1: not checked
	}{
		{"magic", patch(one, func(b []byte) { b[0] = 'X' }), "header magic", 0},
		{"short header", one[:40], "header", 0},
		{"file size beyond data", patch(one, func(b []byte) { le.PutUint64(b[16:], uint64(len(one)+1)) }), "header file size", 16},
		{"file size huge", patch(one, func(b []byte) { le.PutUint64(b[16:], ^uint64(0)) }), "header file size", 16},
		{"function list beyond file", patch(one, func(b []byte) { le.PutUint64(b[24:], uint64(len(one))) }), "header function list section", 24},
		{"function list size wraps", patch(one, func(b []byte) { le.PutUint64(b[32:], ^uint64(0)-3) }), "header function list section", 24},
		{"function list in header", patch(one, func(b []byte) { le.PutUint64(b[24:], 8) }), "header function list section", 24},
		{"bitcode size wraps", patch(one, func(b []byte) { le.PutUint64(b[80:], ^uint64(0)) }), "header bitcode section", 72},
		{"private metadata beyond", patch(one, func(b []byte) { le.PutUint64(b[56:], 1<<40) }), "header private metadata section", 56},
		{"function count huge", patch(one, func(b []byte) { le.PutUint32(b[88:], 0xffffffff) }), "function list count", 88},
		{"function count short", patch(modern, func(b []byte) { le.PutUint32(b[88:], 1) }), "function list", -1},
		{"group size huge", patch(one, func(b []byte) { le.PutUint32(b[92:], 0x7fffffff) }), "function[0]", 92},
		{"group size tiny", patch(one, func(b []byte) { le.PutUint32(b[92:], 2) }), "function[0]", 92},
		{"tag size past group", patch(one, func(b []byte) { le.PutUint16(b[at(b, "NAME", 0)+4:], 0xffff) }), "function[0] tag NAME", int64(at(one, "NAME", 0))},
		{"ENDT missing", patch(one, func(b []byte) { copy(b[at(b, "ENDT", 0):], "XNDT") }), "function[0]", -1},
		{"extension section beyond", patch(modern, func(b []byte) { le.PutUint64(b[at(b, "HSRD", 0)+6:], 1<<50) }), "header extension tag HSRD", int64(at(modern, "HSRD", 0))},
		{"extension tag size", patch(modern, func(b []byte) { le.PutUint16(b[at(b, "UUID", 0)+4:], 0xfff0) }), "header extension tag UUID", int64(at(modern, "UUID", 0))},
		{"source count huge", patch(modern, func(b []byte) { b[le.Uint64(b[at(b, "HSRD", 0)+6:])+3] = 0x7f }), "embedded source (HSRD) count", -1},
		{"source SARC size", patch(modern, func(b []byte) { le.PutUint32(b[at(b, "SARC", 0)+4:], 0x7fffffff) }), "embedded source (HSRD) archive[0] tag SARC", int64(at(modern, "SARC", 0))},
		{"dynamic name unterminated", patch(modern, func(b []byte) {
			i := at(b, "lib.metallib", 0)
			b[i+len("lib.metallib")] = 'x'
		}), "dynamic header tag NAME", -1},
		{"reflection count huge", patch(modern, func(b []byte) { le.PutUint32(b[le.Uint64(b[at(b, "RLST", 0)+6:]):], 0x10000000) }), "reflection list count", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib, err := Parse(tt.data)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Parse = %v, %v; want a *FormatError", lib, err)
			}
			if !strings.HasPrefix(fe.Construct, tt.construct) {
				t.Errorf("construct %q, want prefix %q (%v)", fe.Construct, tt.construct, err)
			}
			if tt.offset >= 0 && fe.Offset != tt.offset {
				t.Errorf("offset 0x%x, want 0x%x (%v)", fe.Offset, tt.offset, err)
			}
			if !strings.Contains(err.Error(), fe.Construct) {
				t.Errorf("message %q does not name the construct", err)
			}
		})
	}
}

// TestFunctionProblems breaks one function at a time: the library still
// parses and only that function carries a Problem naming the construct.
func TestFunctionProblems(t *testing.T) {
	three := readTestdata(t, "three_functions.metallib")
	modern := readTestdata(t, "modern_style.metallib")
	// offt returns the offset of the n-th OFFT tag's content.
	offt := func(b []byte, n int) int {
		i := 0
		for range n + 1 {
			i = at(b, "OFFT", i) + 4
		}
		return i + 2
	}
	tests := []struct {
		name      string
		data      []byte
		fn        int
		construct string
	}{
		{"bitcode offset beyond section", patch(three, func(b []byte) { le.PutUint64(b[offt(b, 1)+16:], 1<<20) }), 1, `function[1] "fragment_main" tag OFFT`},
		{"bitcode offset wraps", patch(three, func(b []byte) { le.PutUint64(b[offt(b, 1)+16:], ^uint64(0)) }), 1, `function[1] "fragment_main" tag OFFT`},
		{"MDSZ beyond section", patch(three, func(b []byte) { le.PutUint64(b[at(b, "MDSZ", 0)+6:], ^uint64(0)) }), 0, `function[0] "vertex_main" tag MDSZ`},
		{"public metadata beyond", patch(three, func(b []byte) { le.PutUint64(b[offt(b, 2):], 1<<30) }), 2, `function[2] "add_one" public metadata`},
		{"private metadata group", patch(three, func(b []byte) { le.PutUint64(b[offt(b, 2)+8:], 1) }), 2, `function[2] "add_one" private metadata`},
		{"TYPE size", patch(three, func(b []byte) { copy(b[at(b, "VERS", 0):], "TYPE") }), 0, `function[0] tag TYPE`},
		{"unknown TYPE code", patch(three, func(b []byte) { b[at(b, "TYPE", 0)+6] = 99 }), -1, ""},
		{"HASH size", patch(three, func(b []byte) {
			i := at(b, "VERS", 0)
			copy(b[i:], "HASH") // a HASH with 8 bytes
		}), 0, `function[0] tag HASH`},
		{"no OFFT", patch(three, func(b []byte) { copy(b[at(b, "OFFT", 0):], "OFFX") }), 0, `function[0] "vertex_main"`},
		{"no NAME", patch(three, func(b []byte) { copy(b[at(b, "NAME", 0):], "NAMX") }), 0, `function[0]`},
		{"SOFF beyond source", patch(modern, func(b []byte) { le.PutUint64(b[at(b, "SOFF", 0)+6:], 1<<20) }), 0, `function[0] "main0" tag SOFF`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib, err := Parse(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range lib.Functions {
				if i != tt.fn {
					if f.Problem != nil {
						t.Errorf("function %d: unexpected problem %v", i, f.Problem)
					}
					continue
				}
				if f.Problem == nil {
					t.Fatalf("function %d has no problem", i)
				}
				if !strings.HasPrefix(f.Problem.Construct, tt.construct) {
					t.Errorf("construct %q, want prefix %q (%v)", f.Problem.Construct, tt.construct, f.Problem)
				}
			}
		})
	}
}

func TestValidHeader(t *testing.T) {
	one := readTestdata(t, "one_kernel.metallib")
	tests := []struct {
		name string
		data []byte
		want bool
	}{
		{"library", one, true},
		{"library then more", append(bytes.Clone(one), make([]byte, 100)...), true},
		{"empty", nil, false},
		{"magic only", []byte("MTLB"), false},
		{"header only", one[:HeaderSize], false},
		{"truncated", one[:len(one)-1], false},
		{"wrong magic", patch(one, func(b []byte) { b[3] = 'C' }), false},
		{"count too big", patch(one, func(b []byte) { le.PutUint32(b[88:], 1000) }), false},
		{"bitcode past end", patch(one, func(b []byte) { le.PutUint64(b[80:], uint64(len(one))) }), false},
		{"text that says MTLB", append([]byte("MTLB is the magic of Metal libraries"), make([]byte, 100)...), false},
	}
	for _, tt := range tests {
		if got := ValidHeader(tt.data); got != tt.want {
			t.Errorf("%s: ValidHeader = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestRawBitcode(t *testing.T) {
	good := fakeModule(9, 20)
	tests := []struct {
		name string
		bc   []byte
		err  string
	}{
		{"good", good, ""},
		{"nil", nil, "shorter than"},
		{"short", good[:12], "shorter than"},
		{"magic", patch(good, func(b []byte) { b[0] = 0 }), "magic"},
		{"offset beyond", patch(good, func(b []byte) { le.PutUint32(b[8:], 0x1000) }), "outside"},
		{"size beyond", patch(good, func(b []byte) { le.PutUint32(b[12:], 0xffffffff) }), "outside"},
		{"offset inside header", patch(good, func(b []byte) { le.PutUint32(b[8:], 4) }), "outside"},
		{"not BC", patch(good, func(b []byte) { b[20] = 'X' }), "BC 0xC0DE"},
	}
	for _, tt := range tests {
		f := Function{Name: "f", Bitcode: tt.bc}
		raw, err := f.RawBitcode()
		switch {
		case tt.err == "" && (err != nil || !bytes.HasPrefix(raw, rawMagic) || len(raw) != 24):
			t.Errorf("%s: %d bytes, %v", tt.name, len(raw), err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		}
	}
}

func TestNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{PlatformName(0x8001), "macOS"},
		{PlatformName(0x0001), "iOS"},
		{PlatformName(0x0002), "unknown(0x0002)"},
		{TargetOSName(0x81), "macOS"},
		{TargetOSName(0x87), "iOS Simulator"},
		{TargetOSName(0x8b), "visionOS"},
		{TargetOSName(0x9f), "unknown(0x9f)"},
		{LibraryTypeName(2), "dynamic"},
		{LibraryTypeName(9), "unknown(0x09)"},
		{FunctionTypeName(0), "vertex"},
		{FunctionTypeName(4), "visible"},
		{FunctionTypeName(6), "intersection"},
		{FunctionTypeName(7), "mesh?"},
		{FunctionTypeName(8), "unknown(0x08)"},
		{DataTypeName(3), "Float"},
		{DataTypeName(140), "Tensor"},
		{DataTypeName(57), "unknown(0x39)"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestSourceArchiveProblems(t *testing.T) {
	modern := readTestdata(t, "modern_style.metallib")
	bz := at(modern, "BZh", 0)
	tests := []struct {
		name    string
		data    []byte
		problem string
	}{
		{"not bzip2", patch(modern, func(b []byte) { b[bz] = 'X' }), "bzip2 magic"},
		{"corrupt stream", patch(modern, func(b []byte) {
			for i := bz + 20; i < bz+60; i++ {
				b[i] ^= 0x5a
			}
		}), "archive: "},
	}
	for _, tt := range tests {
		lib, err := Parse(tt.data)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if p := lib.Source.Archives[0].Problem; !strings.Contains(p, tt.problem) {
			t.Errorf("%s: problem %q, want %q", tt.name, p, tt.problem)
		}
	}
	lib, err := ParseWith(modern, Options{SkipArchiveListing: true})
	if err != nil || lib.Source.Archives[0].Entries != nil || lib.Source.Archives[0].CompressedBytes == 0 {
		t.Errorf("SkipArchiveListing: %v %+v", err, lib.Source.Archives[0])
	}
	budget := int64(100)
	if _, p := listArchive(lib.Source.Archives[0].Compressed, &budget); !strings.Contains(p, "more than") || budget != 0 {
		t.Errorf("budget: problem %q, %d left", p, budget)
	}
}

package macho_test

import (
	"bytes"
	dm "debug/macho"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/macho"
	"github.com/airpipe/airpipe/corpus/macho/machotest"
)

var payload = bytes.Repeat([]byte("MTLBpayload"), 10)

func thin() []byte {
	return machotest.Thin(machotest.CPUARM64, machotest.SubARM64E, 0,
		machotest.Section{Segment: "__DATA", Name: "__data", Data: []byte("hello")},
		machotest.Section{Segment: "__DATA", Name: "__metallib", Data: payload})
}

func TestThinMatchesDebugMacho(t *testing.T) {
	data := thin()
	f, err := macho.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != macho.KindThin || len(f.Slices) != 1 || f.Slices[0].Arch() != "arm64e" {
		t.Fatalf("got %+v", f)
	}
	ref, err := dm.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("debug/macho refuses the built image: %v", err)
	}
	im := f.Slices[0].Image
	if len(im.Sections) != len(ref.Sections) {
		t.Fatalf("%d sections, debug/macho %d", len(im.Sections), len(ref.Sections))
	}
	for i, s := range im.Sections {
		r := ref.Sections[i]
		if s.Name != r.Name || s.Segment != r.Seg || s.Offset != int64(r.Offset) || s.Size != int64(r.Size) {
			t.Errorf("section %d: %+v, debug/macho %+v", i, s, r.SectionHeader)
		}
	}
	s := im.Sections[1]
	if !bytes.Equal(data[s.Offset:s.Offset+s.Size], payload) || s.FullName() != "__DATA,__metallib" {
		t.Errorf("section %+v does not hold the payload", s)
	}
	if got, ok := im.SectionAt(s.Offset + 3); !ok || got.Name != "__metallib" {
		t.Errorf("SectionAt = %+v %v", got, ok)
	}
}

func TestFat(t *testing.T) {
	air := append([]byte("MTLB"), make([]byte, 60)...)
	for _, tc := range []struct {
		name  string
		magic uint32
		order binary.ByteOrder
		kind  macho.Kind
	}{
		{"classic", macho.MagicFat, binary.BigEndian, macho.KindFat},
		{"metal little-endian table", macho.MagicFatMetal, binary.LittleEndian, macho.KindFatMetal},
		{"metal big-endian table", macho.MagicFatMetal, binary.BigEndian, macho.KindFatMetal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := machotest.Fat(tc.magic, tc.order,
				machotest.Slice{CPU: machotest.CPUX8664, Sub: 3, Data: machotest.Thin(machotest.CPUX8664, 3, 0, machotest.Section{Segment: "__TEXT", Name: "__text", Data: []byte{0xc3}})},
				machotest.Slice{CPU: machotest.CPUARM64, Sub: machotest.SubARM64E, Data: thin()},
				machotest.Slice{CPU: machotest.CPUAIR64, Data: air})
			f, err := macho.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if f.Kind != tc.kind || len(f.Slices) != 3 {
				t.Fatalf("kind %v, %d slices", f.Kind, len(f.Slices))
			}
			want := []string{"x86_64", "arm64e", "air64"}
			for i, s := range f.Slices {
				if s.Arch() != want[i] {
					t.Errorf("slice %d arch %s, want %s", i, s.Arch(), want[i])
				}
			}
			if f.Slices[2].Image != nil || !bytes.HasPrefix(data[f.Slices[2].Offset:], []byte("MTLB")) {
				t.Errorf("AIR64 slice: %+v", f.Slices[2])
			}
			sec := f.Slices[1].Image.Sections[1]
			if !bytes.Equal(data[sec.Offset:sec.Offset+sec.Size], payload) {
				t.Errorf("arm64e section %+v not at the payload", sec)
			}
			if tc.magic == macho.MagicFat {
				// debug/macho reads classic fat binaries whose slices are all Mach-O.
				two := machotest.Fat(tc.magic, tc.order,
					machotest.Slice{CPU: machotest.CPUX8664, Sub: 3, Data: machotest.Thin(machotest.CPUX8664, 3, 0, machotest.Section{Segment: "__TEXT", Name: "__text", Data: []byte{0xc3}})},
					machotest.Slice{CPU: machotest.CPUARM64, Sub: machotest.SubARM64E, Data: thin()})
				ref, err := dm.NewFatFile(bytes.NewReader(two))
				if err != nil {
					t.Fatalf("debug/macho: %v", err)
				}
				for i, a := range ref.Arches {
					if int64(a.Offset) != f.Slices[i].Offset || int64(a.Size) != f.Slices[i].Size {
						t.Errorf("slice %d: debug/macho %d+%d, got %d+%d", i, a.Offset, a.Size, f.Slices[i].Offset, f.Slices[i].Size)
					}
				}
			}
		})
	}
}

func TestCache(t *testing.T) {
	data := machotest.Cache(
		machotest.CacheImage{Path: "/usr/lib/libA.dylib", Sections: []machotest.Section{{Segment: "__TEXT", Name: "__text", Data: []byte{1, 2, 3}}}},
		machotest.CacheImage{Path: "/System/Library/Frameworks/B.framework/B", Sections: []machotest.Section{{Segment: "__DATA", Name: "__metallib", Data: payload}}},
	)
	f, err := macho.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	c := f.Cache
	if f.Kind != macho.KindDyldCache || c.Arch != "arm64e" || len(c.Mappings) != 1 || len(c.Images) != 2 {
		t.Fatalf("cache %+v", c)
	}
	at := bytes.Index(data, payload)
	im, sec, ok := c.ImageAt(int64(at))
	if !ok || im.Path != "/System/Library/Frameworks/B.framework/B" || sec.FullName() != "__DATA,__metallib" || sec.Offset != int64(at) {
		t.Fatalf("ImageAt(0x%x) = %+v %+v %v", at, im, sec, ok)
	}
}

// TestMalformed breaks each checked field on purpose and expects an error
// naming the construct.
func TestMalformed(t *testing.T) {
	put := func(b []byte, off int, v uint32, order binary.ByteOrder) []byte {
		c := bytes.Clone(b)
		order.PutUint32(c[off:], v)
		return c
	}
	fat := machotest.Fat(macho.MagicFat, nil, machotest.Slice{CPU: machotest.CPUARM64, Data: thin()})
	cache := machotest.Cache(machotest.CacheImage{Path: "/a", Sections: []machotest.Section{{Segment: "__TEXT", Name: "__text", Data: []byte{1}}}})
	le := binary.LittleEndian
	for _, tc := range []struct {
		name, construct string
		data            []byte
	}{
		{"truncated header", "mach-o header", thin()[:20]},
		{"sizeofcmds past end", "sizeofcmds", put(thin(), 20, 0xffffff00, le)},
		{"ncmds too many", "ncmds", put(thin(), 16, 1000, le)},
		{"cmdsize zero", "cmdsize", put(thin(), 36, 0, le)},
		{"nsects too many", "nsects", put(thin(), 32+64, 99, le)},
		{"section offset past end", "section __DATA,__data", put(thin(), 32+72+48, 0x7fffffff, le)},
		{"segment fileoff past end", "segment __DATA", put(thin(), 32+40, 0x7fffffff, le)},
		{"fat zero slices", "nfat_arch", put(fat, 4, 0, binary.BigEndian)},
		{"fat too many slices", "nfat_arch", put(fat, 4, 1000, binary.BigEndian)},
		{"fat slice past end", "fat slice arm64", put(fat, 8+12, 0x7fffffff, binary.BigEndian)},
		{"fat slice inside table", "fat slice arm64", put(fat, 8+8, 4, binary.BigEndian)},
		{"cache mappings past end", "dyld cache mappings", put(cache, 0x14, 1<<20, le)},
		{"cache images past end", "dyld cache images", put(cache, 0x1c4, 1<<16, le)},
		{"cache path past end", "dyld cache images path", put(cache, 0x1e8+24, 0x7fffffff, le)},
		{"not a container", "container magic", []byte("hello world, this is text")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := macho.Parse(tc.data)
			var fe *macho.FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.construct) {
				t.Fatalf("err = %v, want a FormatError naming %q", err, tc.construct)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add(thin())
	f.Add(machotest.Fat(macho.MagicFat, nil, machotest.Slice{CPU: machotest.CPUARM64, Data: thin()}))
	f.Add(machotest.Fat(macho.MagicFatMetal, binary.LittleEndian, machotest.Slice{CPU: machotest.CPUAIR64, Data: []byte("MTLB")}))
	f.Add(machotest.Cache(machotest.CacheImage{Path: "/a", Sections: []machotest.Section{{Segment: "__TEXT", Name: "__text", Data: []byte{1}}}}))
	seeds, _ := filepath.Glob("testdata/*.bin")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := macho.Parse(data)
		if err != nil {
			return
		}
		n := int64(len(data))
		check := func(im *macho.Image) {
			for _, s := range im.Sections {
				if !s.NoData && (s.Offset < 0 || s.Size < 0 || s.Offset+s.Size > n) {
					t.Fatalf("section %+v outside %d bytes", s, n)
				}
			}
		}
		for _, s := range file.Slices {
			if s.Offset < 0 || s.Offset+s.Size > n {
				t.Fatalf("slice %+v outside %d bytes", s, n)
			}
			if s.Image != nil {
				check(s.Image)
			}
		}
		if file.Cache != nil {
			for _, im := range file.Cache.Images {
				if im.Image != nil {
					check(im.Image)
				}
			}
		}
	})
}

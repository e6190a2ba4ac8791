package scan_test

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/macho/machotest"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/corpus/scan"
)

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
	return b
}

// wrapped returns the test kernel's wrapped bitcode (a bare module).
func wrapped(t testing.TB) []byte {
	w, err := mtlb.Wrap(kernelBitcode(t))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestFind(t *testing.T) {
	lib := library(t, "add_one")
	mod := wrapped(t)
	sect := func(name string, data []byte) machotest.Section {
		return machotest.Section{Segment: "__DATA", Name: name, Data: data}
	}
	thin := machotest.Thin(machotest.CPUARM64, machotest.SubARM64E, 0, sect("__data", []byte("x")), sect("__metallib", lib))
	raw := append(append(randomBytes(1001, 1), lib...), randomBytes(333, 2)...)
	raw = append(append(raw, mod...), randomBytes(17, 3)...)
	type want struct {
		kind, where string
		data        []byte
	}
	for _, tc := range []struct {
		name      string
		data      []byte
		container string
		want      []want
	}{
		{"whole library", lib, "", []want{{scan.KindFile, "", lib}}},
		{"thin Mach-O section", thin, "mach-o", []want{{scan.KindMachOSection, "__DATA,__metallib", lib}}},
		{"fat Mach-O", machotest.Fat(0xcafebabe, nil, machotest.Slice{CPU: machotest.CPUX8664, Sub: 3, Data: thin}, machotest.Slice{CPU: machotest.CPUARM64, Sub: machotest.SubARM64E, Data: thin}), "fat",
			[]want{{scan.KindMachOSection, "x86_64 slice/__DATA,__metallib", lib}, {scan.KindMachOSection, "arm64e slice/__DATA,__metallib", lib}}},
		{"Metal fat binary", machotest.Fat(0xcbfebabe, binary.LittleEndian, machotest.Slice{CPU: machotest.CPUAIR64, Data: lib}, machotest.Slice{CPU: machotest.CPUARM64, Sub: machotest.SubARM64E, Data: thin}), "metal-fat",
			[]want{{scan.KindFatSlice, "air64 slice", lib}, {scan.KindMachOSection, "arm64e slice/__DATA,__metallib", lib}}},
		{"dyld cache", machotest.Cache(machotest.CacheImage{Path: "/usr/lib/libA.dylib", Sections: []machotest.Section{{Segment: "__TEXT", Name: "__text", Data: mod}}},
			machotest.CacheImage{Path: "/System/Library/PrivateFrameworks/GPU.framework/GPU", Sections: []machotest.Section{sect("__metallib", lib)}}), "dyld-cache",
			[]want{{scan.KindBareModule, "/usr/lib/libA.dylib/__TEXT,__text", mod}, {scan.KindCacheBlob, "/System/Library/PrivateFrameworks/GPU.framework/GPU/__DATA,__metallib", lib}}},
		{"raw bytes", raw, "", []want{{scan.KindEmbedded, "", lib}, {scan.KindBareModule, "", mod}}},
		{"bare module file", mod, "", []want{{scan.KindBareModule, "", mod}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := scan.Find(tc.data)
			if f.Container != tc.container || f.ContainerError != "" {
				t.Errorf("container %q (%s), want %q", f.Container, f.ContainerError, tc.container)
			}
			if f.Rejected != 0 {
				t.Errorf("rejected %d: %+v", f.Rejected, f.Rejections)
			}
			if len(f.Blobs) != len(tc.want) {
				t.Fatalf("blobs %+v, want %d", f.Blobs, len(tc.want))
			}
			for i, b := range f.Blobs {
				w := tc.want[i]
				if b.Kind != w.kind || b.Where != w.where {
					t.Errorf("blob %d: %s %q, want %s %q", i, b.Kind, b.Where, w.kind, w.where)
				}
				if got := tc.data[b.Offset : b.Offset+b.Size]; !bytes.Equal(got, w.data) {
					t.Errorf("blob %d at 0x%x size 0x%x does not hold the planted bytes", i, b.Offset, b.Size)
				}
			}
		})
	}
}

// TestRejected plants magics that fail validation, including a real
// library and module broken on purpose, and expects each to be counted.
func TestRejected(t *testing.T) {
	lib := library(t, "add_one")
	mod := wrapped(t)
	truncLib := lib[:len(lib)-1] // declared size now runs past the data
	badStream := bytes.Clone(mod)
	badStream[20] = 'X' // stream no longer starts with BC 0xC0DE
	badOffset := bytes.Clone(mod)
	binary.LittleEndian.PutUint32(badOffset[8:], 0x7fffffff)
	badSection := bytes.Clone(lib)
	binary.LittleEndian.PutUint64(badSection[72:], uint64(len(lib))) // bitcode section offset at the end
	for _, tc := range []struct {
		name, magic, reason string
		data                []byte
	}{
		{"truncated library", "MTLB", "header file size", truncLib},
		{"library section outside", "MTLB", "bitcode section", append(bytes.Clone(badSection), randomBytes(64, 9)...)},
		{"bare MTLB", "MTLB", "header", append([]byte("MTLB"), randomBytes(200, 4)...)},
		{"wrapper without BC", "0x0B17C0DE", "does not start with BC", badStream},
		{"wrapper offset outside", "0x0B17C0DE", "outside", badOffset},
		{"short wrapper", "0x0B17C0DE", "shorter than", mod[:10]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := append(randomBytes(40, 5), tc.data...)
			f := scan.Find(data)
			// The broken library still holds a valid module: a wrapper inside a
			// rejected library is found as a bare module, which is correct.
			for _, b := range f.Blobs {
				if b.Kind != scan.KindBareModule {
					t.Errorf("found %+v in broken input", b)
				}
			}
			if f.Rejected < 1 || len(f.Rejections) == 0 {
				t.Fatalf("nothing rejected: %+v", f)
			}
			r := f.Rejections[0]
			if r.Magic != tc.magic || r.Offset != 40 || !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("rejection %+v, want %s at 40 with %q", r, tc.magic, tc.reason)
			}
		})
	}
}

func TestRandomDataNoFalsePositives(t *testing.T) {
	data := randomBytes(16<<20, 7)
	r := rand.New(rand.NewPCG(8, 8))
	const planted = 200
	for i := 0; i < planted; i++ {
		at := r.IntN(len(data) - 8)
		if i%2 == 0 {
			copy(data[at:], "MTLB")
		} else {
			binary.LittleEndian.PutUint32(data[at:], 0x0B17C0DE)
		}
	}
	f := scan.Find(data)
	if len(f.Blobs) != 0 {
		t.Fatalf("false positives: %+v", f.Blobs)
	}
	if f.Rejected < planted || len(f.Rejections) != scan.MaxRejections {
		t.Fatalf("rejected %d (%d kept), want >= %d", f.Rejected, len(f.Rejections), planted)
	}
	t.Logf("16 MiB random data with %d planted magics: %d rejected, 0 found", planted, f.Rejected)
}

// TestCorpus finds exactly one whole-file library in every real library.
func TestCorpus(t *testing.T) {
	root := os.Getenv("AIRPIPE_CORPUS")
	if root == "" {
		t.Skip("AIRPIPE_CORPUS not set: no real corpus to scan")
	}
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".metallib") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		f := scan.Find(data)
		if len(f.Blobs) != 1 || f.Blobs[0].Kind != scan.KindFile || f.Blobs[0].Offset != 0 || f.Blobs[0].Size != int64(len(data)) {
			t.Errorf("%s: %+v (rejected %d %+v)", p, f.Blobs, f.Rejected, f.Rejections)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no .metallib under %s", root)
	}
	t.Logf("%d corpus libraries, one file blob each", n)
}

func BenchmarkFind(b *testing.B) {
	lib := library(b, "add_one")
	mod := wrapped(b)
	data := randomBytes(64<<20, 11)
	for i := 1; i <= 4; i++ {
		copy(data[i*(12<<20)+i:], lib)
		copy(data[i*(12<<20)+(6<<20)+3*i:], mod)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		f := scan.Find(data)
		if len(f.Blobs) != 8 {
			b.Fatalf("%d blobs", len(f.Blobs))
		}
	}
}

func FuzzFind(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.bin")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("MTLB"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := scan.Find(data)
		end := int64(0)
		for _, b := range fs.Blobs {
			if b.Offset < end || b.Size <= 0 || b.Offset+b.Size > int64(len(data)) {
				t.Fatalf("blob %+v overlaps or leaves %d bytes (previous end %d)", b, len(data), end)
			}
			end = b.Offset + b.Size
			if b.Kind != scan.KindBareModule && !mtlb.ValidHeader(data[b.Offset:]) {
				t.Fatalf("library blob %+v fails ValidHeader", b)
			}
		}
	})
}

// TestBrokenContainer breaks a Mach-O's load commands on purpose: the raw
// scan still finds the library, named "embedded", and the error is kept.
func TestBrokenContainer(t *testing.T) {
	lib := library(t, "add_one")
	thin := machotest.Thin(machotest.CPUARM64, machotest.SubARM64E, 0, machotest.Section{Segment: "__DATA", Name: "__metallib", Data: lib})
	binary.LittleEndian.PutUint32(thin[16:], 1000) // ncmds
	f := scan.Find(thin)
	if f.Container != "mach-o" || !strings.Contains(f.ContainerError, "ncmds") {
		t.Errorf("container %q error %q", f.Container, f.ContainerError)
	}
	if len(f.Blobs) != 1 || f.Blobs[0].Kind != scan.KindEmbedded || f.Blobs[0].Size != int64(len(lib)) {
		t.Errorf("blobs %+v", f.Blobs)
	}
}

// Package ipswtest builds synthetic firmware for tests: small libraries
// (llvm-as-19 + the MTLB writer), image trees, ISO 9660 images
// (genisoimage), squashfs images (mksquashfs), .ipsw zips with a
// BuildManifest, and one whole synthetic firmware.
package ipswtest

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/airpipe/airpipe/corpus/macho/machotest"
	"github.com/airpipe/airpipe/corpus/mtlb"
)

//go:embed BuildManifest.plist
var buildManifest []byte

//go:embed kernel.ll
var kernelLL []byte

// Need skips the test when a program is missing, naming its package.
func Need(t testing.TB, program, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(program); err != nil {
		t.Skipf("%s not installed (Debian %s)", program, pkg)
	}
}

func run(t testing.TB, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// Library builds a one-function library around kernel.ll.
func Library(t testing.TB, name string) []byte {
	t.Helper()
	Need(t, "llvm-as-19", "llvm-19")
	bc := filepath.Join(t.TempDir(), "k.bc")
	ll := filepath.Join(t.TempDir(), "kernel.ll")
	if err := os.WriteFile(ll, kernelLL, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, "llvm-as-19", ll, "-o", bc)
	raw, err := os.ReadFile(bc)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := mtlb.Marshal(&mtlb.Spec{Platform: mtlb.PlatformIOS, FormatMajor: 2, FormatMinor: 7, TargetOS: 0x82, OSMajor: 16, OSMinor: 5,
		Functions: []mtlb.SpecFunction{{Name: name, Type: mtlb.FunctionKernel, Bitcode: raw, AIRMajor: 2, AIRMinor: 6, LangMajor: 3, LangMinor: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

// Node is one file of a test image tree.
type Node struct {
	Data []byte
	Mode os.FileMode
	// Link makes the node a symbolic link to Link.
	Link string
}

// Tree writes nodes under a new directory and returns it.
func Tree(t testing.TB, nodes map[string]Node) string {
	t.Helper()
	root := t.TempDir()
	for p, n := range nodes {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if n.Link != "" {
			if err := os.Symlink(n.Link, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mode := n.Mode
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(full, n.Data, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(full, mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// ISOImage makes an ISO 9660 image with Rock Ridge names and modes.
func ISOImage(t testing.TB, dir string) []byte {
	t.Helper()
	Need(t, "genisoimage", "genisoimage")
	out := filepath.Join(t.TempDir(), "img.iso")
	run(t, "genisoimage", "-quiet", "-R", "-o", out, dir)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// SquashImage makes a squashfs image.
func SquashImage(t testing.TB, dir string) []byte {
	t.Helper()
	Need(t, "mksquashfs", "squashfs-tools")
	out := filepath.Join(t.TempDir(), "img.sqfs")
	run(t, "mksquashfs", dir, out, "-quiet", "-noappend", "-no-progress")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ZipEntry is one entry of a test .ipsw.
type ZipEntry struct {
	Name string
	Data []byte
	// Store writes the entry uncompressed.
	Store bool
}

// WriteZip writes entries to a new zip file and returns its path.
func WriteZip(t testing.TB, name string, entries ...ZipEntry) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate}
		if e.Store {
			h.Method = zip.Store
		}
		ew, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ew.Write(e.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// Firmware builds a synthetic .ipsw: an ISO root filesystem, a squashfs
// system cryptex, an AEA-encrypted app cryptex and a BuildManifest naming
// them (plus a ramdisk and a root hash that are not read).
func Firmware(t *testing.T) (string, []byte) {
	t.Helper()
	Need(t, "7z", "p7zip-full")
	lib := Library(t, "foo_kernel")
	thin := machotest.Thin(machotest.CPUARM64, machotest.SubARM64E, 0,
		machotest.Section{Segment: "__TEXT", Name: "__text", Data: []byte{0xc0, 0x03, 0x5f, 0xd6}},
		machotest.Section{Segment: "__DATA", Name: "__metallib", Data: lib})
	fat := machotest.Fat(0xcafebabe, nil,
		machotest.Slice{CPU: machotest.CPUX8664, Sub: 3, Data: machotest.Thin(machotest.CPUX8664, 3, 0)},
		machotest.Slice{CPU: machotest.CPUARM64, Sub: machotest.SubARM64E, Data: thin})
	rootfs := Tree(t, map[string]Node{
		"System/Library/Frameworks/Foo.framework/default.metallib": {Data: lib},
		"System/Library/Frameworks/Foo.framework/Foo":              {Data: thin, Mode: 0o755},
		"System/Library/Frameworks/Foo.framework/Info.plist":       {Data: []byte("<plist/>")},
		"System/Library/VideoProcessors/GNR.videoprocessor/GNR":    {Data: fat},
		"usr/libexec/daemon":  {Data: machotest.Thin(machotest.CPUARM64, machotest.SubARM64E, 0), Mode: 0o755},
		"usr/bin/script.sh":   {Data: []byte("#!/bin/sh\necho hi\n"), Mode: 0o755},
		"usr/lib/link.dylib":  {Link: "../../System/Library/Frameworks/Foo.framework/Foo"},
		"usr/share/readme.md": {Data: []byte("not a binary")},
	})
	cache := machotest.Cache(
		machotest.CacheImage{Path: "/usr/lib/libobjc.A.dylib", Sections: []machotest.Section{{Segment: "__TEXT", Name: "__text", Data: []byte{1, 2, 3, 4}}}},
		machotest.CacheImage{Path: "/System/Library/PrivateFrameworks/GPUCompiler.framework/GPUCompiler", Sections: []machotest.Section{{Segment: "__DATA", Name: "__metallib", Data: lib}}})
	cryptex := Tree(t, map[string]Node{
		"System/Library/Caches/com.apple.dyld/dyld_shared_cache_arm64e":     {Data: cache},
		"System/Library/Caches/com.apple.dyld/dyld_shared_cache_arm64e.map": {Data: []byte("mapping text")},
		"System/Library/Shaders/bar.metallib":                               {Data: lib},
	})
	manifest := Manifest()
	aea := append([]byte("AEA1"), bytes.Repeat([]byte{0x5a}, 4096)...)
	p := WriteZip(t, "iPhone.ipsw",
		ZipEntry{Name: "BuildManifest.plist", Data: manifest},
		ZipEntry{Name: "078-12345-001.dmg", Data: ISOImage(t, rootfs)},
		ZipEntry{Name: "094-55555-002.dmg", Data: SquashImage(t, cryptex), Store: true},
		ZipEntry{Name: "094-55555-002.dmg.root_hash", Data: []byte("hash")},
		ZipEntry{Name: "096-77777-004.dmg", Data: aea},
		ZipEntry{Name: "038-00000-005.dmg", Data: []byte("IMG4 ramdisk")},
		ZipEntry{Name: "Firmware/all_flash/iBoot.im4p", Data: []byte("im4p")},
	)
	return p, lib
}

// Manifest returns a BuildManifest.plist naming a root filesystem image
// 078-12345-001.dmg and cryptexes 094-55555-002.dmg and 096-77777-004.dmg.
func Manifest() []byte { return append([]byte(nil), buildManifest...) }

package ipsw_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"github.com/airpipe/airpipe/corpus/ipsw/ipswtest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/ipsw"
	"github.com/airpipe/airpipe/corpus/scan"
)

func TestOpenFirmware(t *testing.T) {
	p, lib := ipswtest.Firmware(t)
	cacheDir := t.TempDir()
	fw, err := ipsw.Open(context.Background(), p, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if fw.Version != "16.5" || fw.Build != "20F66" {
		t.Errorf("version %q build %q", fw.Version, fw.Build)
	}
	want := []string{
		"078-12345-001.dmg!/System/Library/Frameworks/Foo.framework/Foo",
		"078-12345-001.dmg!/System/Library/Frameworks/Foo.framework/default.metallib",
		"078-12345-001.dmg!/System/Library/VideoProcessors/GNR.videoprocessor/GNR",
		"078-12345-001.dmg!/usr/libexec/daemon",
		"094-55555-002.dmg!/System/Library/Caches/com.apple.dyld/dyld_shared_cache_arm64e",
		"094-55555-002.dmg!/System/Library/Shaders/bar.metallib",
	}
	var got []string
	for _, f := range fw.Files() {
		got = append(got, strings.TrimPrefix(f.Provenance, p+"!/"))
		if !strings.HasPrefix(f.Provenance, p+"!/"+f.Image+"!/") || !strings.HasPrefix(f.LocalPath, cacheDir) {
			t.Errorf("file %+v", f)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("files\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	problems := fw.Problems()
	if len(problems) != 1 || problems[0].Code != ipsw.CodeEncryptedImage || problems[0].Image != "096-77777-004.dmg" {
		t.Errorf("problems %v", problems)
	}
	roles := map[string]string{}
	for _, im := range fw.Images() {
		roles[im.Name] = im.Role + " " + im.Format
	}
	wantRoles := map[string]string{"078-12345-001.dmg": "rootfs Iso", "094-55555-002.dmg": "system-cryptex SquashFS", "096-77777-004.dmg": "app-cryptex "}
	if !reflect.DeepEqual(roles, wantRoles) {
		t.Errorf("images %v, want %v", roles, wantRoles)
	}

	// Every library planted is found by scanning the extracted files.
	kinds := map[string]string{}
	for _, f := range fw.Files() {
		data, err := os.ReadFile(f.LocalPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range scan.Find(data).Blobs {
			if !bytes.Equal(data[b.Offset:b.Offset+b.Size], lib) {
				t.Errorf("%s: blob %+v is not the planted library", f.Provenance, b)
			}
			kinds[filepath.Base(f.Path)] += b.Kind + ":" + b.Where + ";"
		}
	}
	wantKinds := map[string]string{
		"Foo":                      "macho-section:__DATA,__metallib;",
		"default.metallib":         "file:;",
		"GNR":                      "macho-section:arm64e slice/__DATA,__metallib;",
		"dyld_shared_cache_arm64e": "cache-blob:/System/Library/PrivateFrameworks/GPUCompiler.framework/GPUCompiler/__DATA,__metallib;",
		"bar.metallib":             "file:;",
	}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Errorf("blobs %v\nwant %v", kinds, wantKinds)
	}

	// A second open reuses the cache: same files, nothing extracted.
	again, err := ipsw.Open(context.Background(), p, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Files(), fw.Files()) {
		t.Errorf("cached files differ")
	}
	for _, im := range again.Images() {
		if im.Name != "096-77777-004.dmg" && !im.Cached {
			t.Errorf("image %s extracted again", im.Name)
		}
	}
	if tmp, _ := os.ReadDir(filepath.Join(cacheDir, "tmp")); len(tmp) != 0 {
		t.Errorf("work files left: %v", tmp)
	}
}

// TestUnsafeEntries puts zip-slip, absolute and backslash names into the
// archive and the manifest; each is refused by name and nothing is written
// outside the cache.
func TestUnsafeEntries(t *testing.T) {
	ipswtest.Need(t, "7z", "p7zip-full")
	manifest := `<?xml version="1.0"?><plist><dict><key>BuildIdentities</key><array><dict><key>Manifest</key><dict>
<key>OS</key><dict><key>Info</key><dict><key>Path</key><string>../../evil.dmg</string></dict></dict>
<key>Cryptex1,SystemOS</key><dict><key>Info</key><dict><key>Path</key><string>/tmp/abs.dmg</string></dict></dict>
</dict></dict></array></dict></plist>`
	dir := t.TempDir()
	p := ipswtest.WriteZip(t, "evil.ipsw",
		ipswtest.ZipEntry{Name: "BuildManifest.plist", Data: []byte(manifest)},
		ipswtest.ZipEntry{Name: "../../evil.dmg", Data: []byte("x")},
		ipswtest.ZipEntry{Name: "/tmp/abs.dmg", Data: []byte("x")},
		ipswtest.ZipEntry{Name: "a\\..\\..\\win.dmg", Data: []byte("x")},
	)
	fw, err := ipsw.Open(context.Background(), p, filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pr := range fw.Problems() {
		if pr.Code != ipsw.CodeUnsafePath {
			t.Errorf("problem %v", pr)
		}
		got = append(got, pr.Image+pr.Path)
	}
	want := []string{"../../evil.dmg", "/tmp/abs.dmg", "a\\..\\..\\win.dmg", "../../evil.dmg", "/tmp/abs.dmg"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("refused %q, want %q", got, want)
	}
	if len(fw.Files()) != 0 {
		t.Errorf("files %v", fw.Files())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("written next to the cache: %v", entries)
	}
}

func TestSizeCaps(t *testing.T) {
	ipswtest.Need(t, "7z", "p7zip-full")
	p := ipswtest.WriteZip(t, "big.ipsw",
		ipswtest.ZipEntry{Name: "zeros.dmg", Data: make([]byte, 8<<20)},
		ipswtest.ZipEntry{Name: "stored.dmg", Data: bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7}, 400_000), Store: true},
	)
	fw, err := ipsw.OpenWith(context.Background(), p, t.TempDir(), ipsw.Options{MaxRatio: 100, MaxImageBytes: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, pr := range fw.Problems() {
		got[pr.Image] = pr.Code
	}
	want := map[string]string{"": ipsw.CodeNoManifest, "zeros.dmg": ipsw.CodeImageTooLarge, "stored.dmg": ipsw.CodeImageTooLarge}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", fw.Problems(), want)
	}
	fw, err = ipsw.OpenWith(context.Background(), p, t.TempDir(), ipsw.Options{MaxRatio: 100})
	if err != nil {
		t.Fatal(err)
	}
	got = map[string]string{}
	for _, pr := range fw.Problems() {
		got[pr.Image] = pr.Code
	}
	if got["zeros.dmg"] != ipsw.CodeDecompressionBomb || got["stored.dmg"] != ipsw.CodeImageUnreadable {
		t.Errorf("problems %v", fw.Problems())
	}
}

func TestEncryptedByMagicAndName(t *testing.T) {
	ipswtest.Need(t, "7z", "p7zip-full")
	p := ipswtest.WriteZip(t, "enc.ipsw",
		ipswtest.ZipEntry{Name: "a.dmg", Data: append([]byte("AEA1"), make([]byte, 100)...)},
		ipswtest.ZipEntry{Name: "b.dmg.aea", Data: []byte("whatever")},
		ipswtest.ZipEntry{Name: "c.dmg", Data: []byte("AEA")}, // too short: not encrypted, just unreadable
	)
	fw, err := ipsw.Open(context.Background(), p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, pr := range fw.Problems() {
		got[pr.Image] = pr.Code
	}
	want := map[string]string{"": ipsw.CodeNoManifest, "a.dmg": ipsw.CodeEncryptedImage, "b.dmg.aea": ipsw.CodeEncryptedImage, "c.dmg": ipsw.CodeImageUnreadable}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems %v, want %v", fw.Problems(), want)
	}
}

func TestRestorePlistAndMBR(t *testing.T) {
	ipswtest.Need(t, "7z", "p7zip-full")
	lib := ipswtest.Library(t, "k")
	iso := ipswtest.ISOImage(t, ipswtest.Tree(t, map[string]ipswtest.Node{"System/Library/X/default.metallib": {Data: lib}}))
	// An MBR disk with one partition holding the ISO: 7-Zip opens the
	// partition and the file system inside it.
	pad := (len(iso) + 511) &^ 511
	disk := make([]byte, 1<<20+pad)
	entry := disk[446:]
	entry[4] = 0x83
	binary.LittleEndian.PutUint32(entry[8:], 2048)
	binary.LittleEndian.PutUint32(entry[12:], uint32(pad/512))
	disk[510], disk[511] = 0x55, 0xaa
	copy(disk[1<<20:], iso)
	restore := `<plist><dict><key>SystemRestoreImageFileSystems</key><dict><key>058-1-2.dmg</key><string>apfs</string></dict></dict></plist>`
	p := ipswtest.WriteZip(t, "r.ipsw", ipswtest.ZipEntry{Name: "Restore.plist", Data: []byte(restore)}, ipswtest.ZipEntry{Name: "058-1-2.dmg", Data: disk})
	fw, err := ipsw.Open(context.Background(), p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(fw.Problems()) != 0 || len(fw.Files()) != 1 || fw.Files()[0].Provenance != p+"!/058-1-2.dmg!/System/Library/X/default.metallib" {
		t.Fatalf("files %+v problems %v", fw.Files(), fw.Problems())
	}
	if im := fw.Images()[0]; im.Format != "MBR>Iso" || im.Role != "rootfs" {
		t.Errorf("image %+v", im)
	}
}

func TestMissing7z(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := ipsw.Open(context.Background(), "x.ipsw", t.TempDir())
	var e *ipsw.Error
	if !errors.As(err, &e) || e.Code != ipsw.CodeMissing7z || !strings.Contains(err.Error(), "p7zip-full") {
		t.Fatalf("err = %v", err)
	}
}

func TestNotAZip(t *testing.T) {
	ipswtest.Need(t, "7z", "p7zip-full")
	p := filepath.Join(t.TempDir(), "x.ipsw")
	os.WriteFile(p, []byte("not a zip"), 0o644)
	if _, err := ipsw.Open(context.Background(), p, t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a readable zip") {
		t.Fatalf("err = %v", err)
	}
}

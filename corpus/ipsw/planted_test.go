package ipsw_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/ipsw"
	"github.com/airpipe/airpipe/corpus/ipsw/ipswtest"
	"github.com/airpipe/airpipe/corpus/scan"
)

// hfsVolume copies the HFS+ partition out of a UDIF fixture with 7-Zip.
func hfsVolume(t *testing.T, fixture, partition string) []byte {
	t.Helper()
	out, err := exec.Command("7z", "x", "-so", "-tDmg", filepath.Join(ipswtest.FixturesDir(t), fixture), partition).Output()
	if err != nil {
		t.Fatalf("7z x -so %s %s: %v", fixture, partition, err)
	}
	return out
}

// sevenZipLog installs a 7z wrapper that logs each command line, and
// returns it and the log.
func sevenZipLog(t *testing.T) (prog, log string) {
	t.Helper()
	real, err := exec.LookPath("7z")
	if err != nil {
		t.Skip("7z not installed (Debian p7zip-full)")
	}
	dir := t.TempDir()
	log = filepath.Join(dir, "7z.log")
	prog = filepath.Join(dir, "7z")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return prog, log
}

// runs counts the logged 7z runs of a command ("l", "x") on each image
// file name.
func runs(t *testing.T, log, cmd string) map[string]int {
	b, _ := os.ReadFile(log)
	n := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != cmd {
			continue
		}
		for _, a := range f {
			if strings.HasPrefix(filepath.Base(a), "image") {
				n[filepath.Base(filepath.Dir(a))]++
			}
		}
	}
	return n
}

// TestPlantedFirmware builds a firmware as Apple ships one — an .ipsw
// whose BuildManifest has four build identities (two devices, Erase and
// Update) naming a root filesystem (UDIF > GPT > HFS+, zlib, raw and
// zero-fill chunks), a system cryptex (UDIF > HFS+), an app cryptex as AEA
// and, for the second device, an encrypted APFS container — with Metal
// libraries written into copies of the fixtures' HFS+ volumes in place,
// one of them behind two HFS+ hard links. airpipe finds exactly the
// planted libraries, with provenance naming every layer, opens each image
// once however many identities name it, refuses the AEA image and the
// encrypted volume by name, and a warm rerun extracts nothing.
func TestPlantedFirmware(t *testing.T) {
	ipswtest.FixturesDir(t)
	prog, log := sevenZipLog(t)
	libRoot := ipswtest.Library(t, "planted_root")
	libLink := ipswtest.Library(t, "planted_hard_link")
	libCryptex := ipswtest.Library(t, "planted_cryptex")

	// Root filesystem: the goapfsv2 HFS+ volume; random.bin (1.5 MiB,
	// stored raw) becomes an executable holding a library, and the
	// hard-link inode behind hello.txt and hardlink-to-hello another.
	vol := hfsVolume(t, "udif__goapfsv2_hfs_basic_udzo.dmg", "4.hfs")
	ipswtest.PlantHFS(t, vol, "random.bin", libRoot, 0o100755)
	ipswtest.PlantHFS(t, vol, "iNode18", libLink, 0o100755)
	rootfs := ipswtest.UDIF(t, ipswtest.GPT(vol)...)
	// System cryptex: the gofs HFS+ volume, big.bin made an executable
	// library, in a UDIF of one partition.
	cryptexVol := ipswtest.FixtureImage(t, "hfs__gofs_hfsplus.hfs.gz")
	ipswtest.PlantHFS(t, cryptexVol, "big.bin", libCryptex, 0o100755)
	cryptex := ipswtest.UDIF(t, ipswtest.Partition{Name: "Apple_HFS", Data: cryptexVol})

	const (
		rootName    = "090-11111-001.dmg"
		systemName  = "090-22222-002.dmg"
		appName     = "090-33333-003.dmg.aea"
		otherOSName = "090-44444-004.dmg"
	)
	images := map[string]string{"OS": rootName, "Cryptex1,SystemOS": systemName, "Cryptex1,AppOS": appName,
		"Cryptex1,SystemVolume": systemName + ".root_hash", "RestoreRamDisk": "090-55555-005.dmg"}
	other := map[string]string{"OS": otherOSName, "Cryptex1,SystemOS": systemName, "Cryptex1,AppOS": appName}
	manifest := ipswtest.BuildManifest("18.1", "22B83",
		ipswtest.Identity{Device: "d00ap", Behavior: "Erase", Images: images},
		ipswtest.Identity{Device: "d00ap", Behavior: "Update", Images: images},
		ipswtest.Identity{Device: "d01ap", Behavior: "Erase", Images: other},
		ipswtest.Identity{Device: "d01ap", Behavior: "Update", Images: other})
	p := ipswtest.WriteZip(t, "iPhone_18.1_22B83_Restore.ipsw",
		ipswtest.ZipEntry{Name: "BuildManifest.plist", Data: manifest},
		ipswtest.ZipEntry{Name: rootName, Data: rootfs},
		ipswtest.ZipEntry{Name: systemName, Data: cryptex, Store: true},
		ipswtest.ZipEntry{Name: systemName + ".root_hash", Data: []byte("hash")},
		ipswtest.ZipEntry{Name: appName, Data: append([]byte("AEA1"), bytes.Repeat([]byte{0x5a}, 4096)...)},
		ipswtest.ZipEntry{Name: otherOSName, Data: ipswtest.FixtureImage(t, "apfs__goapfsv2_encrypted.img.gz")},
		ipswtest.ZipEntry{Name: "090-55555-005.dmg", Data: []byte("IMG4 ramdisk")},
	)
	// The root filesystem's UDIF holds all three kinds of chunk.
	rootPath := filepath.Join(t.TempDir(), "rootfs.dmg")
	if err := os.WriteFile(rootPath, rootfs, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.Command("7z", "l", "-slt", rootPath).Output(); !bytes.Contains(out, []byte("Method = Copy Zero2 ZLIB")) {
		t.Errorf("rootfs UDIF chunks: %s", out)
	}
	cacheDir := t.TempDir()
	fw, err := ipsw.OpenWith(context.Background(), p, cacheDir, ipsw.Options{SevenZip: prog})
	if err != nil {
		t.Fatal(err)
	}
	if fw.Version != "18.1" || fw.Build != "22B83" {
		t.Errorf("version %q build %q", fw.Version, fw.Build)
	}

	// Exactly the planted libraries, each where it was planted.
	want := map[string][]byte{
		rootName + "!/HFSTEST/random.bin":        libRoot,
		rootName + "!/HFSTEST/hello.txt":         libLink,
		rootName + "!/HFSTEST/hardlink-to-hello": libLink,
		systemName + "!/GOTEST/big.bin":          libCryptex,
	}
	got := map[string][]byte{}
	for _, f := range fw.Files() {
		data, err := os.ReadFile(f.LocalPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range scan.Find(data).Blobs {
			rel := strings.TrimPrefix(f.Provenance, p+"!/")
			if got[rel] != nil {
				t.Errorf("%s: a second blob %+v", rel, b)
			}
			got[rel] = data[b.Offset : b.Offset+b.Size]
		}
	}
	if !reflect.DeepEqual(got, want) {
		var g []string
		for k := range got {
			g = append(g, k)
		}
		sort.Strings(g)
		t.Errorf("libraries found at %q, want the %d planted", g, len(want))
	}

	formats := map[string]string{}
	for _, im := range fw.Images() {
		formats[im.Name] = im.Role + " " + im.Format
	}
	wantFormats := map[string]string{
		rootName: "rootfs Dmg>HFS", systemName: "system-cryptex Dmg>HFS",
		appName: "app-cryptex ", otherOSName: "rootfs ",
	}
	if !reflect.DeepEqual(formats, wantFormats) {
		t.Errorf("images %v, want %v", formats, wantFormats)
	}
	codes := map[string]string{}
	for _, pr := range fw.Problems() {
		codes[pr.Image] = pr.Code
		if pr.Code == ipsw.CodeEncryptedImage && !strings.Contains(pr.Msg, "key") {
			t.Errorf("AEA refusal does not say what is needed: %v", pr)
		}
	}
	wantCodes := map[string]string{appName: ipsw.CodeEncryptedImage, otherOSName: ipsw.CodeEncryptedVolume}
	if !reflect.DeepEqual(codes, wantCodes) {
		t.Errorf("problems %v, want %v", fw.Problems(), wantCodes)
	}
	// Each image is listed once, though four identities name them.
	lists := runs(t, log, "l")
	if len(lists) != 3 {
		t.Errorf("images listed: %v, want 3 each once", lists)
	}
	for dir, n := range lists {
		if n != 1 {
			t.Errorf("%s listed %d times", dir, n)
		}
	}

	// A warm rerun reuses every extraction: no 7z extraction at all.
	os.Remove(log)
	again, err := ipsw.OpenWith(context.Background(), p, cacheDir, ipsw.Options{SevenZip: prog})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Files(), fw.Files()) {
		t.Errorf("warm rerun files differ")
	}
	for _, im := range again.Images() {
		if (im.Name == rootName || im.Name == systemName) && !im.Cached {
			t.Errorf("image %s extracted again", im.Name)
		}
	}
	if x := runs(t, log, "x"); len(x) != 0 {
		t.Errorf("warm rerun extracted: %v", x)
	}
}

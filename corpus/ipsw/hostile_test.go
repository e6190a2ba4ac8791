package ipsw_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airpipe/airpipe/corpus/ipsw"
	"github.com/airpipe/airpipe/corpus/ipsw/ipswtest"
)

// isoWith makes an image holding one library file with the given bytes.
func isoWith(t *testing.T, data []byte) []byte {
	return ipswtest.ISOImage(t, ipswtest.Tree(t, map[string]ipswtest.Node{"System/Library/X/default.metallib": {Data: data}}))
}

// onlyIndex returns the path of the one image index in the cache.
func onlyIndex(t *testing.T, cacheDir string) string {
	t.Helper()
	ix, _ := filepath.Glob(filepath.Join(cacheDir, "images", "*.json"))
	if len(ix) != 1 {
		t.Fatalf("indexes %v", ix)
	}
	return ix[0]
}

// TestIndexNamesAreHex crafts an index entry whose "sha256" climbs out of
// the object store to a file of the recorded size: the run must not read
// it, and must extract the image again.
func TestIndexNamesAreHex(t *testing.T) {
	lib := ipswtest.Library(t, "k")
	p := ipswtest.WriteZip(t, "a.ipsw", ipswtest.ZipEntry{Name: "a.dmg", Data: isoWith(t, lib)})
	root := t.TempDir()
	cacheDir := filepath.Join(root, "cache")
	if _, err := ipsw.Open(context.Background(), p, cacheDir); err != nil {
		t.Fatal(err)
	}
	// cache/objects/<s[:2]>/<s> with s = "../secret..." (64 bytes) is
	// cache/objects/../../secret..., a file next to the cache.
	name := "secret" + strings.Repeat("x", 64-len("../secret"))
	if err := os.WriteFile(filepath.Join(root, name), lib, 0o644); err != nil {
		t.Fatal(err)
	}
	ixPath := onlyIndex(t, cacheDir)
	b, _ := os.ReadFile(ixPath)
	var ix map[string]any
	if err := json.Unmarshal(b, &ix); err != nil {
		t.Fatal(err)
	}
	ix["files"].([]any)[0].(map[string]any)["sha256"] = "../" + name
	b, _ = json.Marshal(ix)
	os.Chmod(ixPath, 0o644)
	if err := os.WriteFile(ixPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	fw, err := ipsw.Open(context.Background(), p, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(fw.Files()) != 1 {
		t.Fatalf("files %+v problems %v", fw.Files(), fw.Problems())
	}
	f := fw.Files()[0]
	if !strings.HasPrefix(f.LocalPath, filepath.Join(cacheDir, "objects")+string(filepath.Separator)) || strings.Contains(f.LocalPath, "..") {
		t.Errorf("crafted index entry read %s, outside the object store", f.LocalPath)
	}
	if fw.Images()[0].Cached {
		t.Errorf("the crafted index was used")
	}
}

// TestObjectsCheckedByContent flips bytes of a stored object (same size):
// a rerun must not hand out the damaged bytes, and re-extracting restores
// the object.
func TestObjectsCheckedByContent(t *testing.T) {
	lib := ipswtest.Library(t, "k")
	p := ipswtest.WriteZip(t, "a.ipsw", ipswtest.ZipEntry{Name: "a.dmg", Data: isoWith(t, lib)})
	cacheDir := t.TempDir()
	fw, err := ipsw.Open(context.Background(), p, cacheDir)
	if err != nil || len(fw.Files()) != 1 {
		t.Fatalf("%v %+v", err, fw)
	}
	obj := fw.Files()[0].LocalPath
	bad := bytes.Clone(lib)
	bad[len(bad)-1] ^= 0xff
	os.Chmod(obj, 0o644)
	if err := os.WriteFile(obj, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := ipsw.Open(context.Background(), p, cacheDir)
	if err != nil || len(again.Files()) != 1 {
		t.Fatalf("%v %+v", err, again)
	}
	if again.Images()[0].Cached {
		t.Errorf("an index whose object was damaged was used")
	}
	got, err := os.ReadFile(again.Files()[0].LocalPath)
	if err != nil || !bytes.Equal(got, lib) {
		t.Errorf("object holds %d bytes, equal to the library: %v (%v)", len(got), bytes.Equal(got, lib), err)
	}
}

// forgeCRC rewrites the last 4 bytes of b so that its CRC-32 (IEEE) is
// want: CRC-32 is affine over GF(2), so the 32 unknown bits solve a linear
// system.
func forgeCRC(b []byte, want uint32) {
	n := len(b) - 4
	binary.LittleEndian.PutUint32(b[n:], 0)
	base := crc32.ChecksumIEEE(b)
	var cols [32]uint32
	for i := range 32 {
		binary.LittleEndian.PutUint32(b[n:], 1<<i)
		cols[i] = crc32.ChecksumIEEE(b) ^ base
	}
	// Solve sum(x_i * cols[i]) = want ^ base by Gaussian elimination.
	target := want ^ base
	var combo [32]uint32 // which inputs make each pivot row
	rows := cols
	for i := range 32 {
		combo[i] = 1 << i
	}
	var x uint32
	for bit := range 32 {
		piv := -1
		for r := bit; r < 32; r++ {
			if rows[r]>>bit&1 == 1 {
				piv = r
				break
			}
		}
		if piv < 0 {
			panic("singular")
		}
		rows[bit], rows[piv] = rows[piv], rows[bit]
		combo[bit], combo[piv] = combo[piv], combo[bit]
		for r := range 32 {
			if r != bit && rows[r]>>bit&1 == 1 {
				rows[r] ^= rows[bit]
				combo[r] ^= combo[bit]
			}
		}
	}
	for bit := range 32 {
		if target>>bit&1 == 1 {
			x ^= combo[bit]
		}
	}
	binary.LittleEndian.PutUint32(b[n:], x)
}

// TestImageKeyedByContent gives firmware B an image of the same name, size
// and CRC-32 as firmware A's but other bytes: B must report its own
// library, not A's from the cache.
func TestImageKeyedByContent(t *testing.T) {
	lib := ipswtest.Library(t, "k")
	a := isoWith(t, append(bytes.Clone(lib), 'A'))
	b := isoWith(t, append(bytes.Clone(lib), 'B'))
	if len(a) != len(b) || !bytes.Equal(a[len(a)-4:], b[len(b)-4:]) {
		t.Fatalf("images of %d and %d bytes, tails %x %x", len(a), len(b), a[len(a)-4:], b[len(b)-4:])
	}
	forgeCRC(b, crc32.ChecksumIEEE(a))
	if crc32.ChecksumIEEE(a) != crc32.ChecksumIEEE(b) || bytes.Equal(a, b) {
		t.Fatal("CRC-32 not forged")
	}
	pa := ipswtest.WriteZip(t, "a.ipsw", ipswtest.ZipEntry{Name: "r.dmg", Data: a, Store: true})
	pb := ipswtest.WriteZip(t, "b.ipsw", ipswtest.ZipEntry{Name: "r.dmg", Data: b, Store: true})
	cacheDir := t.TempDir()
	for _, c := range []struct {
		ipsw string
		last byte
	}{{pa, 'A'}, {pb, 'B'}, {pa, 'A'}} {
		fw, err := ipsw.Open(context.Background(), c.ipsw, cacheDir)
		if err != nil || len(fw.Files()) != 1 {
			t.Fatalf("%s: %v %+v", c.ipsw, err, fw)
		}
		got, err := os.ReadFile(fw.Files()[0].LocalPath)
		if err != nil || len(got) == 0 || got[len(got)-1] != c.last {
			t.Errorf("%s reported a library ending %q, want its own (%q)", filepath.Base(c.ipsw), got[len(got)-1:], c.last)
		}
	}
}

// TestExtractionBudgetOnBytesWritten puts into a 64 KiB image a gzip member
// listed as 100 bytes that inflates to 64 MiB: extraction stops at the
// budget with a named refusal and keeps nothing.
func TestExtractionBudgetOnBytesWritten(t *testing.T) {
	ipswtest.Need(t, "7z", "p7zip-full")
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Name = "x.metallib"
	chunk := make([]byte, 1<<20)
	for range 64 {
		w.Write(chunk)
	}
	w.Close()
	img := gz.Bytes()
	binary.LittleEndian.PutUint32(img[len(img)-4:], 100) // ISIZE lies
	p := ipswtest.WriteZip(t, "bomb.ipsw", ipswtest.ZipEntry{Name: "x.dmg", Data: img, Store: true})
	if st, _ := os.Stat(p); st.Size() > 2<<20 {
		t.Fatalf("the .ipsw is %d bytes", st.Size())
	}
	const budget = 1 << 20
	cacheDir := t.TempDir()
	fw, err := ipsw.OpenWith(context.Background(), p, cacheDir, ipsw.Options{MaxExtractBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	var got *ipsw.Problem
	for _, pr := range fw.Problems() {
		if pr.Image == "x.dmg" {
			got = &pr
		}
	}
	if got == nil || got.Code != ipsw.CodeExtractTooLarge || !strings.Contains(got.Msg, "over the 1048576-byte extraction budget") {
		t.Fatalf("problems %v, want %s for x.dmg", fw.Problems(), ipsw.CodeExtractTooLarge)
	}
	if len(fw.Files()) != 0 {
		t.Errorf("files kept: %+v", fw.Files())
	}
	if tmp, _ := os.ReadDir(filepath.Join(cacheDir, "tmp")); len(tmp) != 0 {
		t.Errorf("work files left: %v", tmp)
	}
}

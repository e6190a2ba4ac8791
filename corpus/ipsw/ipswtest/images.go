package ipswtest

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"html"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
)

// FixturesDir returns the shared disk-image fixtures folder: $AIRPIPE_FIXTURES,
// else ../shared/fixtures/images from the module root. The test is skipped,
// with the reason, when it is absent.
func FixturesDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("AIRPIPE_FIXTURES")
	if dir == "" {
		_, self, _, _ := runtime.Caller(0)
		// self is <module>/corpus/ipsw/ipswtest/images.go.
		dir = filepath.Join(filepath.Dir(self), "..", "..", "..", "..", "shared", "fixtures", "images")
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Skipf("disk-image fixtures not found (%v); set AIRPIPE_FIXTURES to the folder holding MANIFEST.tsv", err)
	}
	return dir
}

// FixtureImage returns a fixture's bytes, gunzipped when the fixture is
// stored as .gz.
func FixtureImage(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(FixturesDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(name, ".gz") {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Identity is one BuildIdentities entry of a BuildManifest: a device class,
// a restore behaviour ("Erase", "Update") and the images it names, by
// manifest key ("OS", "Cryptex1,SystemOS", "Cryptex1,AppOS", ...).
type Identity struct {
	Device, Behavior string
	Images           map[string]string
}

// BuildManifest writes a BuildManifest.plist with the given identities.
func BuildManifest(version, build string, ids ...Identity) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>BuildIdentities</key><array>`)
	for _, id := range ids {
		fmt.Fprintf(&b, "<dict><key>Info</key><dict><key>DeviceClass</key><string>%s</string><key>RestoreBehavior</key><string>%s</string></dict><key>Manifest</key><dict>",
			html.EscapeString(id.Device), html.EscapeString(id.Behavior))
		keys := make([]string, 0, len(id.Images))
		for k := range id.Images {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "<key>%s</key><dict><key>Digest</key><data>AAECAw==</data><key>Info</key><dict><key>Path</key><string>%s</string></dict></dict>",
				html.EscapeString(k), html.EscapeString(id.Images[k]))
		}
		b.WriteString("</dict></dict>")
	}
	fmt.Fprintf(&b, "</array><key>ProductBuildVersion</key><string>%s</string><key>ProductVersion</key><string>%s</string></dict></plist>\n", build, version)
	return []byte(b.String())
}

// UDIF chunk types (Apple's BLKXChunkEntry.EntryType).
const (
	udifRaw   = 0x00000001
	udifZero  = 0x00000002
	udifZlib  = 0x80000005
	udifEnd   = 0xffffffff
	udifChunk = 2048 // sectors per chunk (1 MiB), as hdiutil writes
)

// Partition is one partition of a UDIF image: its blkx name ("Apple_HFS"),
// label ("disk image" when empty) and raw bytes (a multiple of 512).
type Partition struct {
	Name, Label string
	Data        []byte
}

// UDIF wraps partitions into a UDIF disk image as hdiutil writes one: a
// data fork of chunks (zlib-compressed, or raw where zlib does not shrink
// the chunk, or zero-fill for all-zero chunks), an XML plist whose
// resource-fork blkx array holds one mish table per partition, and the
// 512-byte koly trailer. Checksums are left as type 0 (none).
func UDIF(t testing.TB, parts ...Partition) []byte {
	t.Helper()
	var fork bytes.Buffer
	var blkx strings.Builder
	var sector uint64
	for id, p := range parts {
		if len(p.Data)%512 != 0 {
			t.Fatalf("partition %s: %d bytes, not whole sectors", p.Name, len(p.Data))
		}
		sectors := uint64(len(p.Data) / 512)
		var chunks bytes.Buffer
		n := 0
		for s := uint64(0); s < sectors; s += udifChunk {
			cnt := min(udifChunk, sectors-s)
			raw := p.Data[s*512 : (s+cnt)*512]
			typ, data := uint32(udifRaw), raw
			if bytes.Count(raw, []byte{0}) == len(raw) {
				typ, data = udifZero, nil
			} else {
				var z bytes.Buffer
				zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
				zw.Write(raw)
				zw.Close()
				if z.Len() < len(raw) {
					typ, data = udifZlib, z.Bytes()
				}
			}
			writeChunk(&chunks, typ, s, cnt, uint64(fork.Len()), uint64(len(data)))
			fork.Write(data)
			n++
		}
		writeChunk(&chunks, udifEnd, sectors, 0, uint64(fork.Len()), 0)
		n++
		mish := make([]byte, 204)
		copy(mish, "mish")
		binary.BigEndian.PutUint32(mish[4:], 1)
		binary.BigEndian.PutUint64(mish[8:], sector)
		binary.BigEndian.PutUint64(mish[16:], sectors)
		binary.BigEndian.PutUint32(mish[32:], udifChunk) // buffers needed
		binary.BigEndian.PutUint32(mish[36:], uint32(id))
		binary.BigEndian.PutUint32(mish[200:], uint32(n))
		table := append(mish, chunks.Bytes()...)
		label := p.Label
		if label == "" {
			label = "disk image"
		}
		fmt.Fprintf(&blkx, "<dict><key>Attributes</key><string>0x0050</string><key>CFName</key><string>%[1]s (%[2]s : %[3]d)</string><key>Data</key><data>%[4]s</data><key>ID</key><string>%[3]d</string><key>Name</key><string>%[1]s (%[2]s : %[3]d)</string></dict>",
			html.EscapeString(label), html.EscapeString(p.Name), id, base64.StdEncoding.EncodeToString(table))
		sector += sectors
	}
	xml := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>resource-fork</key><dict><key>blkx</key><array>` + blkx.String() + "</array></dict></dict></plist>\n"
	dataLen := uint64(fork.Len())
	fork.WriteString(xml)
	koly := make([]byte, 512)
	copy(koly, "koly")
	binary.BigEndian.PutUint32(koly[4:], 4)
	binary.BigEndian.PutUint32(koly[8:], 512)
	binary.BigEndian.PutUint32(koly[12:], 1)
	binary.BigEndian.PutUint64(koly[32:], dataLen)
	binary.BigEndian.PutUint32(koly[56:], 1)
	binary.BigEndian.PutUint32(koly[60:], 1)
	copy(koly[64:80], "airpipe-udif-id!")
	binary.BigEndian.PutUint64(koly[216:], dataLen)
	binary.BigEndian.PutUint64(koly[224:], uint64(len(xml)))
	binary.BigEndian.PutUint32(koly[488:], 1) // image variant: device image
	binary.BigEndian.PutUint64(koly[492:], sector)
	return append(fork.Bytes(), koly...)
}

// GPT lays out a GUID-partitioned disk holding one HFS+ partition, vol,
// the way hdiutil splits such a disk into blkx partitions: protective MBR,
// primary GPT header and table, free space, the volume, free space, backup
// table and header. Header and table CRC-32s are filled in (UEFI 2.10,
// section 5.3).
func GPT(vol []byte) []Partition {
	const first = 40 // first usable LBA after the 32-sector table, aligned
	n := uint64((len(vol) + 511) / 512)
	vol = append(vol, make([]byte, int(n*512)-len(vol))...)
	last := first + n - 1
	total := last + 1 + 8 + 32 + 1 // free, backup table, backup header
	entries := make([]byte, 128*128)
	hfsType := []byte{0x00, 0x53, 0x46, 0x48, 0x00, 0x00, 0xaa, 0x11, 0xaa, 0x11, 0x00, 0x30, 0x65, 0x43, 0xec, 0xac}
	copy(entries, hfsType)
	copy(entries[16:], "airpipe-gpt-part")
	binary.LittleEndian.PutUint64(entries[32:], first)
	binary.LittleEndian.PutUint64(entries[40:], last)
	for i, r := range utf16.Encode([]rune("disk image")) {
		binary.LittleEndian.PutUint16(entries[56+2*i:], r)
	}
	header := func(self, backup, table uint64) []byte {
		h := make([]byte, 512)
		copy(h, "EFI PART")
		binary.LittleEndian.PutUint32(h[8:], 0x00010000)
		binary.LittleEndian.PutUint32(h[12:], 92)
		binary.LittleEndian.PutUint64(h[24:], self)
		binary.LittleEndian.PutUint64(h[32:], backup)
		binary.LittleEndian.PutUint64(h[40:], first)
		binary.LittleEndian.PutUint64(h[48:], total-34)
		copy(h[56:], "airpipe-gpt-disk")
		binary.LittleEndian.PutUint64(h[72:], table)
		binary.LittleEndian.PutUint32(h[80:], 128)
		binary.LittleEndian.PutUint32(h[84:], 128)
		binary.LittleEndian.PutUint32(h[88:], crc32.ChecksumIEEE(entries))
		binary.LittleEndian.PutUint32(h[16:], crc32.ChecksumIEEE(h[:92]))
		return h
	}
	mbr := make([]byte, 512)
	mbr[446+4] = 0xee
	binary.LittleEndian.PutUint32(mbr[446+8:], 1)
	binary.LittleEndian.PutUint32(mbr[446+12:], uint32(min(total-1, 0xffffffff)))
	mbr[510], mbr[511] = 0x55, 0xaa
	return []Partition{
		{Label: "Protective Master Boot Record", Name: "MBR", Data: mbr},
		{Label: "GPT Header", Name: "Primary GPT Header", Data: header(1, total-1, 2)},
		{Label: "GPT Partition Data", Name: "Primary GPT Table", Data: entries},
		{Label: " ", Name: "Apple_Free", Data: make([]byte, (first-34)*512)},
		{Label: "disk image", Name: "Apple_HFS", Data: vol},
		{Label: " ", Name: "Apple_Free", Data: make([]byte, 8*512)},
		{Label: "GPT Partition Data", Name: "Backup GPT Table", Data: entries},
		{Label: "GPT Header", Name: "Backup GPT Header", Data: header(total-1, 1, total-33)},
	}
}

func writeChunk(w *bytes.Buffer, typ uint32, sector, count, off, length uint64) {
	var c [40]byte
	binary.BigEndian.PutUint32(c[0:], typ)
	binary.BigEndian.PutUint64(c[8:], sector)
	binary.BigEndian.PutUint64(c[16:], count)
	binary.BigEndian.PutUint64(c[24:], off)
	binary.BigEndian.PutUint64(c[32:], length)
	w.Write(c[:])
}

// PlantHFS writes data into the file called name of the raw HFS+ volume
// vol, in place: it finds the file's catalog record by its key (the name
// in UTF-16), writes data over the first extent of its data fork (which
// must be large enough), sets the fork's size to len(data) and,
// when mode is not 0, the file's BSD mode. HFS+ keeps no checksums over
// catalog records or file data, so the volume stays consistent. The name
// must be unique in the catalog.
func PlantHFS(t testing.TB, vol []byte, name string, data []byte, mode uint16) {
	t.Helper()
	if len(vol) < 1536 || (string(vol[1024:1026]) != "H+" && string(vol[1024:1026]) != "HX") {
		t.Fatal("PlantHFS: not an HFS+ volume")
	}
	blockSize := int(binary.BigEndian.Uint32(vol[1024+40:]))
	units := utf16.Encode([]rune(name))
	key := make([]byte, 2+2*len(units))
	binary.BigEndian.PutUint16(key, uint16(len(units)))
	for i, u := range units {
		binary.BigEndian.PutUint16(key[2+2*i:], u)
	}
	var rec int
	found := 0
	for i := 0; ; {
		j := bytes.Index(vol[i:], key)
		if j < 0 {
			break
		}
		at := i + j + len(key)
		// A file record (type 2) follows the key at once; a thread record
		// holds the name in its body instead.
		if at+2 <= len(vol) && binary.BigEndian.Uint16(vol[at:]) == 2 {
			rec = at
			found++
		}
		i += j + 1
	}
	if found != 1 {
		t.Fatalf("PlantHFS: %d file records named %q", found, name)
	}
	if mode != 0 {
		binary.BigEndian.PutUint16(vol[rec+42:], mode)
	}
	fork := rec + 88
	start := int(binary.BigEndian.Uint32(vol[fork+16:]))
	count := int(binary.BigEndian.Uint32(vol[fork+20:]))
	if len(data) > count*blockSize {
		t.Fatalf("PlantHFS: %d bytes do not fit the %d-byte first extent of %q", len(data), count*blockSize, name)
	}
	// The fork shrinks to the blocks data needs; the blocks it frees stay
	// marked in the allocation bitmap, which readers do not consult.
	blocks := (len(data) + blockSize - 1) / blockSize
	binary.BigEndian.PutUint64(vol[fork:], uint64(len(data)))
	binary.BigEndian.PutUint32(vol[fork+12:], uint32(blocks))
	binary.BigEndian.PutUint32(vol[fork+20:], uint32(blocks))
	clear(vol[fork+24 : fork+80])
	clear(vol[start*blockSize : (start+blocks)*blockSize])
	copy(vol[start*blockSize:], data)
}

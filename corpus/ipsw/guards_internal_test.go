package ipsw

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

func TestInImage(t *testing.T) {
	for _, tc := range []struct {
		root, link, target, want string
		ok                       bool
	}{
		{"", "usr/lib/a.dylib", "b.dylib", "usr/lib/b.dylib", true},
		{"", "usr/lib/a.dylib", "/System/X", "System/X", true},
		{"", "usr/lib/a.dylib", "../../x", "x", true},
		{"", "usr/lib/a.dylib", "../../../etc/passwd", "", false},
		{"", "a.dylib", "/../../etc/passwd", "", false},
		{"", "a.dylib", "", "", false},
		{"VOL", "VOL/dir/link", "../f", "VOL/f", true},
		{"VOL", "VOL/dir/link", "/dir/f", "VOL/dir/f", true},
		{"VOL", "VOL/link", "../VOL/f", "", false},
		{"", "a/b", "./c//d/", "a/c/d", true},
	} {
		got, ok := inImage(tc.root, tc.link, tc.target)
		if got != tc.want || ok != tc.ok {
			t.Errorf("inImage(%q, %q, %q) = %q, %v; want %q, %v", tc.root, tc.link, tc.target, got, ok, tc.want, tc.ok)
		}
	}
}

// nxBlock makes a checksummed APFS container superblock.
func nxBlock() []byte {
	b := make([]byte, apfsMinBlock)
	binary.LittleEndian.PutUint32(b[24:], 0x80000000|apfsTypeNXSuper)
	copy(b[32:], "NXSB")
	binary.LittleEndian.PutUint32(b[36:], apfsMinBlock)
	const mod = 0xffffffff
	var s1, s2 uint64
	for i := 8; i < len(b); i += 4 {
		s1 = (s1 + uint64(binary.LittleEndian.Uint32(b[i:]))) % mod
		s2 = (s2 + s1) % mod
	}
	c1 := mod - (s1+s2)%mod
	c2 := mod - (s1+c1)%mod
	binary.LittleEndian.PutUint64(b, c2<<32|c1)
	return b
}

// TestContainerBlockInFile: a hole filled with the container superblock
// is found at its aligned offset; the same block unaligned, or with one
// byte changed (checksum broken), is not.
func TestContainerBlockInFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, parts ...[]byte) string {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	data := make([]byte, 8192)
	for i := range data {
		data[i] = byte(i * 7)
	}
	broken := nxBlock()
	broken[100] ^= 1
	for _, tc := range []struct {
		name string
		path string
		want int64
	}{
		{"hole", write("hole", data, nxBlock(), data[:100]), 8192},
		{"none", write("none", data), -1},
		{"unaligned", write("unaligned", data[:10], nxBlock()), -1},
		{"broken", write("broken", data, broken), -1},
	} {
		got, err := containerBlockInFile(tc.path)
		if err != nil || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
}

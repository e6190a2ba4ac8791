// Package machotest builds small Mach-O images, fat binaries and dyld
// shared caches for tests, with encoding/binary. What it writes is the
// minimum the corpus/macho reader needs: a header, one LC_SEGMENT_64 and
// its sections (little-endian, 64-bit), fat tables and a cache header with
// one mapping and an image list.
package machotest

import (
	"encoding/binary"
	"fmt"
)

var le = binary.LittleEndian

// Section is one section to write: its names and contents.
type Section struct {
	Segment, Name string
	Data          []byte
}

// Mach-O constants used by the builder.
const (
	CPUARM64    = 0x0100000c
	SubARM64E   = 2
	CPUX8664    = 0x01000007
	CPUAIR64    = 0x01000017
	fileDylib   = 6
	lcSegment64 = 0x19
)

// Thin returns a 64-bit little-endian MH_DYLIB image with one segment
// holding sections. base is added to every file offset written (0 for a
// standalone image; the image's position for one inside a dyld cache).
func Thin(cpu, sub uint32, base int, sections ...Section) []byte {
	seg := "__DATA"
	if len(sections) > 0 {
		seg = sections[0].Segment
	}
	cmdsize := 72 + 80*len(sections)
	hdr := 32 + cmdsize
	dataStart := (hdr + 15) &^ 15
	out := make([]byte, dataStart)
	le.PutUint32(out[0:], 0xfeedfacf)
	le.PutUint32(out[4:], cpu)
	le.PutUint32(out[8:], sub)
	le.PutUint32(out[12:], fileDylib)
	le.PutUint32(out[16:], 1)
	le.PutUint32(out[20:], uint32(cmdsize))
	offs := make([]int, len(sections))
	n := dataStart
	for i, sec := range sections {
		n = (n + 15) &^ 15
		offs[i] = n
		n += len(sec.Data)
	}
	out = append(out, make([]byte, n-len(out))...)
	lc := out[32:]
	le.PutUint32(lc[0:], lcSegment64)
	le.PutUint32(lc[4:], uint32(cmdsize))
	copy(lc[8:24], seg)
	le.PutUint64(lc[32:], uint64(n))
	le.PutUint64(lc[40:], uint64(base))
	le.PutUint64(lc[48:], uint64(n))
	le.PutUint32(lc[64:], uint32(len(sections)))
	for i, sec := range sections {
		sh := lc[72+80*i:]
		copy(sh[0:16], sec.Name)
		copy(sh[16:32], sec.Segment)
		le.PutUint64(sh[40:], uint64(len(sec.Data)))
		le.PutUint32(sh[48:], uint32(base+offs[i]))
		le.PutUint32(sh[52:], 4)
		copy(out[offs[i]:], sec.Data)
	}
	return out
}

// Slice is one slice of a fat binary.
type Slice struct {
	CPU, Sub uint32
	Data     []byte
}

// Fat returns a fat binary of slices, aligned to 16 KiB like lipo's
// output for arm64 (2^14). magic 0xcafebabe writes a big-endian table;
// 0xcbfebabe (Metal) writes the magic bytes CB FE BA BE and a table in
// order.
func Fat(magic uint32, order binary.ByteOrder, slices ...Slice) []byte {
	if magic == 0xcafebabe {
		order = binary.BigEndian
	}
	const align = 1 << 14
	table := 8 + 20*len(slices)
	out := make([]byte, table)
	binary.BigEndian.PutUint32(out, magic)
	order.PutUint32(out[4:], uint32(len(slices)))
	for i, s := range slices {
		for len(out)%align != 0 {
			out = append(out, 0)
		}
		e := out[8+20*i:]
		order.PutUint32(e[0:], s.CPU)
		order.PutUint32(e[4:], s.Sub)
		order.PutUint32(e[8:], uint32(len(out)))
		order.PutUint32(e[12:], uint32(len(s.Data)))
		order.PutUint32(e[16:], 14)
		out = append(out, s.Data...)
	}
	return out
}

// CacheImage is one image of a built dyld cache: its install path and
// the sections of its one segment.
type CacheImage struct {
	Path     string
	Sections []Section
}

// CacheBase is the virtual address of the built cache's one mapping.
const CacheBase = 0x180000000

// Cache returns a dyld shared cache ("dyld_v1   arm64e", the modern image
// list at 0x1c0) with one mapping covering the file and images laid out
// after the header, each a Thin image whose offsets are cache offsets.
func Cache(images ...CacheImage) []byte {
	const hdr = 0x200
	out := make([]byte, hdr)
	copy(out, fmt.Sprintf("%-15s", "dyld_v1  arm64e"))
	le.PutUint32(out[0x10:], 0x1c8) // mappingOffset: past imagesCount, so the new list is used
	le.PutUint32(out[0x14:], 1)
	mapping := make([]byte, 32)
	out = append(out[:0x1c8], mapping...)
	imagesAt := len(out)
	out = append(out, make([]byte, 32*len(images))...)
	le.PutUint32(out[0x1c0:], uint32(imagesAt))
	le.PutUint32(out[0x1c4:], uint32(len(images)))
	for i, im := range images {
		p := len(out)
		out = append(out, im.Path...)
		out = append(out, 0)
		le.PutUint32(out[imagesAt+32*i+24:], uint32(p))
	}
	for i, im := range images {
		for len(out)%4096 != 0 {
			out = append(out, 0)
		}
		le.PutUint64(out[imagesAt+32*i:], CacheBase+uint64(len(out)))
		out = append(out, Thin(CPUARM64, SubARM64E, len(out), im.Sections...)...)
	}
	m := out[0x1c8:]
	le.PutUint64(m[0:], CacheBase)
	le.PutUint64(m[8:], uint64(len(out)))
	le.PutUint64(m[16:], 0)
	le.PutUint32(m[24:], 5)
	le.PutUint32(m[28:], 5)
	return out
}

package macho

import (
	"bytes"
	"debug/macho"
	"encoding/binary"
	"strconv"
)

// Image is one thin Mach-O image.
type Image struct {
	// Offset is where the Mach-O header starts in the input.
	Offset              int64
	Is64                bool
	CPUType, CPUSubtype uint32
	FileType            uint32
	Segments            []Segment
	Sections            []Section
}

// Segment is one LC_SEGMENT / LC_SEGMENT_64 load command.
type Segment struct {
	Name string
	// FileOffset and FileSize locate the segment's bytes in the input.
	FileOffset, FileSize int64
}

// Section is one section of a segment.
type Section struct {
	Segment, Name string
	// Offset is the section's first byte in the input; Size its length.
	Offset, Size int64
	Flags        uint32
	// NoData marks zero-fill sections, which occupy no file bytes (Offset
	// and Size then describe nothing in the input).
	NoData bool
}

// FullName is "segment,section", for example "__DATA,__metallib".
func (s Section) FullName() string { return s.Segment + "," + s.Name }

// Arch is the image's architecture name (see [ArchName]).
func (im *Image) Arch() string { return ArchName(im.CPUType, im.CPUSubtype) }

// SectionAt returns the section holding input byte off, if any.
func (im *Image) SectionAt(off int64) (Section, bool) {
	for _, s := range im.Sections {
		if !s.NoData && off >= s.Offset && off < s.Offset+s.Size {
			return s, true
		}
	}
	return Section{}, false
}

// Header sizes and record sizes of the Mach-O structures read here.
const (
	header32Size  = 28
	header64Size  = 32
	segment32Size = 56
	segment64Size = 72
	section32Size = 68
	section64Size = 80
)

// isThin reports whether b starts with a Mach-O magic, and its layout.
func isThin(b []byte) (order binary.ByteOrder, is64, ok bool) {
	if len(b) < 4 {
		return nil, false, false
	}
	switch binary.LittleEndian.Uint32(b) {
	case macho.Magic32:
		return binary.LittleEndian, false, true
	case macho.Magic64:
		return binary.LittleEndian, true, true
	}
	switch binary.BigEndian.Uint32(b) {
	case macho.Magic32:
		return binary.BigEndian, false, true
	case macho.Magic64:
		return binary.BigEndian, true, true
	}
	return nil, false, false
}

// ParseImage parses the thin Mach-O image that is all of data.
func ParseImage(data []byte) (*Image, error) {
	return parseImage(data, 0, len(data), 0)
}

// parseImage parses a Mach-O header at data[start:], with its load commands
// inside data[start:end]. Section and segment file offsets are relative to
// sectBase (the image start for standalone and fat images, 0 in a dyld
// cache, whose images use cache file offsets). With sectBase == start every
// section must lie inside [start, end); in a cache, sections outside data
// (held by another subcache file) are left out.
func parseImage(data []byte, start, end int, sectBase int) (*Image, error) {
	b := data[start:end]
	order, is64, ok := isThin(b)
	if !ok {
		return nil, errorf(int64(start), "mach-o header", "no Mach-O magic")
	}
	hsz := header32Size
	if is64 {
		hsz = header64Size
	}
	if len(b) < hsz {
		return nil, errorf(int64(start), "mach-o header", "0x%x bytes, shorter than the 0x%x-byte header", len(b), hsz)
	}
	im := &Image{
		Offset:     int64(start),
		Is64:       is64,
		CPUType:    order.Uint32(b[4:]),
		CPUSubtype: order.Uint32(b[8:]),
		FileType:   order.Uint32(b[12:]),
	}
	ncmds, sizeofcmds := order.Uint32(b[16:]), order.Uint32(b[20:])
	if !span(uint64(hsz), uint64(sizeofcmds), len(b)) {
		return nil, errorf(int64(start)+20, "mach-o header sizeofcmds", "0x%x bytes of load commands run past the 0x%x-byte image", sizeofcmds, len(b))
	}
	if uint64(ncmds)*8 > uint64(sizeofcmds) {
		return nil, errorf(int64(start)+16, "mach-o header ncmds", "%d commands cannot fit 0x%x bytes", ncmds, sizeofcmds)
	}
	cmds := b[hsz : hsz+int(sizeofcmds)]
	standalone := sectBase == start
	limit := len(data)
	if standalone {
		limit = end
	}
	off := 0
	for i := 0; i < int(ncmds); i++ {
		at := int64(start + hsz + off)
		if len(cmds)-off < 8 {
			return nil, errorf(at, "load command", "command %d of %d starts past sizeofcmds", i, ncmds)
		}
		cmd, size := order.Uint32(cmds[off:]), order.Uint32(cmds[off+4:])
		if size < 8 || uint64(size) > uint64(len(cmds)-off) {
			return nil, errorf(at+4, "load command cmdsize", "command %d size 0x%x outside [8, 0x%x]", i, size, len(cmds)-off)
		}
		lc := cmds[off : off+int(size)]
		switch macho.LoadCmd(cmd) {
		case macho.LoadCmdSegment, macho.LoadCmdSegment64:
			if err := im.segment(lc, at, order, cmd == uint32(macho.LoadCmdSegment64), sectBase, limit, standalone); err != nil {
				return nil, err
			}
		}
		off += int(size)
	}
	return im, nil
}

// segment reads one segment command and its sections.
func (im *Image) segment(lc []byte, at int64, order binary.ByteOrder, is64 bool, sectBase, limit int, strict bool) error {
	hdr, ssz := segment32Size, section32Size
	if is64 {
		hdr, ssz = segment64Size, section64Size
	}
	if len(lc) < hdr {
		return errorf(at, "segment command", "cmdsize 0x%x shorter than 0x%x", len(lc), hdr)
	}
	seg := Segment{Name: cstring(lc[8:24])}
	var fileoff, filesize uint64
	var nsects uint32
	if is64 {
		fileoff, filesize, nsects = order.Uint64(lc[40:]), order.Uint64(lc[48:]), order.Uint32(lc[64:])
	} else {
		fileoff, filesize, nsects = uint64(order.Uint32(lc[32:])), uint64(order.Uint32(lc[36:])), order.Uint32(lc[48:])
	}
	construct := "segment " + printable(seg.Name)
	if uint64(nsects)*uint64(ssz) > uint64(len(lc)-hdr) {
		return errorf(at, construct+" nsects", "%d sections of 0x%x bytes do not fit cmdsize 0x%x", nsects, ssz, len(lc))
	}
	absOff := uint64(sectBase) + fileoff
	inside := fileoff <= uint64(limit) && span(absOff, filesize, limit)
	if !inside && strict {
		return errorf(at, construct, "file offset 0x%x size 0x%x outside the image", fileoff, filesize)
	}
	if inside {
		seg.FileOffset, seg.FileSize = int64(absOff), int64(filesize)
		im.Segments = append(im.Segments, seg)
	}
	for j := 0; j < int(nsects); j++ {
		s := lc[hdr+j*ssz : hdr+(j+1)*ssz]
		sec := Section{Name: cstring(s[0:16]), Segment: cstring(s[16:32])}
		var size, offset uint64
		if is64 {
			size, offset, sec.Flags = order.Uint64(s[40:]), uint64(order.Uint32(s[48:])), order.Uint32(s[64:])
		} else {
			size, offset, sec.Flags = uint64(order.Uint32(s[36:])), uint64(order.Uint32(s[40:])), order.Uint32(s[56:])
		}
		switch sec.Flags & 0xff {
		case 0x1, 0xc, 0x12: // S_ZEROFILL, S_GB_ZEROFILL, S_THREAD_LOCAL_ZEROFILL
			sec.NoData = true
			sec.Size = int64(min(size, 1<<62))
			im.Sections = append(im.Sections, sec)
			continue
		}
		abs := uint64(sectBase) + offset
		if !span(abs, size, limit) {
			if strict {
				return errorf(at+int64(hdr+j*ssz), "section "+printable(sec.FullName()), "file offset 0x%x size 0x%x outside the image", offset, size)
			}
			continue
		}
		sec.Offset, sec.Size = int64(abs), int64(size)
		im.Sections = append(im.Sections, sec)
	}
	return nil
}

// cstring returns b up to its first NUL.
func cstring(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// printable quotes s when it holds anything but printable ASCII.
func printable(s string) string {
	for _, c := range []byte(s) {
		if c < 0x20 || c > 0x7e {
			return strconv.Quote(s)
		}
	}
	return s
}

package mtlb

import (
	"encoding/binary"
	"fmt"
)

// Tag is one tagged field of a tag group: a four-character name and its
// content. Value holds a decoded form for tags whose layout is known.
type Tag struct {
	Name string `json:"name"`
	// Offset is the file offset of the tag's name.
	Offset int64 `json:"offset"`
	// Size is the content's size in bytes.
	Size int `json:"size"`
	// Data is the content, a sub-slice of the library's bytes.
	Data []byte `json:"-"`
	// Value is the decoded content for known layouts; nil otherwise.
	Value any `json:"value,omitempty"`
}

// tagEnd is the name that closes every tag list.
const tagEnd = "ENDT"

var le = binary.LittleEndian

// span converts an (offset, size) pair read from the file into a checked
// [start, end) range inside n bytes, rejecting overflow.
func span(off, size uint64, n int) (start, end int, ok bool) {
	if off > uint64(n) || size > uint64(n) || off+size > uint64(n) {
		return 0, 0, false
	}
	return int(off), int(off + size), true
}

// readTags reads tags from data[start:end] up to and including ENDT and
// returns them with the offset just past ENDT. sizeWidth is the width of
// each tag's size field: 2 in most lists, 4 in embedded-source groups.
func readTags(data []byte, start, end, sizeWidth int, construct string) ([]Tag, int, error) {
	var tags []Tag
	off := start
	for {
		if off+4 > end {
			return nil, 0, errorf(int64(off), construct, "tag list runs past its end 0x%x without ENDT", end)
		}
		name := string(data[off : off+4])
		if name == tagEnd {
			return tags, off + 4, nil
		}
		if off+4+sizeWidth > end {
			return nil, 0, errorf(int64(off), construct+" tag "+printableTag(name), "tag size field runs past 0x%x", end)
		}
		var size int
		if sizeWidth == 2 {
			size = int(le.Uint16(data[off+4:]))
		} else {
			size = int(le.Uint32(data[off+4:]))
		}
		body := off + 4 + sizeWidth
		if size > end-body {
			return nil, 0, errorf(int64(off), construct+" tag "+printableTag(name), "content size 0x%x runs past 0x%x", size, end)
		}
		tags = append(tags, Tag{Name: name, Offset: int64(off), Size: size, Data: data[body : body+size : body+size]})
		off = body + size
	}
}

// readGroup reads a tag group at off: a 32-bit size followed by tags ending
// in ENDT, all before limit. It returns the tags and the offset just past
// ENDT. The size counts the size field and the tags; libraries disagree on
// whether it also counts the closing ENDT (function groups do; embedded
// source groups and older metadata groups do not), so both are accepted.
func readGroup(data []byte, off, limit, sizeWidth int, construct string) ([]Tag, int, error) {
	if off < 0 || off+4 > limit {
		return nil, 0, errorf(int64(off), construct, "tag group size field beyond 0x%x", limit)
	}
	size := int64(le.Uint32(data[off:]))
	if size < 4 {
		return nil, 0, errorf(int64(off), construct, "tag group size 0x%x smaller than its size field", size)
	}
	if size > int64(limit-off) {
		return nil, 0, errorf(int64(off), construct, "tag group size 0x%x runs past 0x%x", size, limit)
	}
	end := off + int(size)
	bound := min(end+4, limit)
	tags, next, err := readTags(data, off+4, bound, sizeWidth, construct)
	if err != nil {
		return nil, 0, err
	}
	if next != end && next != end+4 {
		return nil, 0, errorf(int64(next), construct, "ENDT ends the tag group 0x%x bytes before its declared size 0x%x", end-next, size)
	}
	return tags, next, nil
}

// printableTag renders a tag name for messages and feature names: as is when
// it is four printable ASCII characters, else as hex.
func printableTag(name string) string {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x21 || c > 0x7e {
			return fmt.Sprintf("0x%x", []byte(name))
		}
	}
	return name
}

// cString returns the NUL-terminated text at the start of b and the number of
// bytes it used including the NUL; ok is false when b has no NUL.
func cString(b []byte) (s string, n int, ok bool) {
	for i, c := range b {
		if c == 0 {
			return string(b[:i]), i + 1, true
		}
	}
	return "", 0, false
}

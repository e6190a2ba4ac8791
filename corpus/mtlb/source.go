package mtlb

import (
	"archive/tar"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
)

// MaxSourceArchiveBytes caps how many decompressed bytes Parse reads from
// the embedded source archives of one library, all archives together; an
// archive that would pass the cap gets a Problem.
const MaxSourceArchiveBytes = 64 << 20

// Source is the embedded source section (HSRC, or HSRD with a working
// directory): the link options and one bzip2-compressed tar archive per group.
type Source struct {
	Tag         string          `json:"tag"`
	Offset      uint64          `json:"offset"`
	Size        uint64          `json:"size"`
	LinkOptions string          `json:"link_options"`
	WorkingDir  string          `json:"working_dir,omitempty"`
	Archives    []SourceArchive `json:"archives"`
}

// SourceArchive is one SARC group of the embedded source section.
type SourceArchive struct {
	// Offset is the file offset of the archive's tag group; RelOffset is the
	// same relative to the source section (what functions' SOFF holds).
	Offset    int64  `json:"offset"`
	RelOffset uint64 `json:"rel_offset"`
	ID        string `json:"id"`
	// Compressed is the bzip2 stream (starting "BZh").
	Compressed []byte `json:"-"`
	// CompressedBytes is len(Compressed).
	CompressedBytes int `json:"compressed_bytes"`
	// Entries are the files of the decompressed tar archive.
	Entries []ArchiveEntry `json:"entries"`
	// Problem says why the archive could not be listed fully; "" when it was.
	Problem string `json:"problem,omitempty"`
	Tags    []Tag  `json:"tags"`
}

// ArchiveEntry is one file of an embedded source archive.
type ArchiveEntry struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	Mode int64  `json:"mode"`
}

// parseSource reads the embedded source section: a 32-bit archive count,
// NUL-terminated link options, for HSRD a NUL-terminated working directory,
// then one tag group (with 32-bit tag sizes) per archive.
func (p *parser) parseSource(sec Section, tag string) (*Source, error) {
	start, end := int(sec.Offset), int(sec.Offset+sec.Size)
	construct := "embedded source (" + tag + ")"
	if end-start < 4 {
		return nil, errorf(int64(start), construct, "section size 0x%x has no room for its count", sec.Size)
	}
	src := &Source{Tag: tag, Offset: sec.Offset, Size: sec.Size}
	count := int64(le.Uint32(p.data[start:]))
	off := start + 4
	s, n, ok := cString(p.data[off:end])
	if !ok {
		return nil, errorf(int64(off), construct+" link options", "text is not NUL-terminated inside the section")
	}
	src.LinkOptions, off = s, off+n
	if tag == "HSRD" {
		s, n, ok = cString(p.data[off:end])
		if !ok {
			return nil, errorf(int64(off), construct+" working directory", "text is not NUL-terminated inside the section")
		}
		src.WorkingDir, off = s, off+n
	}
	if count*8 > int64(end-off) {
		return nil, errorf(int64(start), construct+" count", "%d archives cannot fit in 0x%x bytes", count, end-off)
	}
	src.Archives = make([]SourceArchive, 0, count)
	for i := range int(count) {
		c := fmt.Sprintf("%s archive[%d]", construct, i)
		tags, next, err := readGroup(p.data, off, end, 4, c)
		if err != nil {
			return nil, err
		}
		a := SourceArchive{Offset: int64(off), RelOffset: uint64(off - start), Tags: tags}
		found := false
		for _, t := range tags {
			if t.Name != "SARC" {
				p.note("container.tag." + printableTag(t.Name))
				continue
			}
			id, n, ok := cString(t.Data)
			if !ok {
				return nil, errorf(t.Offset, c+" tag SARC", "archive id is not NUL-terminated")
			}
			a.ID, a.Compressed, found = id, t.Data[n:], true
		}
		if !found {
			return nil, errorf(int64(off), c, "no SARC tag")
		}
		a.CompressedBytes = len(a.Compressed)
		if !p.opt.SkipArchiveListing {
			a.Entries, a.Problem = listArchive(a.Compressed, &p.archiveBudget)
		}
		src.Archives = append(src.Archives, a)
		off = next
	}
	return src, nil
}

// listArchive decompresses a bzip2 tar archive, reading at most *budget
// bytes (and taking what it read from *budget), and lists its files.
// problem is "" on success.
func listArchive(compressed []byte, budget *int64) (entries []ArchiveEntry, problem string) {
	if !bytes.HasPrefix(compressed, []byte("BZh")) {
		return nil, "archive does not start with the bzip2 magic BZh"
	}
	lr := &io.LimitedReader{R: bzip2.NewReader(bytes.NewReader(compressed)), N: *budget}
	defer func() { *budget = lr.N }()
	tr := tar.NewReader(lr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return entries, ""
		}
		if err != nil {
			if lr.N <= 0 {
				return entries, fmt.Sprintf("the library's archives decompress to more than %d bytes", MaxSourceArchiveBytes)
			}
			return entries, "archive: " + err.Error()
		}
		entries = append(entries, ArchiveEntry{Name: h.Name, Size: h.Size, Mode: h.Mode})
	}
}

package mtlb

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sort"
)

// parser holds the state of one Parse call.
type parser struct {
	opt     Options
	data    []byte // the library: input[:FileSize]
	lib     *Library
	unknown map[string]bool
	// archiveBudget is how many more decompressed bytes the embedded source
	// archives of this library may take.
	archiveBudget int64
}

// note records an undocumented feature.
func (p *parser) note(feature string) { p.unknown[feature] = true }

// noteFor returns a recorder that notes a feature for the library and for
// function f.
func (p *parser) noteFor(f *Function) func(string) {
	return func(feature string) {
		p.note(feature)
		if !slices.Contains(f.Unknown, feature) {
			f.Unknown = append(f.Unknown, feature)
		}
	}
}

// Parse reads a whole library. data may run past the library's end (the
// header's file size); the extra bytes are counted in TrailingBytes. A
// library-level problem is returned as a *FormatError; a problem confined to
// one function is left in that Function's Problem. Parse never panics.
func Parse(data []byte) (*Library, error) {
	return ParseWith(data, Options{})
}

// Options tunes ParseWith.
type Options struct {
	// SkipArchiveListing leaves embedded source archives compressed: their
	// Entries stay nil. Listing them means decompressing every archive
	// (bzip2, several MiB of buffers each), which dominates parse time on
	// libraries built with -frecord-sources.
	SkipArchiveListing bool
}

// ParseWith is Parse with options.
func ParseWith(data []byte, opt Options) (*Library, error) {
	lib, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	p := &parser{opt: opt, data: data[:lib.FileSize:lib.FileSize], lib: lib, unknown: map[string]bool{}, archiveBudget: MaxSourceArchiveBytes}
	lib.TrailingBytes = int64(len(data)) - int64(lib.FileSize)
	lib.headerFeatures(p.note)
	if err := p.parseFunctionList(); err != nil {
		return nil, err
	}
	if err := p.parseExtension(); err != nil {
		return nil, err
	}
	if err := p.parseExtensionSections(); err != nil {
		return nil, err
	}
	p.locateBitcode()
	p.readMetadata()
	p.checkSourceOffsets()
	p.linkReflection()
	for f := range p.unknown {
		lib.Unknown = append(lib.Unknown, f)
	}
	for i := range lib.Functions {
		slices.Sort(lib.Functions[i].Unknown)
	}
	sort.Strings(lib.Unknown)
	return lib, nil
}

// parseFunctionList reads the count and one tag group per function.
func (p *parser) parseFunctionList() error {
	fl := p.lib.Sections.FunctionList
	start := int(fl.Offset)
	end := start + 4 + int(fl.Size)
	count := uint64(le.Uint32(p.data[start:]))
	if count*8 > fl.Size {
		return errorf(int64(start), "function list count", "%d functions cannot fit in 0x%x bytes (8 bytes each at least)", count, fl.Size)
	}
	p.lib.Functions = make([]Function, 0, count)
	off := start + 4
	for i := range int(count) {
		tags, next, err := readGroup(p.data, off, end, 2, fmt.Sprintf("function[%d]", i))
		if err != nil {
			return err
		}
		f := Function{Index: i, Offset: int64(off), Tags: tags}
		decodeFunctionTags(&f, p.noteFor(&f))
		p.lib.Functions = append(p.lib.Functions, f)
		off = next
	}
	if off != end {
		return errorf(int64(off), "function list", "%d tag groups end 0x%x bytes before the list's declared end 0x%x", count, end-off, end)
	}
	return nil
}

// locateBitcode slices each function's bitcode out of the bitcode section.
// Without MDSZ a slice runs to the next function's offset or the section end.
func (p *parser) locateBitcode() {
	bc := p.lib.Sections.Bitcode
	var offsets []uint64
	for i := range p.lib.Functions {
		offsets = append(offsets, p.lib.Functions[i].BitcodeOffset)
	}
	slices.Sort(offsets)
	for i := range p.lib.Functions {
		f := &p.lib.Functions[i]
		if f.Problem != nil {
			continue
		}
		construct := fmt.Sprintf("function[%d] %q tag OFFT", f.Index, f.Name)
		if f.BitcodeOffset > bc.Size {
			f.Problem = errorf(f.Offset, construct, "bitcode offset 0x%x beyond bitcode section (size 0x%x)", f.BitcodeOffset, bc.Size)
			continue
		}
		if !f.HasMDSZ {
			next := bc.Size
			j, _ := slices.BinarySearch(offsets, f.BitcodeOffset+1)
			if j < len(offsets) {
				next = offsets[j]
			}
			f.BitcodeSize = next - f.BitcodeOffset
		}
		if f.BitcodeSize > bc.Size-f.BitcodeOffset {
			f.Problem = errorf(f.Offset, fmt.Sprintf("function[%d] %q tag MDSZ", f.Index, f.Name),
				"bitcode offset 0x%x size 0x%x beyond bitcode section (size 0x%x)", f.BitcodeOffset, f.BitcodeSize, bc.Size)
			continue
		}
		start := int(bc.Offset + f.BitcodeOffset)
		end := start + int(f.BitcodeSize)
		f.Bitcode = p.data[start:end:end]
		if !f.HasMDSZ && f.HasHash && !f.HashMatches() && trimPadding(f) {
			p.noteFor(f)("container.bitcode.unhashed_padding")
		}
	}
}

// trimPadding handles libraries without MDSZ that leave zero bytes between
// one module and the next function's offset, outside the HASH (measured:
// 8 functions of 2 corpus libraries, one NUL each): when the wrapper's
// stream end, rounded up to 16, leaves only zeros after it and the shorter
// slice matches HASH, f.Bitcode becomes that slice.
func trimPadding(f *Function) bool {
	b := f.Bitcode
	if len(b) < WrapperHeaderSize || le.Uint32(b) != WrapperMagic {
		return false
	}
	end := (uint64(le.Uint32(b[8:])) + uint64(le.Uint32(b[12:])) + 15) &^ 15
	if end >= uint64(len(b)) {
		return false
	}
	for _, c := range b[end:] {
		if c != 0 {
			return false
		}
	}
	if sha256.Sum256(b[:end]) != f.Hash {
		return false
	}
	f.Bitcode, f.BitcodeSize = b[:end:end], end
	return true
}

// readMetadata reads each function's public and private metadata groups and
// collects every distinct group's tags into the library.
func (p *parser) readMetadata() {
	seenPub, seenPriv := map[uint64]bool{}, map[uint64]bool{}
	for i := range p.lib.Functions {
		f := &p.lib.Functions[i]
		if f.Problem != nil {
			continue
		}
		var err error
		f.PublicMetadata, err = p.metadataGroup(f, p.lib.Sections.PublicMetadata, f.PublicMDOffset,
			fmt.Sprintf("function[%d] %q public metadata", f.Index, f.Name))
		if err == nil {
			f.PrivateMetadata, err = p.metadataGroup(f, p.lib.Sections.PrivateMetadata, f.PrivateMDOffset,
				fmt.Sprintf("function[%d] %q private metadata", f.Index, f.Name))
		}
		if err != nil {
			f.Problem = asFormatError(err, f.Offset, fmt.Sprintf("function[%d] %q metadata", f.Index, f.Name))
			continue
		}
		if !seenPub[f.PublicMDOffset] {
			seenPub[f.PublicMDOffset] = true
			p.lib.PublicMetadata = append(p.lib.PublicMetadata, f.PublicMetadata...)
		}
		if !seenPriv[f.PrivateMDOffset] {
			seenPriv[f.PrivateMDOffset] = true
			p.lib.PrivateMetadata = append(p.lib.PrivateMetadata, f.PrivateMetadata...)
		}
	}
}

// metadataGroup reads the tag group at rel inside sec and decodes its tags.
// An empty section holds no groups: it yields no tags.
func (p *parser) metadataGroup(f *Function, sec Section, rel uint64, construct string) ([]Tag, error) {
	if sec.Size == 0 {
		return nil, nil
	}
	if rel >= sec.Size {
		return nil, errorf(int64(sec.Offset), construct, "offset 0x%x beyond section (size 0x%x)", rel, sec.Size)
	}
	start := int(sec.Offset + rel)
	tags, _, err := readGroup(p.data, start, int(sec.Offset+sec.Size), 2, construct)
	if err != nil {
		return nil, err
	}
	for i := range tags {
		decodeMetadataTag(&tags[i], p.noteFor(f))
	}
	return tags, nil
}

// checkSourceOffsets checks each SOFF against the embedded source section
// and links it to its archive. Measured on the corpus: SOFF is the archive's
// group offset in the section plus 4 (it skips the group's size field).
func (p *parser) checkSourceOffsets() {
	for i := range p.lib.Functions {
		f := &p.lib.Functions[i]
		if f.Problem != nil || f.SourceOffset == nil {
			continue
		}
		var size uint64
		if p.lib.Source != nil {
			size = p.lib.Source.Size
		}
		if *f.SourceOffset >= size {
			f.Problem = errorf(f.Offset, fmt.Sprintf("function[%d] %q tag SOFF", f.Index, f.Name),
				"offset 0x%x beyond embedded source section (size 0x%x)", *f.SourceOffset, size)
			continue
		}
		for _, a := range p.lib.Source.Archives {
			if a.RelOffset+4 == *f.SourceOffset || a.RelOffset == *f.SourceOffset {
				f.SourceArchive = a.ID
			}
		}
		if f.SourceArchive == "" {
			p.noteFor(f)("container.soff.unmatched")
		}
	}
}

// linkReflection links each RFLT to its RLST group. Measured on the corpus:
// RFLT is the group's offset from the start of the RLST section.
func (p *parser) linkReflection() {
	ext := p.lib.Extension
	if ext == nil || ext.Reflection == nil {
		return
	}
	for i := range p.lib.Functions {
		f := &p.lib.Functions[i]
		for _, t := range f.Tags {
			if t.Name != "RFLT" || len(t.Data) != 8 {
				continue
			}
			rel := le.Uint64(t.Data)
			for j, g := range p.lib.Reflection {
				if uint64(g.Offset) == ext.Reflection.Offset+rel {
					f.Reflection = &j
				}
			}
			if f.Reflection == nil {
				p.noteFor(f)("container.rflt.unmatched")
			}
		}
	}
}

// asFormatError returns err as a *FormatError, wrapping other errors.
func asFormatError(err error, off int64, construct string) *FormatError {
	if fe, ok := err.(*FormatError); ok {
		return fe
	}
	return &FormatError{Offset: off, Construct: construct, Err: err}
}

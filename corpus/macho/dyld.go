package macho

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// DyldMagicPrefix starts every dyld shared cache (and subcache) file:
// "dyld_v1", padded with spaces to the architecture, in 16 bytes.
const DyldMagicPrefix = "dyld_v1"

// Caps on what a cache header may declare.
const (
	MaxMappings    = 1024
	MaxCacheImages = 1 << 17
)

var le = binary.LittleEndian

// Cache is a dyld shared cache file's header, mappings and image list.
type Cache struct {
	// Magic is the 16-byte magic without padding, e.g. "dyld_v1  arm64e".
	Magic string
	// Arch is the architecture the magic names.
	Arch     string
	Mappings []Mapping
	// Images lists the cache's dylibs. A subcache file lists none; a main
	// cache lists every image, including those held by subcache files.
	Images []CacheImage
}

// Mapping maps Size bytes at FileOffset to virtual Address.
type Mapping struct {
	Address, Size, FileOffset uint64
	MaxProt, InitProt         uint32
}

// CacheImage is one image of the cache.
type CacheImage struct {
	Path    string
	Address uint64
	// Offset is the image's Mach-O header in this file, or -1 when no
	// mapping of this file holds its address.
	Offset int64
	// Image is the parsed header (sections in cache file offsets; those
	// outside this file are left out); nil when Offset is -1 or Err is set.
	Image *Image
	Err   error
}

// isDyldCache reports whether b starts with a dyld cache magic.
func isDyldCache(b []byte) bool {
	return len(b) >= 16 && bytes.HasPrefix(b, []byte(DyldMagicPrefix))
}

// Offsets of dyld_cache_header fields read here.
const (
	dyldMappingOffset   = 0x10
	dyldImagesOffsetOld = 0x18
	dyldImagesOffset    = 0x1c0
	dyldImagesCount     = 0x1c4
	mappingInfoSize     = 32
	imageInfoSize       = 32
	maxCachePath        = 1024
)

// ParseCache reads a dyld shared cache header, its mappings and its images.
// Images whose Mach-O header is in this file are parsed; an image that
// fails keeps its error.
func ParseCache(data []byte) (*Cache, error) {
	if !isDyldCache(data) {
		return nil, errorf(0, "dyld cache magic", "want %q", DyldMagicPrefix)
	}
	c := &Cache{Magic: strings.TrimRight(cstring(data[:16]), " ")}
	c.Arch = strings.TrimSpace(strings.TrimPrefix(c.Magic, DyldMagicPrefix))
	if len(data) < 0x20 {
		return nil, errorf(0, "dyld cache header", "0x%x bytes, too short", len(data))
	}
	mOff, mCount := le.Uint32(data[dyldMappingOffset:]), le.Uint32(data[dyldMappingOffset+4:])
	if mCount > MaxMappings || !span(uint64(mOff), uint64(mCount)*mappingInfoSize, len(data)) || mOff < 0x20 {
		return nil, errorf(dyldMappingOffset, "dyld cache mappings", "%d mappings at 0x%x outside the 0x%x-byte file (cap %d)", mCount, mOff, len(data), MaxMappings)
	}
	for i := 0; i < int(mCount); i++ {
		b := data[int(mOff)+i*mappingInfoSize:]
		c.Mappings = append(c.Mappings, Mapping{
			Address: le.Uint64(b), Size: le.Uint64(b[8:]), FileOffset: le.Uint64(b[16:]),
			MaxProt: le.Uint32(b[24:]), InitProt: le.Uint32(b[28:]),
		})
	}
	iOff, iCount := le.Uint32(data[dyldImagesOffsetOld:]), le.Uint32(data[dyldImagesOffsetOld+4:])
	construct := "dyld cache images (old)"
	if mOff >= dyldImagesCount+4 && len(data) >= dyldImagesCount+4 {
		iOff, iCount = le.Uint32(data[dyldImagesOffset:]), le.Uint32(data[dyldImagesCount:])
		construct = "dyld cache images"
	}
	if iCount > MaxCacheImages || !span(uint64(iOff), uint64(iCount)*imageInfoSize, len(data)) {
		return nil, errorf(dyldImagesOffsetOld, construct, "%d images at 0x%x outside the 0x%x-byte file (cap %d)", iCount, iOff, len(data), MaxCacheImages)
	}
	for i := 0; i < int(iCount); i++ {
		at := int(iOff) + i*imageInfoSize
		b := data[at:]
		im := CacheImage{Address: le.Uint64(b), Offset: -1}
		p := uint64(le.Uint32(b[24:]))
		if p >= uint64(len(data)) {
			return nil, errorf(int64(at+24), construct+" path", "image %d path offset 0x%x past the file", i, p)
		}
		im.Path = cstring(data[p:min(uint64(len(data)), p+maxCachePath)])
		if off, ok := c.fileOffset(im.Address, len(data)); ok {
			im.Offset = off
			im.Image, im.Err = parseImage(data, int(off), len(data), 0)
		}
		c.Images = append(c.Images, im)
	}
	return c, nil
}

// fileOffset maps a virtual address to an offset in this n-byte file.
func (c *Cache) fileOffset(addr uint64, n int) (int64, bool) {
	for _, m := range c.Mappings {
		if addr >= m.Address && addr-m.Address < m.Size {
			off := m.FileOffset + (addr - m.Address)
			if off < uint64(n) {
				return int64(off), true
			}
		}
	}
	return 0, false
}

// ImageAt returns the image with a section holding input byte off.
func (c *Cache) ImageAt(off int64) (*CacheImage, Section, bool) {
	for i := range c.Images {
		im := &c.Images[i]
		if im.Image == nil {
			continue
		}
		if s, ok := im.Image.SectionAt(off); ok {
			return im, s, true
		}
	}
	return nil, Section{}, false
}

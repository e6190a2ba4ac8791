package mtlb

import "bytes"

// Embedded locates one library inside a larger file.
type Embedded struct {
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
}

// LooksLikeLibrary reports whether data starts with a plausible library; it
// is ValidHeader under the name the discovery code uses.
func LooksLikeLibrary(data []byte) bool { return ValidHeader(data) }

// FindEmbedded returns every library embedded in data (a Mach-O, a shared
// cache, a firmware blob): each "MTLB" whose header passes ValidHeader, in
// order, skipping matches inside a library already found.
func FindEmbedded(data []byte) []Embedded {
	var out []Embedded
	for off := 0; off < len(data); {
		i := bytes.Index(data[off:], []byte(Magic))
		if i < 0 {
			break
		}
		start := off + i
		if ValidHeader(data[start:]) {
			size := int64(le.Uint64(data[start+16:]))
			out = append(out, Embedded{Offset: int64(start), Size: size})
			off = start + int(size)
			continue
		}
		off = start + 1
	}
	return out
}

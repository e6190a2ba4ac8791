package scan

import (
	"fmt"

	"github.com/airpipe/airpipe/corpus/macho"
)

// namer names where blobs sit using the input's container structure.
type namer struct {
	size int64
	file *macho.File
}

func newNamer(data []byte, f *Findings) *namer {
	n := &namer{size: int64(len(data))}
	k := macho.Sniff(data)
	if k == macho.KindNone {
		return n
	}
	f.Container = k.String()
	file, err := macho.Parse(data)
	if err != nil {
		f.ContainerError = err.Error()
		return n
	}
	n.file = file
	return n
}

// name sets b's Kind (keeping bare-module) and Where.
func (n *namer) name(b *Blob) {
	bare := b.Kind == KindBareModule
	set := func(kind, where string) {
		if !bare {
			b.Kind = kind
		}
		b.Where = where
	}
	if b.Offset == 0 && !bare && n.file == nil {
		set(KindFile, "")
		return
	}
	if n.file == nil {
		return
	}
	if c := n.file.Cache; c != nil {
		if im, sec, ok := c.ImageAt(b.Offset); ok {
			set(KindCacheBlob, im.Path+"/"+sec.FullName())
			return
		}
		for i, m := range c.Mappings {
			if uint64(b.Offset) >= m.FileOffset && uint64(b.Offset)-m.FileOffset < m.Size {
				set(KindCacheBlob, fmt.Sprintf("mapping %d", i))
				return
			}
		}
		set(KindCacheBlob, "")
		return
	}
	fat := n.file.Kind != macho.KindThin
	for _, s := range n.file.Slices {
		if b.Offset < s.Offset || b.Offset >= s.Offset+s.Size {
			continue
		}
		prefix := ""
		if fat {
			prefix = s.Arch() + " slice"
		}
		if s.Image != nil {
			if sec, ok := s.Image.SectionAt(b.Offset); ok {
				set(KindMachOSection, join(prefix, sec.FullName()))
				return
			}
		}
		if fat && b.Offset == s.Offset {
			set(KindFatSlice, prefix)
			return
		}
		set(KindEmbedded, prefix)
		return
	}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "/" + b
}

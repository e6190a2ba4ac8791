// Package scan finds Metal libraries and bare AIR modules inside arbitrary
// bytes: a library file, a thin or fat Mach-O (including Metal fat binaries),
// a dyld shared cache or any other file.
//
// Libraries are found by their magic "MTLB" and accepted only when
// mtlb.ValidHeader holds (declared size and every section inside the data);
// bare modules by the LLVM bitcode wrapper magic 0x0B17C0DE, accepted only
// when the wrapper's offset and size lie inside the data and the stream
// starts with "BC" 0xC0DE, and only outside libraries already found. Every
// magic that fails validation is counted in Findings.Rejected. The raw scan
// always covers every byte; the Mach-O or cache structure, when it parses,
// only names where each blob sits.
package scan

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/airpipe/airpipe/corpus/mtlb"
)

// Blob kinds: where a found blob sits.
const (
	KindFile         = "file"          // the whole input is the library (offset 0)
	KindFatSlice     = "fat-slice"     // a fat binary's slice is the library (AIR64)
	KindMachOSection = "macho-section" // inside a Mach-O section
	KindCacheBlob    = "cache-blob"    // inside a dyld shared cache
	KindEmbedded     = "embedded"      // anywhere else in the input
	KindBareModule   = "bare-module"   // a wrapped bitcode module outside any library
)

// Blob is one library or bare module found.
type Blob struct {
	// Offset and Size locate the blob in the input.
	Offset int64
	Size   int64
	// Kind is one of the Kind constants.
	Kind string
	// Where names the container part holding the blob, for example
	// "arm64e slice/__DATA,__metallib" or
	// "/System/Library/Frameworks/X.framework/X/__TEXT,__const"; empty for
	// a whole file or a raw scan.
	Where string
}

// Rejection is one magic that failed validation.
type Rejection struct {
	Offset int64
	// Magic is "MTLB" or "0x0B17C0DE".
	Magic  string
	Reason string
}

// MaxRejections caps the Rejections kept with their reason; Rejected
// counts them all.
const MaxRejections = 64

// Findings is what Find reports.
type Findings struct {
	Blobs []Blob
	// Rejected counts magics that failed validation.
	Rejected   int
	Rejections []Rejection
	// Container names the structure recognised ("mach-o", "fat",
	// "metal-fat", "dyld-cache"), or is empty for a raw scan.
	Container string
	// ContainerError says why a recognised container did not parse (blobs
	// are then found by the raw scan alone and named "embedded").
	ContainerError string
}

// wrapperMagic is 0x0B17C0DE as it appears in little-endian data.
var (
	libMagic     = []byte(mtlb.Magic)
	wrapperMagic = binary.LittleEndian.AppendUint32(nil, mtlb.WrapperMagic)
	rawBitcode   = []byte{'B', 'C', 0xC0, 0xDE}
)

// Find scans data for libraries and bare modules, in offset order.
func Find(data []byte) Findings {
	var f Findings
	libs := f.findLibraries(data)
	mods := f.findModules(data, libs)
	blobs := merge(libs, mods)
	namer := newNamer(data, &f)
	for i := range blobs {
		namer.name(&blobs[i])
	}
	f.Blobs = blobs
	return f
}

func (f *Findings) reject(off int, magic, reason string) {
	f.Rejected++
	if len(f.Rejections) < MaxRejections {
		f.Rejections = append(f.Rejections, Rejection{Offset: int64(off), Magic: magic, Reason: reason})
	}
}

// findLibraries finds every valid library header, skipping the inside of
// libraries already accepted.
func (f *Findings) findLibraries(data []byte) []Blob {
	var out []Blob
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], libMagic)
		if j < 0 {
			break
		}
		at := i + j
		if mtlb.ValidHeader(data[at:]) {
			size := int64(binary.LittleEndian.Uint64(data[at+16:]))
			out = append(out, Blob{Offset: int64(at), Size: size, Kind: KindEmbedded})
			i = at + int(size)
			continue
		}
		f.reject(at, mtlb.Magic, libraryReason(data[at:]))
		i = at + 1
	}
	return out
}

// libraryReason says why ValidHeader refused b.
func libraryReason(b []byte) string {
	_, err := mtlb.ParseWith(b, mtlb.Options{SkipArchiveListing: true})
	if err != nil {
		return err.Error()
	}
	return "function count does not fit the function list"
}

// findModules finds valid bitcode wrappers outside libs (sorted).
func (f *Findings) findModules(data []byte, libs []Blob) []Blob {
	var out []Blob
	li := 0
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], wrapperMagic)
		if j < 0 {
			break
		}
		at := i + j
		for li < len(libs) && libs[li].Offset+libs[li].Size <= int64(at) {
			li++
		}
		if li < len(libs) && libs[li].Offset <= int64(at) {
			i = int(libs[li].Offset + libs[li].Size)
			continue
		}
		size, reason := wrapperSize(data[at:])
		if reason != "" {
			f.reject(at, "0x0B17C0DE", reason)
			i = at + 1
			continue
		}
		// A module must not run into a library.
		if li < len(libs) && int64(at)+size > libs[li].Offset {
			f.reject(at, "0x0B17C0DE", fmt.Sprintf("wrapped stream runs into the library at 0x%x", libs[li].Offset))
			i = at + 1
			continue
		}
		out = append(out, Blob{Offset: int64(at), Size: size, Kind: KindBareModule})
		i = at + int(size)
	}
	return out
}

// wrapperSize validates a bitcode wrapper at the start of b and returns the
// bytes it covers (header through the end of the stream).
func wrapperSize(b []byte) (int64, string) {
	if len(b) < mtlb.WrapperHeaderSize {
		return 0, fmt.Sprintf("0x%x bytes left, shorter than the 0x%x-byte wrapper header", len(b), mtlb.WrapperHeaderSize)
	}
	off, size := uint64(binary.LittleEndian.Uint32(b[8:])), uint64(binary.LittleEndian.Uint32(b[12:]))
	if off < mtlb.WrapperHeaderSize || off > uint64(len(b)) || size > uint64(len(b))-off || size < 4 {
		return 0, fmt.Sprintf("stream offset 0x%x size 0x%x outside the 0x%x bytes left", off, size, len(b))
	}
	if !bytes.HasPrefix(b[off:], rawBitcode) {
		return 0, "wrapped stream does not start with BC 0xC0DE"
	}
	return int64(off + size), ""
}

// merge returns libs and mods in offset order.
func merge(libs, mods []Blob) []Blob {
	out := make([]Blob, 0, len(libs)+len(mods))
	i, j := 0, 0
	for i < len(libs) || j < len(mods) {
		if j == len(mods) || (i < len(libs) && libs[i].Offset < mods[j].Offset) {
			out = append(out, libs[i])
			i++
		} else {
			out = append(out, mods[j])
			j++
		}
	}
	return out
}

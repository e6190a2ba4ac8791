package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/corpus/scan"
	"github.com/airpipe/airpipe/internal/codes"
)

// DefaultMaxFileSize is the largest library file read whole (1 GiB).
const DefaultMaxFileSize = 1 << 30

// LoadLibrary reads one library file and fans it out into its modules. A
// file that cannot be read or parsed becomes one module with index -1,
// which the container stage fails with the reason; a library with no
// functions yields no modules.
func LoadLibrary(_ context.Context, e corpus.Entry, maxSize int64) []*Module {
	lib := &Library{Source: e.Provenance, Path: e.Path, Kind: scan.KindFile}
	data, err := corpus.ReadCapped(e.Path, maxSize, func() {
		if openedHook != nil {
			openedHook(e.Path)
		}
	})
	if err != nil {
		lib.Err = err
		lib.ErrCode = codes.ContainerUnreadable
		switch err.(type) {
		case *corpus.TooLargeError:
			lib.ErrCode = codes.ContainerFileTooLarge
		case *corpus.ChangedError:
			lib.ErrCode = codes.ContainerFileChanged
		}
		return modulesOf(lib)
	}
	sum := sha256.Sum256(data)
	lib.SHA256 = hex.EncodeToString(sum[:])
	lib.Lib, lib.Err = parseLibrary(data)
	if lib.Err != nil {
		lib.Lib = nil
		lib.ErrCode = codes.ContainerMalformedLibrary
	}
	return modulesOf(lib)
}

// parseLibrary parses a library for the pipeline, which never reads the
// file lists of its embedded source archives ('airpipe inspect' does): they
// stay compressed (mtlb.Options.SkipArchiveListing), sparing the bzip2
// decompression of every archive (1.9 GB of buffers over the share).
func parseLibrary(data []byte) (*mtlb.Library, error) {
	return mtlb.ParseWith(data, mtlb.Options{SkipArchiveListing: true})
}

// openedHook, when set (by tests), is called once a library file is open.
var openedHook func(path string)

// LibraryMagic reports whether the file at path starts with "MTLB".
// A library is recognised by its magic, never by its name.
func LibraryMagic(path string) (bool, error) { return corpus.StartsWith(path, mtlb.Magic) }

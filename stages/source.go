package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/corpus/scan"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
)

// Source verdicts, reported for every file the engine reads so that the
// run can account for each one.
const (
	// VerdictLibrary: the file is a library (possibly malformed: its
	// library-level row then says why).
	VerdictLibrary = "library"
	// VerdictContainer: the file holds embedded libraries or bare modules.
	VerdictContainer = "container"
	// VerdictNotLibrary: the file holds no library and no module.
	VerdictNotLibrary = "not-library"
	// VerdictRefusedPrefix starts the verdict of a file refused unread:
	// "refused:<code>".
	VerdictRefusedPrefix = "refused:"
)

// DefaultMaxScanSize is the largest non-library file scanned for embedded
// libraries (dyld shared caches run to a few GiB; they are memory-mapped,
// not read).
const DefaultMaxScanSize = 16 << 30

// LoadOptions bound what LoadSource reads.
type LoadOptions struct {
	// MaxFileSize is the largest library file read whole.
	MaxFileSize int64
	// MaxScanSize is the largest other file scanned; 0 disables scanning.
	MaxScanSize int64
}

// LoadSource reads one file and fans it out into modules: a library file
// into one module per function; any other file is scanned for embedded
// libraries (Mach-O sections, fat slices, dyld cache blobs, raw) and bare
// AIR modules, each becoming a library of its own whose provenance names
// where it sat. A library that cannot be read or parsed becomes one module
// with index -1 that the container stage fails with the reason.
func LoadSource(ctx context.Context, e corpus.Entry, o LoadOptions) pipeline.Expansion[*Module] {
	x := loadSource(ctx, e, o)
	if len(x.Items) == 0 && ClaimsLibrary(e.Provenance) {
		// The name promises a library: say per file why none is here.
		code, msg := codes.ContainerNotALibrary, "the file's name ends in .metallib but its bytes hold no Metal library (no MTLB header) and no AIR module"
		if c, ok := strings.CutPrefix(x.Verdict, VerdictRefusedPrefix); ok {
			code, msg = codes.Code(c), "the file's name ends in .metallib but it was not read: "+c
		}
		if x.Verdict == VerdictNotLibrary || strings.HasPrefix(x.Verdict, VerdictRefusedPrefix) {
			lib := &Library{Source: e.Provenance, Path: e.Path, Kind: scan.KindFile, Err: errors.New(msg), ErrCode: code}
			x = pipeline.Expansion[*Module]{Items: modulesOf(lib), Verdict: VerdictLibrary}
		}
	}
	return x
}

// ClaimsLibrary reports whether a file's name (its last provenance
// component) ends in .metallib, any case. The name never makes bytes a
// library; it only makes the absence of one worth a row.
func ClaimsLibrary(provenance string) bool {
	return strings.EqualFold(filepath.Ext(provenance), ".metallib")
}

func loadSource(ctx context.Context, e corpus.Entry, o LoadOptions) pipeline.Expansion[*Module] {
	lib, err := LibraryMagic(e.Path)
	switch {
	case err != nil:
		return pipeline.Expansion[*Module]{Verdict: VerdictRefusedPrefix + string(codes.ContainerUnreadable)}
	case lib:
		return pipeline.Expansion[*Module]{Items: LoadLibrary(ctx, e, o.MaxFileSize), Verdict: VerdictLibrary}
	case o.MaxScanSize <= 0 || e.Size == 0:
		return pipeline.Expansion[*Module]{Verdict: VerdictNotLibrary}
	}
	return scanFile(e, o)
}

// mappedHook, when set (by tests), is called once a scanned file is mapped.
var mappedHook func(path string)

// changedUnderRun is the library-level module of a file that changed while
// it was read: its rows would describe bytes that no longer exist.
func changedUnderRun(e corpus.Entry, what string) pipeline.Expansion[*Module] {
	lib := &Library{Source: e.Provenance, Path: e.Path, Kind: scan.KindFile,
		Err: errors.New("the file changed while it was read (" + what + "); run again once it is stable"), ErrCode: codes.ContainerFileChanged}
	return pipeline.Expansion[*Module]{Items: modulesOf(lib), Verdict: VerdictLibrary}
}

// scanFile scans a non-library file for embedded libraries and bare
// modules (corpus.ScanFile); a file that changed under the scan becomes a
// container/file-changed row.
func scanFile(e corpus.Entry, o LoadOptions) pipeline.Expansion[*Module] {
	blobs, err := corpus.ScanFile(e.Path, o.MaxScanSize, func() {
		if mappedHook != nil {
			mappedHook(e.Path)
		}
	})
	var changed *corpus.ChangedError
	var tooLarge *corpus.TooLargeError
	switch {
	case errors.As(err, &changed):
		return changedUnderRun(e, changed.What)
	case errors.As(err, &tooLarge):
		return pipeline.Expansion[*Module]{Verdict: VerdictRefusedPrefix + string(codes.ContainerFileTooLarge)}
	case err != nil:
		return pipeline.Expansion[*Module]{Verdict: VerdictRefusedPrefix + string(codes.ContainerUnreadable)}
	case len(blobs) == 0:
		return pipeline.Expansion[*Module]{Verdict: VerdictNotLibrary}
	}
	var mods []*Module
	for _, b := range blobs {
		lib := &Library{Source: blobProvenance(e.Provenance, b.Blob), Path: e.Path, Kind: b.Kind, Offset: b.Offset}
		sum := sha256.Sum256(b.Data)
		lib.SHA256 = hex.EncodeToString(sum[:])
		if b.Kind == scan.KindBareModule {
			mods = append(mods, bareModule(lib, b.Data))
			continue
		}
		if lib.Lib, lib.Err = parseLibrary(b.Data); lib.Err != nil {
			lib.Lib, lib.ErrCode = nil, codes.ContainerMalformedLibrary
		}
		mods = append(mods, modulesOf(lib)...)
	}
	return pipeline.Expansion[*Module]{Items: mods, Verdict: VerdictContainer}
}

// blobProvenance names a blob inside a file: path!where@0xOFFSET.
func blobProvenance(path string, b scan.Blob) string {
	if b.Kind == scan.KindFile {
		return path
	}
	where := b.Where
	if where == "" {
		where = b.Kind
	}
	return fmt.Sprintf("%s!%s@0x%x", path, where, b.Offset)
}

// bareModule makes the module of a wrapped bitcode module found outside
// any library: it has no function list entry, so no name and no HASH.
func bareModule(lib *Library, blob []byte) *Module {
	sum := sha256.Sum256(blob)
	return &Module{Library: lib, Index: 0, Function: &mtlb.Function{Bitcode: blob, BitcodeSize: uint64(len(blob))},
		SHA256: hex.EncodeToString(sum[:])}
}

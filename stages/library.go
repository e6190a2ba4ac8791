package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/airpipe/airpipe/corpus"
	"github.com/airpipe/airpipe/corpus/mtlb"
	"github.com/airpipe/airpipe/corpus/scan"
)

// DefaultMaxFileSize is the largest library file read whole (1 GiB).
const DefaultMaxFileSize = 1 << 30

// LoadLibrary reads one library file and fans it out into its modules. A
// file that cannot be read or parsed becomes one module with index -1,
// which the container stage fails with the reason; a library with no
// functions yields no modules.
func LoadLibrary(_ context.Context, e corpus.Entry, maxSize int64) []*Module {
	lib := &Library{Source: e.Provenance, Path: e.Path, Kind: scan.KindFile}
	data, err := readCapped(e.Path, maxSize)
	if err != nil {
		lib.Err = err
		lib.ErrCode = CodeUnreadable
		switch err.(type) {
		case *tooLargeError:
			lib.ErrCode = CodeFileTooLarge
		case *changedError:
			lib.ErrCode = CodeFileChanged
		}
		return modulesOf(lib)
	}
	sum := sha256.Sum256(data)
	lib.SHA256 = hex.EncodeToString(sum[:])
	lib.Lib, lib.Err = mtlb.Parse(data)
	if lib.Err != nil {
		lib.Lib = nil
		lib.ErrCode = CodeMalformedLibrary
	}
	return modulesOf(lib)
}

type tooLargeError struct{ size, max int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("file is %d bytes, more than the limit of %d (--max-file-size)", e.size, e.max)
}

// changedError is a file that changed while it was read.
type changedError struct{ what string }

func (e *changedError) Error() string {
	return "the file changed while it was read (" + e.what + "); run again once it is stable"
}

// openRegular opens path for reading without blocking (a FIFO swapped in
// after the walk opens at once) and refuses anything but a regular file.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file (%s)", path, st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// openedHook, when set (by tests), is called once a library file is open.
var openedHook func(path string)

// readCapped reads a whole file, refusing files over max bytes before
// allocating for them, and a file whose size or modification time changed
// while it was read.
func readCapped(path string, max int64) ([]byte, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, &tooLargeError{st.Size(), max}
	}
	if openedHook != nil {
		openedHook(path)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &tooLargeError{int64(len(data)), max}
	}
	if int64(len(data)) != st.Size() {
		return nil, &changedError{fmt.Sprintf("%d bytes read, %d when opened", len(data), st.Size())}
	}
	if now, err := f.Stat(); err != nil || now.Size() != st.Size() || !now.ModTime().Equal(st.ModTime()) {
		return nil, &changedError{"size or modification time differ after the read"}
	}
	return data, nil
}

// LibraryMagic reports whether the file at path starts with "MTLB".
// A library is recognised by its magic, never by its name.
func LibraryMagic(path string) (bool, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var magic [4]byte
	n, err := io.ReadFull(f, magic[:])
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return n == 4 && string(magic[:]) == mtlb.Magic, nil
}

// Package sealed writes and reads sealed files: a body framed by a header
// with its SHA-256, written atomically, read back only when it is a regular
// file under a size cap whose body matches its hash — and prunes a cache
// directory of them (Prune). The stage cache (pipeline) and the CPU
// reference cache keep their entries in them.
package sealed

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// sealMagic starts every sealed file; the SHA-256 of the body (in hex) and
// a newline follow it, then the body.
const sealMagic = "airpipe-sealed-v1 sha256="

// sealHeader is the length of the header before the body.
const sealHeader = len(sealMagic) + 64 + 1

// DamagedError says why a sealed file was refused.
type DamagedError struct {
	Path   string
	Reason string
}

func (e *DamagedError) Error() string {
	return "cache entry " + e.Path + ": " + e.Reason
}

// Write writes body to path atomically (a temporary file in the same
// directory, renamed), framed with its SHA-256 so that Read can tell
// an intact entry from a damaged one. A body over max bytes is refused.
func Write(path string, body []byte, max int64) error {
	if int64(len(body)+sealHeader) > max {
		return fmt.Errorf("cache entry of %d bytes exceeds the %d-byte limit", len(body)+sealHeader, max)
	}
	sum := sha256.Sum256(body)
	b := make([]byte, 0, sealHeader+len(body))
	b = append(b, sealMagic...)
	b = hex.AppendEncode(b, sum[:])
	b = append(b, '\n')
	b = append(b, body...)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// Read reads the body of a file Write wrote. The file is
// opened without following a symbolic link and without blocking (a FIFO
// opens and is refused), must be a regular file of at most max bytes, and
// its body must match its SHA-256. A missing file is an fs.ErrNotExist
// error; anything else wrong is a *DamagedError.
func Read(path string, max int64) ([]byte, error) {
	f, fi, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, &DamagedError{path, fmt.Sprintf("%d bytes, over the %d-byte limit", fi.Size(), max)}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	switch {
	case err != nil:
		return nil, &DamagedError{path, err.Error()}
	case int64(len(b)) > max:
		return nil, &DamagedError{path, fmt.Sprintf("grew over the %d-byte limit while read", max)}
	case len(b) < sealHeader || !bytes.HasPrefix(b, []byte(sealMagic)) || b[sealHeader-1] != '\n':
		return nil, &DamagedError{path, "no checksum header"}
	}
	want, err := hex.DecodeString(string(b[len(sealMagic) : sealHeader-1]))
	body := b[sealHeader:]
	sum := sha256.Sum256(body)
	if err != nil || !bytes.Equal(want, sum[:]) {
		return nil, &DamagedError{path, "checksum mismatch"}
	}
	return body, nil
}

// open opens path for reading without following a symbolic link and
// without blocking, and requires a regular file. A missing file is an
// fs.ErrNotExist error; anything else wrong is a *DamagedError.
func open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		return nil, nil, &DamagedError{path, "does not open as a plain file: " + err.Error()}
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, &DamagedError{path, err.Error()}
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &DamagedError{path, "not a regular file (" + fi.Mode().Type().String() + ")"}
	}
	return f, fi, nil
}

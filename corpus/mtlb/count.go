package mtlb

import (
	"io"
	"os"
)

// DeclaredFunctions reads only the header of the library file at path and
// the function count its function list declares, without parsing the
// library: progress displays use it as the number of modules the file will
// yield before it is read. ok is false when the file does not start with a
// plausible library header (then nothing is known about it).
func DeclaredFunctions(path string) (n int, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return declaredFunctions(f, fi.Size())
}

// declaredFunctions is DeclaredFunctions over a reader of size bytes.
func declaredFunctions(r io.ReaderAt, size int64) (int, bool) {
	var h [HeaderSize]byte
	if size < HeaderSize {
		return 0, false
	}
	if _, err := r.ReadAt(h[:], 0); err != nil || string(h[:4]) != Magic {
		return 0, false
	}
	at := le.Uint64(h[24:])
	list := le.Uint64(h[32:])
	if at < HeaderSize || at > uint64(size)-4 {
		return 0, false
	}
	var c [4]byte
	if _, err := r.ReadAt(c[:], int64(at)); err != nil {
		return 0, false
	}
	count := uint64(le.Uint32(c[:]))
	if count*8 > list {
		return 0, false // each function needs at least a group header
	}
	return int(count), true
}

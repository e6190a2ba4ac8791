package corpus

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"syscall"

	"github.com/airpipe/airpipe/corpus/scan"
)

// TooLargeError is a file over the size limit of ReadCapped or ScanFile.
type TooLargeError struct{ Size, Max int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is %d bytes, more than the limit of %d (--max-file-size)", e.Size, e.Max)
}

// ChangedError is a file that changed while it was read; What says how.
type ChangedError struct{ What string }

func (e *ChangedError) Error() string {
	return "the file changed while it was read (" + e.What + "); run again once it is stable"
}

// OpenRegular opens path for reading without blocking (a FIFO swapped in
// after the walk opens at once) and refuses anything but a regular file.
func OpenRegular(path string) (*os.File, os.FileInfo, error) {
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

// openCapped opens the regular file at path (OpenRegular), refusing one
// over max bytes (*TooLargeError).
func openCapped(path string, max int64) (*os.File, os.FileInfo, error) {
	f, st, err := OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	if st.Size() > max {
		f.Close()
		return nil, nil, &TooLargeError{st.Size(), max}
	}
	return f, st, nil
}

// ReadCapped reads a whole regular file, refusing one over max bytes
// before allocating for it (*TooLargeError) and one whose size or
// modification time changed while it was read (*ChangedError). opened,
// when not nil, is called once the file is open.
func ReadCapped(path string, max int64, opened func()) ([]byte, error) {
	f, st, err := openCapped(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if opened != nil {
		opened()
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{int64(len(data)), max}
	}
	if int64(len(data)) != st.Size() {
		return nil, &ChangedError{fmt.Sprintf("%d bytes read, %d when opened", len(data), st.Size())}
	}
	if now, err := f.Stat(); err != nil || now.Size() != st.Size() || !now.ModTime().Equal(st.ModTime()) {
		return nil, &ChangedError{"size or modification time differ after the read"}
	}
	return data, nil
}

// StartsWith reports whether the regular file at path starts with magic.
func StartsWith(path, magic string) (bool, error) {
	f, _, err := OpenRegular(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	b := make([]byte, len(magic))
	n, err := io.ReadFull(f, b)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return n == len(magic) && string(b) == magic, nil
}

// FileBlob is a blob scan.Find found in a file, with its bytes copied out.
type FileBlob struct {
	scan.Blob
	Data []byte
}

// ScanFile maps the regular file at path (at most max bytes, else
// *TooLargeError) and returns the blobs scan.Find finds in it, each copied
// out of the mapping; a file under 24 bytes or without blobs has none. The
// mapping is guarded: a file that shrinks under it faults on the pages past
// its new end, which is caught and returned as a *ChangedError instead of
// killing the process (SIGBUS); so is a file whose size or modification
// time differ once scanned. mapped, when not nil, is called once the file
// is mapped.
func ScanFile(path string, max int64, mapped func()) ([]FileBlob, error) {
	f, st, err := openCapped(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() < 24 {
		return nil, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	defer syscall.Munmap(data)
	if mapped != nil {
		mapped()
	}
	blobs, fault := copyBlobs(data)
	if fault != "" {
		return nil, &ChangedError{fault}
	}
	if now, err := f.Stat(); err != nil || now.Size() != st.Size() || !now.ModTime().Equal(st.ModTime()) {
		return nil, &ChangedError{"size or modification time differ after the scan"}
	}
	return blobs, nil
}

// copyBlobs finds the blobs of a mapped file and copies them out. A memory
// fault while reading the mapping (the file shrank) is recovered and
// reported as fault; other panics go on.
func copyBlobs(data []byte) (blobs []FileBlob, fault string) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(interface{ Addr() uintptr }); ok {
				blobs, fault = nil, fmt.Sprintf("memory fault reading the mapping at %#x: it shrank", f.Addr())
				return
			}
			panic(r)
		}
	}()
	for _, b := range scan.Find(data).Blobs {
		blobs = append(blobs, FileBlob{Blob: b, Data: bytes.Clone(data[b.Offset : b.Offset+b.Size])})
	}
	return blobs, ""
}

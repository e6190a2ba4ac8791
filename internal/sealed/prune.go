package sealed

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Pruned counts what Prune kept and removed (or, in a dry run, would
// remove): entries and their bytes, and temporary files left by writers.
type Pruned struct {
	Kept, Removed           int
	KeptBytes, RemovedBytes int64
	// Temporary counts the abandoned temporary files removed; their bytes
	// are in RemovedBytes.
	Temporary int
}

// abandoned is how old a writer's temporary file must be before Prune takes
// it for abandoned (its writer killed between writing and renaming it).
const abandoned = 24 * time.Hour

// Prune removes from a cache directory the entries that keep rejects. The
// entries are the files Write wrote under names of 64 hexadecimal digits
// and ".json", in dir itself and in its subdirectories named by two
// hexadecimal digits; keep is given each one's path. Write's temporary
// files (".tmp-*") older than a day are removed too. Nothing else is
// touched: no other file or directory, and no symbolic link is followed. A
// missing dir has nothing to prune. With dryRun nothing is removed and the
// counts say what would be.
func Prune(dir string, keep func(path string) bool, dryRun bool) (Pruned, error) {
	var p Pruned
	if err := p.prune(dir, keep, dryRun, true); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return p, err
	}
	return p, nil
}

// prune prunes one directory, and with nested its two-hex-digit
// subdirectories.
func (p *Pruned) prune(dir string, keep func(string) bool, dryRun, nested bool) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		path := filepath.Join(dir, e.Name())
		switch {
		case e.Type().IsDir() && nested && len(e.Name()) == 2 && isHex(e.Name()):
			if err := p.prune(path, keep, dryRun, false); err != nil {
				return err
			}
		case !e.Type().IsRegular():
		case strings.HasPrefix(e.Name(), ".tmp-"):
			info, err := e.Info()
			if err != nil || time.Since(info.ModTime()) < abandoned {
				continue
			}
			if err := remove(path, dryRun); err != nil {
				return err
			}
			p.Temporary++
			p.RemovedBytes += info.Size()
		case isEntryName(e.Name()):
			info, err := e.Info()
			if err != nil {
				continue
			}
			if keep(path) {
				p.Kept++
				p.KeptBytes += info.Size()
				continue
			}
			if err := remove(path, dryRun); err != nil {
				return err
			}
			p.Removed++
			p.RemovedBytes += info.Size()
		}
	}
	return nil
}

// remove removes path unless dryRun; one already gone is not an error.
func remove(path string, dryRun bool) error {
	if dryRun {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// isEntryName reports whether name is an entry's: 64 hexadecimal digits
// and ".json".
func isEntryName(name string) bool {
	base, ok := strings.CutSuffix(name, ".json")
	return ok && len(base) == 64 && isHex(base)
}

// isHex reports whether s is lower-case hexadecimal digits.
func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// Head returns up to n bytes of the body of a file Write wrote, opened as
// Read opens it, without reading the rest or checking the checksum: enough
// to tell whose entry it is (Prune's keep) without reading a large one
// whole. A file without Write's header is a *DamagedError.
func Head(path string, n int) ([]byte, error) {
	f, _, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	header := make([]byte, sealHeader)
	if _, err := io.ReadFull(r, header); err != nil || !bytes.HasPrefix(header, []byte(sealMagic)) || header[sealHeader-1] != '\n' {
		return nil, &DamagedError{path, "no checksum header"}
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if err != nil {
		return nil, &DamagedError{path, fmt.Sprintf("reading: %v", err)}
	}
	return b, nil
}

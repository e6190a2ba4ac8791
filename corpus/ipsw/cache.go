package ipsw

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/airpipe/airpipe/internal/buildkey"
)

// cache is the content-addressed store under a cache directory:
//
//	objects/<sha256[:2]>/<sha256>   extracted files, by content, read-only
//	images/<key>.json               per image: its files and problems
//	tmp/                            work space, removed after each image
//
// An image's key hashes the SHA-256 of the image's bytes (computed while
// inflating them, never taken from the zip's CRC-32 or sizes, which a
// crafted or colliding entry can forge), FilterVersion and
// Options.AllFiles, so an unchanged image is never extracted twice and two
// images share an index only when their bytes are the same. Names read
// from an index are checked as SHA-256 hex before any path is built from
// them, and every object is checked against its name's hash before use.
type cache struct {
	dir string
}

func newCache(dir string) (*cache, error) {
	for _, d := range []string{"objects", "images", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("cache directory: %w", err)
		}
	}
	return &cache{dir: dir}, nil
}

// imageKey names an image's index from the SHA-256 of its bytes (all:
// Options.AllFiles) and airpipe's build (buildkey.Key): another build may
// list and filter an image otherwise, so it never reuses this one's index.
func imageKey(content string, all bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "airpipe-ipsw-image\x00%d\x00%s\x00%t\x00%s", FilterVersion, content, all, buildkey.Key())
	return hex.EncodeToString(h.Sum(nil))
}

// validSum reports whether s is a SHA-256 in lower-case hex, the only
// form of object name the cache writes.
func validSum(s string) bool {
	if len(s) != sha256.Size*2 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// index is the stored result of one image.
type index struct {
	Image    string       `json:"image"`
	Format   []string     `json:"format"`
	Files    []indexEntry `json:"files"`
	Links    []Link       `json:"links,omitempty"`
	Problems []Problem    `json:"problems,omitempty"`
}

type indexEntry struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

func (c *cache) indexPath(key string) string { return filepath.Join(c.dir, "images", key+".json") }

func (c *cache) objectPath(sum string) string { return filepath.Join(c.dir, "objects", sum[:2], sum) }

// maxIndex caps the bytes of one stored index read.
const maxIndex = 256 << 20

// load returns a stored index whose every object is present and holds the
// bytes its name hashes. An index naming an object by anything but
// SHA-256 hex, or a path inside the image that is unsafe, and an object
// that is missing, not a regular file, of another size or of another
// content, make the whole index a miss (the image is extracted again and
// the object replaced); checked digests are remembered for this Open.
func (c *cache) load(key string, verified map[string]bool) (*index, bool) {
	b, err := readRegular(c.indexPath(key), maxIndex)
	if err != nil {
		return nil, false
	}
	var ix index
	if json.Unmarshal(b, &ix) != nil {
		return nil, false
	}
	for _, e := range ix.Files {
		if !validSum(e.SHA256) || e.Size < 0 || unsafeName(e.Path) != "" {
			return nil, false
		}
		if verified[e.SHA256] {
			continue
		}
		if sum, n, err := c.hashObject(e.SHA256); err != nil || sum != e.SHA256 || n != e.Size {
			return nil, false
		}
		verified[e.SHA256] = true
	}
	return &ix, true
}

// hashObject hashes the stored object named sum, opened without following
// a link or blocking; its folder must be a real folder of the cache.
func (c *cache) hashObject(sum string) (string, int64, error) {
	if st, err := os.Lstat(filepath.Dir(c.objectPath(sum))); err != nil || !st.IsDir() {
		return "", 0, fmt.Errorf("object folder of %s is not a folder", sum)
	}
	f, err := openRegular(c.objectPath(sum))
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// openRegular opens p read-only without following a final symbolic link
// or blocking on a FIFO, and refuses anything but a regular file.
func openRegular(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is a %s, not a regular file", p, st.Mode().Type())
	}
	return f, nil
}

// readRegular reads a regular file of at most max bytes.
func readRegular(p string, max int64) ([]byte, error) {
	f, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: over %d bytes", p, max)
	}
	return b, nil
}

// store writes an index atomically.
func (c *cache) store(key string, ix *index) error {
	b, err := json.MarshalIndent(ix, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Join(c.dir, "tmp"), "index-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), c.indexPath(key))
}

// adopt hashes the file at p and moves it into the object store, returning
// its digest. It replaces whatever is stored under that name (the same
// bytes when the store is sound; a damaged object otherwise).
func (c *cache) adopt(p string) (string, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", 0, err
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	f.Close()
	if err != nil {
		return "", 0, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	dst := c.objectPath(sum)
	if got, m, err := c.hashObject(sum); err == nil && got == sum && m == n {
		return sum, n, os.Remove(p)
	}
	if st, err := os.Lstat(filepath.Dir(dst)); err == nil && !st.IsDir() {
		// A link or file in place of an object folder is not followed.
		if err := os.Remove(filepath.Dir(dst)); err != nil {
			return "", 0, err
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", 0, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", 0, err
	}
	if err := os.Chmod(p, 0o444); err != nil {
		return "", 0, err
	}
	return sum, n, os.Rename(p, dst)
}

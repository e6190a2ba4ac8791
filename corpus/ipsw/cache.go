package ipsw

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// cache is the content-addressed store under a cache directory:
//
//	objects/<sha256[:2]>/<sha256>   extracted files, by content, read-only
//	images/<key>.json               per image: its files and problems
//	tmp/                            work space, removed after each image
//
// An image's key hashes its zip entry name, CRC-32, sizes and
// FilterVersion (and Options.AllFiles), so an unchanged image is never extracted twice.
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

// imageKey names an image's index (all: Options.AllFiles).
func imageKey(f *zip.File, all bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "airpipe-ipsw-image\x00%d\x00%s\x00%08x\x00%d\x00%d\x00%t", FilterVersion, f.Name, f.CRC32, f.UncompressedSize64, f.CompressedSize64, all)
	return hex.EncodeToString(h.Sum(nil))
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

// load returns a stored index whose every object is present.
func (c *cache) load(key string) (*index, bool) {
	b, err := os.ReadFile(c.indexPath(key))
	if err != nil {
		return nil, false
	}
	var ix index
	if json.Unmarshal(b, &ix) != nil {
		return nil, false
	}
	for _, e := range ix.Files {
		if len(e.SHA256) != 64 {
			return nil, false
		}
		if st, err := os.Stat(c.objectPath(e.SHA256)); err != nil || st.Size() != e.Size {
			return nil, false
		}
	}
	return &ix, true
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
// its digest. A file already stored is dropped.
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
	if _, err := os.Stat(dst); err == nil {
		return sum, n, os.Remove(p)
	} else if !errors.Is(err, fs.ErrNotExist) {
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

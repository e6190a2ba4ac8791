package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Cache keeps the shared stages' results across runs. Keys already include
// every stage's name and version and the engine's salt (tool fingerprints,
// options), so a hit is always safe to reuse.
type Cache interface {
	// Get returns the results stored for key.
	Get(key string) ([]Result, bool)
	// Put stores results for key. An error is reported, never fatal.
	Put(key string, results []Result) error
}

// cacheable reports whether results may be reused by a later run: outcomes
// that depend on the moment (a timeout, a crash, a cancelled run) and the
// user's exclusions are recomputed every time. An unavailable tool or
// device is cached: the salt holds the tools' and devices' versions (and
// "absent"), so installing one changes every key.
func cacheable(results []Result) bool {
	for _, r := range results {
		switch {
		case r.Code == CodeTimeout, r.Code == CodeCrash, r.Code == CodeCancelled:
			return false
		case r.Status == Skipped:
			return false
		}
	}
	return true
}

// stageSignatures names, for each stage i, the shared stages up to and
// including i (names and versions, in order) and the salt: a stage's cached
// result is valid only while it and every shared stage before it are
// unchanged. Per-occurrence stages have no signature.
func stageSignatures[T any](stages []Stage[T], salt string) []string {
	sigs := make([]string, len(stages))
	var b strings.Builder
	b.WriteString(salt)
	for i, s := range stages {
		if s.PerOccurrence {
			continue
		}
		fmt.Fprintf(&b, ";%s@%s", s.Name, s.Version)
		sum := sha256.Sum256([]byte(b.String()))
		sigs[i] = hex.EncodeToString(sum[:8])
	}
	return sigs
}

// DirCache is a Cache in a directory: one small JSON file per key, spread
// over 256 subdirectories, each written atomically. Several processes may
// share one directory.
type DirCache struct {
	dir string
}

// OpenDirCache opens (creating) a cache directory.
func OpenDirCache(dir string) (*DirCache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &DirCache{dir: dir}, nil
}

// DefaultCacheDir is airpipe's cache under the user cache directory.
func DefaultCacheDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "airpipe", "stages")
}

func (c *DirCache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])
	return filepath.Join(c.dir, h[:2], h+".json")
}

// cacheEntry is one stored entry; Key guards against hash collisions and
// hand-edited files.
type cacheEntry struct {
	Key     string   `json:"key"`
	Results []Result `json:"results"`
}

// Get implements Cache. A missing, unreadable or damaged entry is a miss.
func (c *DirCache) Get(key string) ([]Result, bool) {
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false
	}
	var e cacheEntry
	if json.Unmarshal(b, &e) != nil || e.Key != key {
		return nil, false
	}
	return e.Results, true
}

// Put implements Cache.
func (c *DirCache) Put(key string, results []Result) error {
	b, err := json.Marshal(cacheEntry{Key: key, Results: results})
	if err != nil {
		return err
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// Len counts the entries (for tests and reports).
func (c *DirCache) Len() (int, error) {
	n := 0
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") {
			n++
		}
		return nil
	})
	return n, err
}

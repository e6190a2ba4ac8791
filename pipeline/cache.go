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
	"sync/atomic"

	"github.com/airpipe/airpipe/internal/buildkey"
	"github.com/airpipe/airpipe/internal/sealed"
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

// DirCache is a Cache in a directory: one small sealed file per key (see
// WriteSealed), spread over 256 subdirectories, each written atomically.
// Several processes may share one directory. Keys are taken together with
// the build (buildkey.Key): a rebuilt airpipe never reads another build's
// entries. An entry that is not exactly what this build wrote (damaged,
// truncated, too large, a link, a FIFO, a device) is a miss, counted in
// Damaged, never a result.
type DirCache struct {
	dir   string
	build string
	// damaged counts entries refused by Get.
	damaged atomic.Int64
}

// OpenDirCache opens (creating) a cache directory.
func OpenDirCache(dir string) (*DirCache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &DirCache{dir: dir, build: buildkey.Key()}, nil
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
	sum := sha256.Sum256([]byte(c.build + "\x00" + key))
	h := hex.EncodeToString(sum[:])
	return filepath.Join(c.dir, h[:2], h+".json")
}

// cacheEntry is one stored entry; Build and Key guard against hash
// collisions and hand-edited files.
type cacheEntry struct {
	Build   string   `json:"build"`
	Key     string   `json:"key"`
	Results []Result `json:"results"`
}

// MaxCacheEntry is the largest cache entry read or written: a stage result
// is a few kilobytes; anything larger is not an entry this cache wrote.
const MaxCacheEntry = 1 << 20

// Damaged is how many entries Get refused as damaged (a miss each).
func (c *DirCache) Damaged() int64 { return c.damaged.Load() }

// Get implements Cache. A missing entry is a miss; a damaged one is a miss
// counted in Damaged.
func (c *DirCache) Get(key string) ([]Result, bool) {
	p := c.path(key)
	// The subdirectory must be this cache's own, not a link elsewhere.
	if fi, err := os.Lstat(filepath.Dir(p)); err != nil || !fi.IsDir() {
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			c.damaged.Add(1)
		}
		return nil, false
	}
	b, err := ReadSealed(p, MaxCacheEntry)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.damaged.Add(1)
		}
		return nil, false
	}
	var e cacheEntry
	if json.Unmarshal(b, &e) != nil || e.Key != key || e.Build != c.build || !validResults(e.Results) {
		c.damaged.Add(1)
		return nil, false
	}
	return e.Results, true
}

// validResults reports whether every result has one of the six statuses.
func validResults(rs []Result) bool {
	if len(rs) == 0 {
		return false
	}
	for _, r := range rs {
		switch r.Status {
		case Passed, Failed, Unjudged, Unavailable, NotRun, Skipped:
		default:
			return false
		}
	}
	return true
}

// Prune removes the entries no run of this build reads: those another
// build wrote and those that do not read back (sealed.Prune; dryRun: only
// counted).
func (c *DirCache) Prune(dryRun bool) (sealed.Pruned, error) {
	return sealed.Prune(c.dir, func(path string) bool {
		b, err := ReadSealed(path, MaxCacheEntry)
		var e cacheEntry
		return err == nil && json.Unmarshal(b, &e) == nil && e.Build == c.build
	}, dryRun)
}

// Put implements Cache.
func (c *DirCache) Put(key string, results []Result) error {
	b, err := json.Marshal(cacheEntry{Build: c.build, Key: key, Results: results})
	if err != nil {
		return err
	}
	return WriteSealed(c.path(key), b, MaxCacheEntry)
}

// DamagedEntryError says why a sealed file was refused (internal/sealed).
type DamagedEntryError = sealed.DamagedError

// WriteSealed writes body to path atomically, framed with its SHA-256
// (sealed.Write). A body over max bytes is refused.
func WriteSealed(path string, body []byte, max int64) error { return sealed.Write(path, body, max) }

// ReadSealed reads the body of a file WriteSealed wrote (sealed.Read): a
// missing file is an fs.ErrNotExist error; anything else wrong is a
// *DamagedEntryError.
func ReadSealed(path string, max int64) ([]byte, error) { return sealed.Read(path, max) }

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

// Package refcache stores CPU references (compiler/cpuref) in a directory,
// so that references computed where LLVM is installed let a GPU host
// without it judge: one sealed file (internal/sealed) per key, holding the
// result or the reason the reference cannot judge the kernel. A reference
// whose verdict does not depend on the SIMD-group width is stored under the
// key without the width, so that one computed at lavapipe's width serves a
// GPU of another.
package refcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"sync/atomic"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/internal/sealed"
)

// MaxEntry is the largest reference cache entry read or written.
const MaxEntry = 256 << 20

// entry is one stored CPU reference: the result, or the reason the
// reference cannot judge the kernel.
type entry struct {
	Key          string                    `json:"key"`
	Result       *cpuref.Result            `json:"result,omitempty"`
	NotJudgeable *cpuref.NotJudgeableError `json:"not_judgeable,omitempty"`
}

// simd reports whether the entry's verdict depends on the SIMD-group width.
func (ent entry) simd() bool {
	return (ent.Result != nil && ent.Result.SIMDWidth > 0) || (ent.NotJudgeable != nil && ent.NotJudgeable.SIMD)
}

// answer is the stored reference, or the stored reason it cannot judge.
func (ent entry) answer() (*cpuref.Result, error) {
	if ent.NotJudgeable != nil {
		return nil, ent.NotJudgeable
	}
	return ent.Result, nil
}

// Dir is a reference cache: the directory its entries are in.
type Dir string

// path is where key's reference is stored.
func (d Dir) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(string(d), hex.EncodeToString(sum[:])+".json")
}

// Get returns the stored reference of a kernel, or the stored reason it
// cannot be judged (err), and whether one was stored: the entry under base
// (the key without the SIMD-group width) when its verdict does not depend
// on the width, else the entry under key.
func (d Dir) Get(key, base string) (res *cpuref.Result, hit bool, err error) {
	if ent, ok := read(d.path(base), base); ok && !ent.simd() {
		res, err = ent.answer()
		return res, true, err
	}
	if ent, ok := read(d.path(key), key); ok {
		res, err = ent.answer()
		return res, true, err
	}
	return nil, false, nil
}

// Put stores a computed reference (res) or the reason the reference cannot
// judge the kernel (err, a *cpuref.NotJudgeableError): under base when the
// verdict does not depend on the SIMD-group width, else under key. Any
// other error is not stored; nor is an entry that cannot be written (the
// reference is computed again next time).
func (d Dir) Put(key, base string, res *cpuref.Result, err error) {
	ent := entry{Key: key, Result: res}
	if nj, ok := err.(*cpuref.NotJudgeableError); ok {
		ent.Result, ent.NotJudgeable = nil, nj
	} else if err != nil {
		return
	}
	path := d.path(key)
	if !ent.simd() {
		ent.Key, path = base, d.path(base)
	}
	if b, jerr := json.Marshal(ent); jerr == nil {
		_ = sealed.Write(path, b, MaxEntry)
	}
}

// keyHead is how much of an entry Prune reads to find its key, which comes
// first in it.
const keyHead = 64 << 10

// Prune removes the entries whose key keep rejects — and those whose key
// cannot be read — without reading any entry whole (sealed.Prune; dryRun:
// only counted).
func (d Dir) Prune(keep func(key string) bool, dryRun bool) (sealed.Pruned, error) {
	return sealed.Prune(string(d), func(path string) bool {
		head, err := sealed.Head(path, keyHead)
		if err != nil {
			return false
		}
		key, ok := leadingKey(head)
		return ok && keep(key)
	}, dryRun)
}

// leadingKey is the key at the start of an entry's JSON (json.Marshal
// writes entry's fields in order, Key first).
func leadingKey(head []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(head))
	var toks [3]json.Token
	for i := range toks {
		t, err := dec.Token()
		if err != nil {
			return "", false
		}
		toks[i] = t
	}
	key, ok := toks[2].(string)
	return key, ok && toks[0] == json.Delim('{') && toks[1] == "key"
}

// refused counts entries refused as damaged.
var refused atomic.Int64

// Refused is how many reference cache entries this process refused as
// damaged (each recomputed, never trusted).
func Refused() int64 { return refused.Load() }

// read reads the stored reference for key. A missing entry is a miss; one
// that is not exactly what this build stored (see sealed.Read: a link, a
// FIFO, oversized, a checksum mismatch; another key; neither a result nor
// a reason) is a counted miss.
func read(path, key string) (entry, bool) {
	b, err := sealed.Read(path, MaxEntry)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			refused.Add(1)
		}
		return entry{}, false
	}
	var ent entry
	if json.Unmarshal(b, &ent) != nil || ent.Key != key || (ent.Result == nil) == (ent.NotJudgeable == nil) {
		refused.Add(1)
		return entry{}, false
	}
	return ent, true
}

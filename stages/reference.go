package stages

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync/atomic"

	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/libwrap"
	"github.com/airpipe/airpipe/internal/buildkey"
	"github.com/airpipe/airpipe/pipeline"
)

// referenceEntry is one stored CPU reference: the result, or the reason
// the reference cannot judge the kernel.
type referenceEntry struct {
	Key          string                    `json:"key"`
	Result       *cpuref.Result            `json:"result,omitempty"`
	NotJudgeable *cpuref.NotJudgeableError `json:"not_judgeable,omitempty"`
}

// reference computes the CPU reference of a module's kernel, or takes it
// from the reference cache: references computed where LLVM is installed
// let a GPU host without it judge the device stage. A reference that
// cannot be computed and is not stored is the reference's error.
func (e *emulator) reference(ctx context.Context, m *Module) (*cpuref.Result, error) {
	return e.referenceWith(ctx, m, false)
}

// referenceWith is reference, built with fused multiply-adds when fuse is set.
func (e *emulator) referenceWith(ctx context.Context, m *Module, fuse bool) (*cpuref.Result, error) {
	opts := cpuref.Options{BufferSize: e.opts.BufferSize, Timeout: e.opts.Timeout, FuseMulAdd: fuse, SIMDWidth: e.simdWidth()}
	if m.Translation.Reflection.Stage == "kernel" {
		// Fragment functions are drawn over 4×4 pixels and vertex functions
		// run for one triangle whatever the kernels' grid.
		opts.Grid = e.opts.Grid
	}
	// A reference that does not depend on the SIMD-group width is stored
	// under the key without it (so references computed at lavapipe's width
	// serve a GPU of another), one that does under the key with it.
	key := referenceKey(m, opts)
	wide := opts
	wide.SIMDWidth = 0
	baseKey := referenceKey(m, wide)
	path := ""
	if e.opts.ReferenceCache != "" {
		path = referencePath(e.opts.ReferenceCache, baseKey)
		if ent, ok := readReference(path, baseKey); ok && !ent.simd() {
			return ent.answer()
		}
		path = referencePath(e.opts.ReferenceCache, key)
		if ent, ok := readReference(path, key); ok {
			return ent.answer()
		}
	}
	var res *cpuref.Result
	var err error
	if m.Wrapped != nil {
		// A library function runs through the same wrapper the SPIR-V was
		// translated from.
		var ll bytes.Buffer
		if err = bitcode.WriteLL(&ll, m.Wrapped.Module); err != nil {
			return nil, err
		}
		res, err = cpuref.RunText(ctx, ll.String(), m.Translation.Entry, opts)
	} else {
		res, err = cpuref.Run(ctx, m.Bitcode, m.Translation.Entry, opts)
	}
	if path == "" {
		return res, err
	}
	ent := referenceEntry{Key: key, Result: res}
	if nj, ok := err.(*cpuref.NotJudgeableError); ok {
		ent.Result, ent.NotJudgeable = nil, nj
	} else if err != nil {
		return res, err
	}
	if !ent.simd() {
		ent.Key, path = baseKey, referencePath(e.opts.ReferenceCache, baseKey)
	}
	if b, jerr := json.Marshal(ent); jerr == nil {
		_ = pipeline.WriteSealed(path, b, MaxReferenceEntry)
	}
	return res, err
}

// simd reports whether the entry's verdict depends on the SIMD-group width.
func (ent referenceEntry) simd() bool {
	return (ent.Result != nil && ent.Result.SIMDWidth > 0) || (ent.NotJudgeable != nil && ent.NotJudgeable.SIMD)
}

// answer is the stored reference, or the stored reason it cannot judge.
func (ent referenceEntry) answer() (*cpuref.Result, error) {
	if ent.NotJudgeable != nil {
		return nil, ent.NotJudgeable
	}
	return ent.Result, nil
}

// referenceKey names a stored reference: the module, its entry, the
// dispatch, the SIMD-group width (referenceWith: only for a verdict that
// depends on it), the emulator's version and the build that computes it
// (buildkey.Key), so a rebuilt airpipe never takes another build's
// references.
func referenceKey(m *Module, opts cpuref.Options) string {
	entry := m.Translation.Entry
	if m.Wrapped != nil {
		// Every library function of a module has the same wrapper entry.
		entry += "|library=" + m.Wrapped.Function.Name + "|abi=" + libwrap.ABIVersion
	}
	return fmt.Sprintf("%s|%s|%v|%d|%s|fused=%v|simd=%d|build=%s", m.SHA256, entry, opts.Grid, opts.BufferSize, emulatorVersion, opts.FuseMulAdd, opts.SIMDWidth, buildkey.Key())
}

// referencePath is where key's reference is stored in dir.
func referencePath(dir, key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(dir, hex.EncodeToString(sum[:])+".json")
}

// MaxReferenceEntry is the largest reference cache entry read or written.
const MaxReferenceEntry = 256 << 20

// referencesRefused counts reference cache entries refused as damaged.
var referencesRefused atomic.Int64

// ReferenceCacheRefused is how many reference cache entries this process
// refused as damaged (each recomputed, never trusted).
func ReferenceCacheRefused() int64 { return referencesRefused.Load() }

// readReference reads the stored reference for key. A missing entry is a
// miss; one that is not exactly what this build stored (see
// pipeline.ReadSealed: a link, a FIFO, oversized, a checksum mismatch;
// another key; neither a result nor a reason) is a counted miss.
func readReference(path, key string) (referenceEntry, bool) {
	b, err := pipeline.ReadSealed(path, MaxReferenceEntry)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			referencesRefused.Add(1)
		}
		return referenceEntry{}, false
	}
	var ent referenceEntry
	if json.Unmarshal(b, &ent) != nil || ent.Key != key || (ent.Result == nil) == (ent.NotJudgeable == nil) {
		referencesRefused.Add(1)
		return referenceEntry{}, false
	}
	return ent, true
}

package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/airpipe/airpipe/compiler/cpuref"
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
	opts := cpuref.Options{BufferSize: e.opts.BufferSize, Timeout: e.opts.Timeout, FuseMulAdd: fuse}
	if m.Translation.Reflection.Stage == "kernel" {
		// Fragment functions are drawn over 4×4 pixels and vertex functions
		// run for one triangle whatever the kernels' grid.
		opts.Grid = e.opts.Grid
	}
	key := fmt.Sprintf("%s|%s|%v|%d|%s|fused=%v", m.SHA256, m.Translation.Entry, opts.Grid, opts.BufferSize, emulatorVersion, fuse)
	path := ""
	if e.opts.ReferenceCache != "" {
		sum := sha256.Sum256([]byte(key))
		path = filepath.Join(e.opts.ReferenceCache, hex.EncodeToString(sum[:])+".json")
		if b, err := os.ReadFile(path); err == nil {
			var ent referenceEntry
			if json.Unmarshal(b, &ent) == nil && ent.Key == key {
				if ent.NotJudgeable != nil {
					return nil, ent.NotJudgeable
				}
				if ent.Result != nil {
					return ent.Result, nil
				}
			}
		}
	}
	res, err := cpuref.Run(ctx, m.Bitcode, m.Translation.Entry, opts)
	if path == "" {
		return res, err
	}
	ent := referenceEntry{Key: key, Result: res}
	if nj, ok := err.(*cpuref.NotJudgeableError); ok {
		ent.Result, ent.NotJudgeable = nil, nj
	} else if err != nil {
		return res, err
	}
	if b, jerr := json.Marshal(ent); jerr == nil {
		if os.MkdirAll(e.opts.ReferenceCache, 0o755) == nil {
			tmp := path + fmt.Sprintf(".tmp-%d", os.Getpid())
			if os.WriteFile(tmp, b, 0o644) == nil {
				_ = os.Rename(tmp, path)
			}
		}
	}
	return res, err
}

package stages

import (
	"bytes"
	"context"
	"fmt"

	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/cpuref/refcache"
	"github.com/airpipe/airpipe/compiler/libwrap"
	"github.com/airpipe/airpipe/internal/buildkey"
)

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
	cache := refcache.Dir(e.opts.ReferenceCache)
	if cache != "" {
		if res, hit, err := cache.Get(key, baseKey); hit {
			return res, err
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
	if cache != "" {
		cache.Put(key, baseKey, res, err)
	}
	return res, err
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

// ReferenceCacheRefused is how many reference cache entries this process
// refused as damaged (each recomputed, never trusted).
func ReferenceCacheRefused() int64 { return refcache.Refused() }

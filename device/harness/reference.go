package harness

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/bitcode"
	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/cpuref/refcache"
	"github.com/airpipe/airpipe/compiler/libwrap"
	"github.com/airpipe/airpipe/internal/buildkey"
)

// Module is what a reference is computed from.
type Module struct {
	// SHA256 is the hex SHA-256 of the function's bitcode, naming it in the
	// reference cache.
	SHA256  string
	Bitcode []byte
	// Entry is the entry point's name (the translation's).
	Entry string
	// Stage is the entry point's stage (translate.Reflection.Stage): only
	// a kernel runs over Options.Grid.
	Stage air.Stage
	// Wrapped, for a library function, is the module with airpipe's
	// wrapper kernel that the SPIR-V was translated from; the reference
	// runs it in Bitcode's place.
	Wrapped *libwrap.Wrapped
}

// Reference computes the CPU reference of m's entry point, or takes it from
// the reference cache: references computed where LLVM is installed let a
// GPU host without it judge. fuse builds it with fused multiply-adds. A
// reference that cannot be computed and is not stored is the reference's
// error.
func (h *Harness) Reference(ctx context.Context, m Module, fuse bool) (*cpuref.Result, error) {
	return h.ReferenceIn(ctx, m, Mode{Fuse: fuse})
}

// Mode is how a reference is built: with fused multiply-adds, with the
// denormals of a module that disables them kept, and with a kernel's
// approximate calls computed provisionally or substituted from a device's
// records on a given input family (cpuref's Options of the same names;
// stages/approxtrace).
type Mode struct {
	Fuse              bool
	PreserveDenormals bool
	Provisional       bool
	Substitution      *cpuref.Substitution
	InputFamily       string
	// From is the provisional reference a substituted one runs the
	// program of (cpuref.Substitute); when nil, or built with the other
	// Fuse, the provisional reference is taken from the cache or computed.
	From *cpuref.Result
}

// ReferenceIn is Reference, built in mode.
func (h *Harness) ReferenceIn(ctx context.Context, m Module, mode Mode) (*cpuref.Result, error) {
	opts := cpuref.Options{BufferSize: h.opts.BufferSize, Timeout: h.opts.Timeout, FuseMulAdd: mode.Fuse, PreserveDenormals: mode.PreserveDenormals, SIMDWidth: h.SIMDWidth(),
		ApproximateProvisional: mode.Provisional, Substitution: mode.Substitution, InputFamily: mode.InputFamily}
	if m.Stage == air.Kernel {
		// Fragment functions are drawn over 4×4 pixels and vertex functions
		// run for one triangle whatever the kernels' grid.
		opts.Grid = h.opts.Grid
	}
	// A reference that does not depend on the SIMD-group width is stored
	// under the key without it (so references computed at lavapipe's width
	// serve a GPU of another), one that does under the key with it.
	key := referenceKey(m, opts, h.opts.Version)
	wide := opts
	wide.SIMDWidth = 0
	baseKey := referenceKey(m, wide, h.opts.Version)
	cache := refcache.Dir(h.opts.ReferenceCache)
	if cache != "" {
		if res, hit, err := cache.Get(key, baseKey); hit {
			return res, err
		}
	}
	var res *cpuref.Result
	var err error
	switch {
	case mode.Substitution != nil:
		// The provisional run's build, run again on the device's records:
		// no LLVM tool runs, so a GPU host judges with a provisional
		// reference from the cache.
		prov := mode.From
		if prov == nil || prov.Fused != mode.Fuse {
			prov, err = h.ReferenceIn(ctx, m, Mode{Fuse: mode.Fuse, Provisional: true})
		}
		if err == nil {
			res, err = cpuref.Substitute(ctx, prov, mode.Substitution, opts)
		}
	case m.Wrapped != nil:
		// A library function runs through the same wrapper the SPIR-V was
		// translated from.
		var ll bytes.Buffer
		if err = bitcode.WriteLL(&ll, m.Wrapped.Module); err != nil {
			return nil, err
		}
		res, err = cpuref.RunText(ctx, ll.String(), m.Entry, opts)
	default:
		res, err = cpuref.Run(ctx, m.Bitcode, m.Entry, opts)
	}
	if cache != "" {
		cache.Put(key, baseKey, res, err)
	}
	return res, err
}

// OfThisBuild reports whether key, a stored reference's (referenceKey),
// names a reference this build computes and reads — the cache entries
// worth keeping (airpipe cache prune).
func OfThisBuild(key string) bool {
	_, rest, ok := strings.Cut(key, "|build=")
	build, _, _ := strings.Cut(rest, "|")
	return ok && build == buildkey.Key()
}

// referenceKey names a stored reference: the module, its entry, the
// dispatch, the SIMD-group width (Reference: only for a verdict that
// depends on it), the version of the verdicts it serves and the build that
// computes it (buildkey.Key), so a rebuilt airpipe never takes another
// build's references.
func referenceKey(m Module, opts cpuref.Options, version string) string {
	entry := m.Entry
	if m.Wrapped != nil {
		// Every library function of a module has the same wrapper entry.
		entry += "|library=" + m.Wrapped.Function.Name + "|abi=" + libwrap.ABIVersion
	}
	key := fmt.Sprintf("%s|%s|%v|%d|%s|fused=%v|simd=%d|build=%s", m.SHA256, entry, opts.Grid, opts.BufferSize, version, opts.FuseMulAdd, opts.SIMDWidth, buildkey.Key())
	switch {
	case opts.Substitution != nil:
		key += "|approximate=substituted:" + opts.Substitution.Digest
	case opts.ApproximateProvisional:
		key += "|approximate=provisional"
	}
	if opts.InputFamily != "" {
		key += "|family=" + opts.InputFamily
	}
	if opts.PreserveDenormals {
		key += "|denormals=preserved"
	}
	return key
}

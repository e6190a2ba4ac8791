// Package harness runs a judged module on a Vulkan device in the CPU
// reference's contract (compiler/cpuref): the reference decides every input
// — pattern-filled buffers, constant varyings, uniform textures, function
// constant values, samplers — and the device gets only those inputs, never
// the answers; what it leaves in the outputs is judged against the
// reference (compiler/judge), with the fused-multiply-add reference for a
// module whose AIR permits contraction.
//
// The emulator and device stages (stages) are adapters over it: Prepare
// checks the translation's interface against the reference and lays out
// the dispatch, draw or vertex capture; Harness.Run runs it, in this
// process or in a long-lived child (Serve) so that a driver crash fails only
// its module; Harness.Judge compares. Every outcome is a judge.Verdict
// (Unavailable where the device cannot run it), which the stages map to
// their results; the harness knows no engine.
package harness

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/spirv"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/internal/memo"
)

// Options configure a Harness.
type Options struct {
	// Device names the Vulkan device (any name device.Open accepts).
	Device string
	// ChildArgv, when set, runs every dispatch in a child process started
	// with it (a program that runs Serve), so that a driver crash fails
	// only its module (codes.EmulatorDriverCrash). Without it the device
	// runs in this process.
	ChildArgv []string
	// ChildEnv is added to the child's environment.
	ChildEnv []string
	// ChildMaxRSS is the children's resident-set budget: a child past it
	// after a reply is retired and the next dispatch starts a fresh one
	// (0: proc.DefaultMaxRSS).
	ChildMaxRSS uint64
	// Timeout bounds the reference's tools and run, and the child's
	// dispatch (0: 60 s).
	Timeout time.Duration
	// SIMDWidth is the SIMD-group width references are computed at (0:
	// the device's subgroup size; a device whose facts cannot be read
	// leaves it 0).
	SIMDWidth int
	// ReferenceCache, when set, is a directory keeping CPU references
	// (compiler/cpuref/refcache).
	ReferenceCache string
	// Grid is a kernel's dispatch (zero: cpuref.GridFor its dimensions).
	Grid cpuref.Grid
	// BufferSize is the size of a buffer whose size AIR does not state
	// (0: cpuref.DefaultBufferSize).
	BufferSize int64
	// Version names the verdicts the references serve (the emulator
	// stage's version): it is part of every reference's cache key.
	Version string
	// DontUnrollLoops marks every loop of the SPIR-V Run sends DontUnroll
	// (spirv.DontUnrollLoops): a request to the driver's compiler that
	// leaves what the module computes unchanged and spares lavapipe the
	// compile time of fully unrolled loops.
	DontUnrollLoops bool
	// ScratchDepth gives every draw Run sends a depth attachment tested
	// with ALWAYS (device.DrawArgs.ScratchDepth): it changes no pixel and
	// spares lavapipe a second compile of the fragment shader.
	ScratchDepth bool
	// ShareRuns lets requests identical in everything the device is given
	// (requestKey: SPIR-V, inputs, grid, interface, draw or capture) share
	// one run in this Harness's life: library variants whose bitcode differs
	// only in metadata ask for the same run. Only a run that left buffers
	// is shared; Reply.Shared marks a reply that came from an earlier one.
	// Not for a stage that reruns a request to see whether its device is
	// flaky (the device stage).
	ShareRuns bool
}

// Harness is one device's harness, shared by a stage's workers: the device
// is opened on first use (and reopened after a loss), the children started
// on first use.
type Harness struct {
	opts      Options
	mu        sync.Mutex
	dev       *device.Device
	children  *Children
	width     int
	widthOnce sync.Once
	runs      memo.Answers[Reply]
}

// New returns the harness of o.Device.
func New(o Options) *Harness { return &Harness{opts: o} }

// Device is the name of the harness's device (Options.Device).
func (h *Harness) Device() string { return h.opts.Device }

// SIMDWidth is Options.SIMDWidth, else the device's subgroup size (0 when
// its facts cannot be read), read once.
func (h *Harness) SIMDWidth() int {
	h.widthOnce.Do(func() {
		h.width = h.opts.SIMDWidth
		if h.width == 0 {
			if f, err := device.FactsOf(h.opts.Device); err == nil {
				h.width = int(f.SubgroupSize)
			}
		}
	})
	return h.width
}

// Children returns the harness's child processes (Options.ChildArgv), made
// on first use.
func (h *Harness) Children() *Children {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.children == nil {
		h.children = NewChildren(h.opts.ChildArgv, h.opts.ChildEnv, h.opts.ChildMaxRSS)
	}
	return h.children
}

// ChildTimeout is the bound of one child call (Options.Timeout, else 60 s).
func (h *Harness) ChildTimeout() time.Duration {
	if h.opts.Timeout <= 0 {
		return time.Minute
	}
	return h.opts.Timeout
}

// Open returns the shared in-process device, reopening it after a loss.
func (h *Harness) Open() (*device.Device, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.dev != nil && h.dev.Err() == nil {
		return h.dev, nil
	}
	d, err := device.Open(h.opts.Device, device.Options{})
	if err != nil {
		return nil, err
	}
	h.dev = d
	return d, nil
}

// abandon drops d after a dispatch that did not finish: its queue may still
// be running the work, so its buffers stay allocated and the next module
// opens a fresh device.
func (h *Harness) abandon(d *device.Device) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.dev == d {
		h.dev = nil
	}
}

// Run runs q: in a child when Options.ChildArgv is set, else on the shared
// device, its loops marked first under Options.DontUnrollLoops (its draw
// given a scratch depth attachment under Options.ScratchDepth), and only
// once per identical request under Options.ShareRuns. A reply without
// Buffers carries the verdict that stopped it.
func (h *Harness) Run(ctx context.Context, q Request) Reply {
	if h.opts.DontUnrollLoops {
		b, _, err := spirv.DontUnrollLoops(q.SPIRV)
		if err != nil {
			return Reply{Name: q.Name, Verdict: fail(codes.EmulatorInterfaceMismatch, "loop controls", "marking the SPIR-V's loops DontUnroll: "+err.Error())}
		}
		q.SPIRV = b
	}
	if h.opts.ScratchDepth && q.Draw != nil {
		d := *q.Draw
		d.ScratchDepth = true
		q.Draw = &d
	}
	if !h.opts.ShareRuns {
		return h.run(ctx, q)
	}
	key, err := requestKey(q)
	if err != nil {
		return h.run(ctx, q)
	}
	// Kept as the spans the device changed (onlyChanges, the bytes copied):
	// whole buffers for every distinct request of a run would be gigabytes.
	kept, reused := h.runs.Do(key, func() (Reply, bool) {
		rep := h.run(ctx, q)
		if rep.Buffers == nil {
			return rep, false
		}
		return compactReply(onlyChanges(q, rep)), true
	})
	if kept.Buffers == nil && kept.Changes == nil {
		return kept // a failure, this caller's own
	}
	rep, err := withChanges(q, kept)
	if err != nil {
		return Reply{Name: q.Name, Verdict: fail(codes.EmulatorDriverError, "shared run", err.Error())}
	}
	rep.Name, rep.Shared = q.Name, reused
	return rep
}

// compactReply is rep with every span's bytes and whole buffer copied out of
// the device's buffers they slice, so that keeping it keeps only them.
func compactReply(rep Reply) Reply {
	bufs := make(map[int][]byte, len(rep.Buffers))
	for i, b := range rep.Buffers {
		bufs[i] = bytes.Clone(b)
	}
	changes := make(map[int][]Span, len(rep.Changes))
	for i, spans := range rep.Changes {
		c := make([]Span, len(spans))
		for j, s := range spans {
			c[j] = Span{Offset: s.Offset, Bytes: bytes.Clone(s.Bytes)}
		}
		changes[i] = c
	}
	rep.Buffers, rep.Changes = bufs, changes
	return rep
}

// run is Run without sharing.
func (h *Harness) run(ctx context.Context, q Request) Reply {
	if len(h.opts.ChildArgv) > 0 {
		return h.Children().Run(ctx, q, h.ChildTimeout())
	}
	dev, err := h.Open()
	if err != nil {
		if errors.Is(err, device.ErrUnavailable) {
			return Reply{Verdict: unavailablef("%s: %v", h.opts.Device, err)}
		}
		return Reply{Verdict: fail(codes.EmulatorDriverError, "open", err.Error())}
	}
	rep := Dispatch(ctx, dev, q)
	if rep.Buffers == nil && (rep.Verdict.Code == codes.EmulatorDeviceLost || rep.Verdict.Code == codes.Timeout) {
		h.abandon(dev)
	}
	return rep
}

func fail(code codes.Code, detail, message string) judge.Verdict {
	return judge.Verdict{Status: judge.Failed, Code: code, Detail: detail, Message: message}
}

func unjudged(code codes.Code, detail, reason string) judge.Verdict {
	return judge.Verdict{Status: judge.Unjudged, Code: code, Detail: detail, Message: reason}
}

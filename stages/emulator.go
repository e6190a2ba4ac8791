package stages

import (
	"context"
	"errors"
	"github.com/airpipe/airpipe/compiler/air"
	"maps"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/cpuref/refcache"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/device/harness"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
	"github.com/airpipe/airpipe/stages/approxtrace"
)

// emulatorVersion changes whenever the emulator stage's verdicts change.
const emulatorVersion = "17"

// EmulatorOptions configure the emulator stage.
type EmulatorOptions struct {
	// Device names the Vulkan device that runs the SPIR-V (default
	// "lavapipe"; any name device.Open accepts).
	Device string
	// Grid is the dispatch (zero: cpuref.GridFor the kernel's dimensions —
	// 16 threads in a line for a kernel taking a scalar position, 4×4 as 2×2
	// threadgroups of 2×2 for a 2-D one). The workgroup size is set
	// explicitly from it.
	Grid cpuref.Grid
	// BufferSize is the size of a buffer whose size AIR does not state
	// (0: cpuref.DefaultBufferSize).
	BufferSize int64
	// Timeout bounds the reference's tools and run, and the child's
	// dispatch (0: 60 s).
	Timeout time.Duration
	// ReferenceCache, when set, is a directory keeping CPU reference
	// results by bitcode SHA-256, entry, grid and buffer size; a machine
	// without LLVM (a GPU host) judges with references computed elsewhere.
	ReferenceCache string
	// PrecomputeFused also builds the fused-multiply-add reference of
	// every module whose AIR permits contraction (into ReferenceCache), so
	// that a GPU host without LLVM can judge a fused answer.
	PrecomputeFused bool
	// ChildArgv, when set, runs every dispatch in a child process started
	// with it (a program that runs harness.Serve, e.g. {airpipe,
	// "__emulator-child"}), so that a driver crash fails only its module
	// (codes.EmulatorDriverCrash). Without it the device runs in this process.
	ChildArgv []string
	// ChildEnv is added to the child's environment.
	ChildEnv []string
	// ChildMaxRSS is the children's resident-set budget (harness.Options;
	// 0: proc.DefaultMaxRSS).
	ChildMaxRSS uint64
	// SIMDWidth is the SIMD-group width the reference runs kernels using
	// SIMD-group values or operations at (0: the device's subgroup size,
	// device.Facts.SubgroupSize; a device whose facts cannot be read leaves
	// such kernels unjudged).
	SIMDWidth int
	// LavapipeDefaults lets lavapipe compile as it does by default. Without
	// it the stage asks for a faster compile that computes the same: every
	// loop marked DontUnroll (spirv.DontUnrollLoops), every draw given a
	// depth attachment tested with ALWAYS (harness.Options.ScratchDepth:
	// one fragment shader variant instead of two) and, in the child,
	// GALLIVM_PERF=nopt (llvmpipe skips its LLVM optimisation passes; code
	// generation is unchanged). Compiling is nearly all of lavapipe's time
	// on these small grids (fastCompileEnv).
	LavapipeDefaults bool
}

// fastCompileEnv is the environment the emulator's children get unless
// LavapipeDefaults is set: llvmpipe's GALLIVM_PERF flags, with "nopt" added to
// those of this process's environment.
func fastCompileEnv() []string {
	flags := "nopt"
	if v := os.Getenv("GALLIVM_PERF"); v != "" {
		flags = v + "," + flags
	}
	return []string{"GALLIVM_PERF=" + flags}
}

// Emulator is the emulator stage: lavapipe runs each translated compute
// kernel over pattern-filled buffers, draws each fragment shader over 4×4
// pixels (device.Draw: every varying a per-draw constant, render targets
// following the SPIR-V's output types) and captures each vertex shader's
// outputs for one triangle (device.CaptureVertices), and every buffer, written
// render target and output record must equal, bit for bit, what LLVM's own
// CPU execution of the original AIR left there (compiler/cpuref), each word
// as its element type (compiler/judge: a NaN equals any NaN; order-only
// operations within their stated ULP bound). A kernel calling operations
// Metal bounds in ULP rather than defines (sqrt, pow, exp ...) runs traced:
// each recorded result is checked against its MSL §8.4 bound and the
// reference takes the device's results, so the rest is compared exactly
// (stages/approxtrace; pass_class approximate-substituted), and the traced
// run's outputs are the ones compared when the run against the substituted
// reference would be the same run but for the trace (judged_run); so is one
// whose output differs from the exactly dividing reference when it has fdivs
// that fast math lets approximate (Table 8.2: 2.5 ulp).
// Anything not compared is unjudged with its own code and reason; a shader
// that writes nothing is never passed.
func Emulator(opts EmulatorOptions) pipeline.Stage[*Module] {
	e := newEmulator(opts, false)
	return pipeline.Stage[*Module]{
		Name: "emulator", Version: emulatorVersion, Workers: 2, Timeout: 3 * time.Minute, Needs: []string{ArtifactTranslation},
		Run: e.run,
		// A cached verdict needs only the digest of what the device left,
		// for the device stage to compare its own output with.
		Restore: func(_ context.Context, m *Module, cached pipeline.Result) error {
			m.EmulatorOutput = cached.Data["output_sha256"]
			return nil
		},
	}
}

// emulator is the stage over the device harness (device/harness), shared
// by its workers.
type emulator struct {
	opts EmulatorOptions
	// onDevice is set for the device stage's instance: its output is
	// compared with the emulator's (Module.EmulatorOutput), not recorded as it.
	onDevice bool
	h        *harness.Harness
}

// newEmulator is the stage's emulator over opts.Device (default "lavapipe").
func newEmulator(opts EmulatorOptions, onDevice bool) *emulator {
	if opts.Device == "" {
		opts.Device = "lavapipe"
	}
	// The device stage runs the translation as it is, on the GPU's own
	// compiler settings.
	fast := !onDevice && !opts.LavapipeDefaults
	env := opts.ChildEnv
	if fast {
		env = append(slices.Clip(env), fastCompileEnv()...)
	}
	return &emulator{opts: opts, onDevice: onDevice, h: harness.New(harness.Options{Device: opts.Device, ChildArgv: opts.ChildArgv, ChildEnv: env, ChildMaxRSS: opts.ChildMaxRSS,
		Timeout: opts.Timeout, SIMDWidth: opts.SIMDWidth, ReferenceCache: opts.ReferenceCache, Version: emulatorVersion, Grid: opts.Grid, BufferSize: opts.BufferSize,
		DontUnrollLoops: fast, ScratchDepth: fast, ShareRuns: !onDevice})}
}

// reference is the CPU reference of m's entry point (harness.Reference).
func (e *emulator) reference(ctx context.Context, m *Module) (*cpuref.Result, error) {
	return e.referenceWith(ctx, m, false)
}

// referenceWith is reference, built with fused multiply-adds when fuse is set.
func (e *emulator) referenceWith(ctx context.Context, m *Module, fuse bool) (*cpuref.Result, error) {
	return e.h.Reference(ctx, harnessModule(m), fuse)
}

// JudgedTracedRun is the judged_run of a row whose outputs are its traced
// run's (approxtrace.Traced.Outputs): the emulator then runs the function
// once, traced, rather than traced and again as it is.
const JudgedTracedRun = "traced: the outputs compared are the traced run's (this row's translation, byte for byte the translator's own, with each traced call's operands and result also stored), the run whose approximate results the reference took"

// runOrTraced runs q on the device, or, in the emulator stage, takes its
// outputs from t's traced run when q asks for that run but for the trace
// and its SPIR-V is the translator's own translation of the function
// traced (approxtrace.Traced.Outputs; t may be nil): the reply, the device time
// (the traced run's when taken from it) and whether it was. The device
// stage always runs q, the translation as it is, on the GPU.
func (e *emulator) runOrTraced(ctx context.Context, q harness.Request, t *approxtrace.Traced) (harness.Reply, time.Duration, bool) {
	if !e.onDevice {
		if rep, ok := t.Outputs(q); ok {
			return rep, t.RunTime, true
		}
	}
	start := time.Now()
	rep := e.h.Run(ctx, q)
	return rep, time.Since(start), false
}

// harnessModule is what the harness computes m's reference from.
func harnessModule(m *Module) harness.Module {
	return harness.Module{SHA256: m.SHA256, Bitcode: m.Bitcode, Entry: m.Translation.Entry, Stage: m.Translation.Reflection.Stage, Wrapped: m.Wrapped}
}

// ReferenceCacheRefused is how many reference cache entries this process
// refused as damaged (each recomputed, never trusted).
func ReferenceCacheRefused() int64 { return refcache.Refused() }

func (e *emulator) run(ctx context.Context, m *Module) pipeline.Result {
	if m.Translation == nil {
		return pipeline.Fail(codes.EmulatorNoTranslation, "translate", "no SPIR-V in memory: the translate stage did not run (--skip-stages)")
	}
	refl := m.Translation.Reflection
	if refl.Stage != air.Kernel && refl.Stage != air.Fragment && refl.Stage != air.Vertex {
		r := pipeline.UnjudgedBecause(string(refl.Stage) + " execution not implemented: the emulator runs compute kernels, fragment and vertex shaders only")
		r.Code, r.Detail = codes.EmulatorNotImplemented, string(refl.Stage)
		return r
	}
	start := time.Now()
	ref, err := e.reference(ctx, m)
	if err == nil && e.opts.PrecomputeFused {
		// Fill the reference cache for a GPU host that cannot build it:
		// the fused reference, and the provisional ones a mismatch of a
		// module with approximate divisions is judged again from.
		if ref.ContractAllowed {
			_, _ = e.referenceWith(ctx, m, true)
		}
		if len(ref.Divisions) > 0 {
			hm := harnessModule(m)
			_, _ = e.h.ReferenceIn(ctx, hm, harness.Mode{Provisional: true})
			if ref.ContractAllowed {
				_, _ = e.h.ReferenceIn(ctx, hm, harness.Mode{Provisional: true, Fuse: true})
			}
		}
	}
	var nj *cpuref.NotJudgeableError
	var mode harness.Mode
	var traced *approxtrace.Outcome
	var tracedRun *approxtrace.Traced
	if errors.As(err, &nj) && nj.Kind == cpuref.KindApproximate {
		mod, ep, _, _ := entryOf(m) // mod is nil when there is none
		t, r := approxtrace.Substitute(ctx, e.h, harnessModule(m), mod, ep, nj, e.opts.PrecomputeFused)
		if t == nil {
			return r
		}
		ref, err, mode, traced, tracedRun = t.Reference, nil, t.Mode, t.Outcome, t
	}
	refTime := time.Since(start)
	switch {
	case errors.As(err, &nj):
		return approxtrace.NoReference(nj)
	case errors.Is(err, cpuref.ErrUnavailable):
		return pipeline.Unavailablef("%v", err)
	case ctx.Err() != nil:
		return pipeline.Fail(pipeline.CodeCancelled, "reference", ctx.Err().Error())
	case err != nil:
		r := pipeline.UnjudgedBecause(err.Error())
		r.Code, r.Detail = codes.EmulatorNoReference, "reference-error"
		return r
	}
	q, v, ok := harness.Prepare(e.opts.Device, m.SHA256, m.Translation, ref)
	if !ok {
		return judged(v)
	}
	rep, devTime, fromTrace := e.runOrTraced(ctx, q, tracedRun)
	if rep.Buffers == nil {
		return judged(rep.Verdict)
	}
	if fromTrace {
		refTime -= devTime
	}
	got := rep.Buffers
	verdict := e.h.JudgeIn(ctx, harnessModule(m), ref, got, mode)
	if traced == nil && verdict.Code == codes.EmulatorMismatch && len(ref.Divisions) > 0 {
		// The exact reference is one answer Metal permits for fast-math
		// divisions, not the only one: judged again with the device's
		// quotients, on the inputs the traced reference chose.
		mod, ep, _, _ := entryOf(m)
		t, r := approxtrace.Divisions(ctx, e.h, harnessModule(m), mod, ep, ref, judged(verdict), e.opts.PrecomputeFused)
		if t == nil {
			return r
		}
		ref, mode, traced = t.Reference, t.Mode, t.Outcome
		if q, v, ok = harness.Prepare(e.opts.Device, m.SHA256, m.Translation, ref); !ok {
			return judged(v)
		}
		if rep, devTime, fromTrace = e.runOrTraced(ctx, q, t); rep.Buffers == nil {
			return judged(rep.Verdict)
		}
		got = rep.Buffers
		verdict = e.h.JudgeIn(ctx, harnessModule(m), ref, got, mode)
	}
	r := judged(verdict)
	if fromTrace {
		r.Data["judged_run"] = JudgedTracedRun
	}
	if traced != nil {
		// The calls of the reference the outputs passed against.
		s := ref.Substituted
		if verdict.Against != nil {
			s = verdict.Against.Substituted
		}
		r = traced.Annotate(r, s, codes.EmulatorApproximateUnmatched)
	}
	if f := rep.Facts; f != nil {
		r.Data["emulator_device"] = f.Name
		r.Data["emulator_driver"] = f.DriverInfo
	}
	if rep.Shared {
		r.Data["shared_run"] = "an identical request (SPIR-V, inputs, grid, interface, draw or capture) ran on the device earlier in this run: its output is this row's, judged against this row's own reference"
	}
	digest := judge.Digest(ref, got)
	r.Data["output_sha256"] = digest
	if e.onDevice {
		r.Data["matches_emulator"] = judge.AgainstEmulator(m.EmulatorOutput, digest)
	} else {
		m.EmulatorOutput = digest
	}
	r.Data["reference_ms"] = strconv.FormatInt(refTime.Milliseconds(), 10)
	r.Data["device_ms"] = strconv.FormatInt(devTime.Milliseconds(), 10)
	if rep.GPUNanos > 0 {
		r.Data["gpu_ns"] = strconv.FormatUint(rep.GPUNanos, 10)
	} else {
		r.Data["gpu_ns"] = "not timed (the device has no timestamps on its queue)"
	}
	maps.Copy(r.Data, harness.Describe(ref, q))
	return r
}

package stages

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
	"github.com/airpipe/airpipe/pipeline"
	"github.com/airpipe/airpipe/stages/approxtrace"
)

// emulatorVersion changes whenever the emulator stage's verdicts change.
const emulatorVersion = "11"

// Emulator codes (append-only; documented in docs/codes.md).
const (
	// CodeEmulatorMismatch: lavapipe's output differs from the CPU
	// reference; the detail is the first differing 32-bit word ("buffer B
	// word I", "render target N pixel (X,Y) component C", "vertex V output J
	// (NAME) component C", or "render target N" when the SPIR-V has no such
	// output), the message "expected X got Y".
	CodeEmulatorMismatch = codes.EmulatorMismatch
	// CodeEmulatorNoReference (unjudged): the CPU reference cannot run the
	// entry point; the detail is the reason's kind (cpuref.Kind*) and the
	// thing it names ("texture air.texture", "approximate-op air.fast_sqrt.f32").
	CodeEmulatorNoReference = codes.EmulatorNoReference
	// CodeEmulatorWritesNothing (unjudged): the kernel has no buffer it may
	// write, or neither the reference nor lavapipe changed a byte: nothing
	// was compared, so it is not a pass.
	CodeEmulatorWritesNothing = codes.EmulatorWritesNothing
	// CodeEmulatorNotImplemented (unjudged): the stage does not run this kind
	// of function; the detail is the stage ("mesh", "object").
	CodeEmulatorNotImplemented = codes.EmulatorNotImplemented
	// CodeEmulatorNoTranslation: no SPIR-V reached the stage (the translate
	// stage was skipped).
	CodeEmulatorNoTranslation = codes.EmulatorNoTranslation
	// CodeEmulatorInterface: the SPIR-V's bindings are not the AIR entry
	// point's buffers; the detail names the binding.
	CodeEmulatorInterface = codes.EmulatorInterfaceMismatch
	// CodeEmulatorDriver: lavapipe refused the pipeline or the dispatch; the
	// detail is the Vulkan call.
	CodeEmulatorDriver = codes.EmulatorDriverError
	// CodeEmulatorDeviceLost: the dispatch lost the device (a GPU fault or
	// a hang past the stage's timeout).
	CodeEmulatorDeviceLost = codes.EmulatorDeviceLost
	// CodeEmulatorContraction (unjudged): the output differs from both the
	// unfused and the fused reference, but only at words where those two
	// references differ from each other too: words whose value depends on
	// which multiply-adds the compiler contracted, which the AIR permits
	// (fast math) op by op. No reference can judge them; the detail is the
	// first such word.
	CodeEmulatorContraction = codes.EmulatorContractionDependent
	// CodeEmulatorFastMathUndefined (unjudged): the output differs from the
	// reference only at words the reference computed as a NaN or an
	// infinity, in a module compiled with fast math (nnan/ninf: the compiler
	// may assume neither arises, so the AIR fixes no value there on these
	// inputs). The detail is the first such word.
	CodeEmulatorFastMathUndefined = codes.EmulatorFastMathUndefined
)

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
	// with it (a program that runs ServeEmulatorChild, e.g. {airpipe,
	// "__emulator-child"}), so that a driver crash fails only its module
	// (CodeEmulatorCrash). Without it the device runs in this process.
	ChildArgv []string
	// ChildEnv is added to the child's environment.
	ChildEnv []string
	// SIMDWidth is the SIMD-group width the reference runs kernels using
	// SIMD-group values or operations at (0: the device's subgroup size,
	// device.Facts.SubgroupSize; a device whose facts cannot be read leaves
	// such kernels unjudged).
	SIMDWidth int
}

// Emulator is the emulator stage: lavapipe runs each translated compute
// kernel over pattern-filled buffers, draws each fragment shader over 4×4
// pixels (device.Draw: every varying a per-draw constant, render targets
// following the SPIR-V's output types) and captures each vertex shader's
// outputs for one triangle (device.CaptureVertices), and every buffer, written
// render target and output record must equal, bit for bit, what LLVM's own
// CPU execution of the original AIR left there (compiler/cpuref). There is no
// ULP bound: operations Metal does not define to the bit are never compared
// (the reference sets them aside), so every comparison made is exact; the one
// exception is that a NaN in a float output equals any NaN (compiler/judge).
// Anything not compared is unjudged with its own code and reason; a shader
// that writes nothing is never passed.
func Emulator(opts EmulatorOptions) pipeline.Stage[*Module] {
	e := &emulator{opts: opts}
	if e.opts.Device == "" {
		e.opts.Device = "lavapipe"
	}
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

// emulator holds the stage's device, opened on first use and shared by its
// workers (device.Device is safe for concurrent use).
type emulator struct {
	opts EmulatorOptions
	// onDevice is set for the device stage's instance: its output is
	// compared with the emulator's (Module.EmulatorOutput), not recorded as it.
	onDevice bool
	mu       sync.Mutex
	dev      *device.Device
	servers  *childServers
	// width is the SIMD-group width, read once (simdWidth).
	width     int
	widthOnce sync.Once
}

// simdWidth is EmulatorOptions.SIMDWidth, else the device's subgroup size
// (0 when its facts cannot be read).
func (e *emulator) simdWidth() int {
	e.widthOnce.Do(func() {
		e.width = e.opts.SIMDWidth
		name := e.opts.Device
		if name == "" {
			name = "lavapipe" // as Emulator defaults it
		}
		if e.width == 0 {
			if f, err := device.FactsOf(name); err == nil {
				e.width = int(f.SubgroupSize)
			}
		}
	})
	return e.width
}

// children returns the stage's child processes (ChildArgv), made on first use.
func (e *emulator) children() *childServers {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.servers == nil {
		e.servers = newChildServers(e.opts.ChildArgv, e.opts.ChildEnv)
	}
	return e.servers
}

// traceApproximate runs a kernel the reference set aside for approximate
// operations traced on the device (stages/approxtrace), through the same
// dispatch as any module: a recorded result beyond its MSL §8.4 bound is a
// mismatch; otherwise r, the set-aside result, stays, with the trace's data.
func (e *emulator) traceApproximate(ctx context.Context, m *Module, r pipeline.Result) pipeline.Result {
	mod, ep, _, ok := entryOf(m)
	if !ok {
		return r
	}
	p, _ := approxtrace.Prepare(mod, ep, int(e.opts.BufferSize))
	if p == nil {
		return r
	}
	q := emuRequest{Device: e.opts.Device, Name: m.SHA256, Entry: p.Entry, SPIRV: p.SPIRV, Grid: p.Grid, Buffers: p.Inputs, Kernel: p.Kernel}
	var rep emuReply
	if len(e.opts.ChildArgv) > 0 {
		timeout := e.opts.Timeout
		if timeout <= 0 {
			timeout = time.Minute
		}
		rep = e.children().run(ctx, q, timeout)
	} else if dev, err := e.open(); err == nil {
		rep = runRequest(ctx, dev, q)
	}
	if rep.Buffers == nil {
		return r
	}
	o, err := p.Read(rep.Buffers)
	if err != nil {
		return r
	}
	return o.Verdict(r, CodeEmulatorMismatch)
}

// abandon drops d after a dispatch that did not finish: its queue may still
// be running the work, so its buffers stay allocated and the next module
// opens a fresh device.
func (e *emulator) abandon(d *device.Device) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dev == d {
		e.dev = nil
	}
}

// open returns the shared device, reopening it after a loss.
func (e *emulator) open() (*device.Device, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dev != nil && e.dev.Err() == nil {
		return e.dev, nil
	}
	d, err := device.Open(e.opts.Device, device.Options{})
	if err != nil {
		return nil, err
	}
	e.dev = d
	return d, nil
}

func (e *emulator) run(ctx context.Context, m *Module) pipeline.Result {
	if m.Translation == nil {
		return pipeline.Fail(CodeEmulatorNoTranslation, "translate", "no SPIR-V in memory: the translate stage did not run (--skip-stages)")
	}
	refl := m.Translation.Reflection
	if refl.Stage != "kernel" && refl.Stage != "fragment" && refl.Stage != "vertex" {
		r := pipeline.UnjudgedBecause(refl.Stage + " execution not implemented: the emulator runs compute kernels, fragment and vertex shaders only")
		r.Code, r.Detail = CodeEmulatorNotImplemented, refl.Stage
		return r
	}
	start := time.Now()
	ref, err := e.reference(ctx, m)
	if err == nil && ref.ContractAllowed && e.opts.PrecomputeFused {
		// Fill the reference cache for a GPU host that cannot build it.
		_, _ = e.referenceWith(ctx, m, true)
	}
	refTime := time.Since(start)
	var nj *cpuref.NotJudgeableError
	switch {
	case errors.As(err, &nj):
		// The row keeps an unjudged stage's code and message only
		// (status_reason), so the message starts with the detail.
		r := pipeline.Result{Status: pipeline.Unjudged, Code: CodeEmulatorNoReference, Detail: nj.Kind}
		if nj.Detail != "" {
			r.Detail += " " + nj.Detail
		}
		r.Message = r.Detail + ": " + nj.Reason
		// Everything the reference would need, so that `airpipe features`
		// ranks what would let it judge the most modules.
		for _, b := range append([]string{nj.Blocker()}, nj.Also...) {
			r.Missing = append(r.Missing, pipeline.Finding{Code: CodeEmulatorNoReference, Detail: b})
		}
		if nj.Kind == cpuref.KindApproximate && refl.Stage == "kernel" {
			r = e.traceApproximate(ctx, m, r)
		}
		return r
	case errors.Is(err, cpuref.ErrUnavailable):
		return pipeline.Unavailablef("%v", err)
	case ctx.Err() != nil:
		return pipeline.Fail(pipeline.CodeCancelled, "reference", ctx.Err().Error())
	case err != nil:
		r := pipeline.UnjudgedBecause(err.Error())
		r.Code, r.Detail = CodeEmulatorNoReference, "reference-error"
		return r
	}
	if !anyWritable(ref.Kernel) && len(ref.Kernel.Targets) == 0 && len(ref.Kernel.Outputs) == 0 && !ref.Kernel.WritesDepth {
		r := pipeline.UnjudgedBecause("the shader has no buffer it may write and no render target or output: nothing to compare")
		r.Code, r.Detail = CodeEmulatorWritesNothing, "no writable buffer"
		switch refl.Stage {
		case "fragment":
			r.Detail = "no render target or writable buffer"
		case "vertex":
			r.Detail = "no output or writable buffer"
		}
		return r
	}
	if w, px, ok := depthInRange(ref); !ok {
		r := pipeline.UnjudgedBecause(fmt.Sprintf("the function writes depth %s at %s: outside [0, 1], which a depth attachment without VK_EXT_depth_range_unrestricted cannot hold", judge.Show(w), judge.WordName(ref, cpuref.DepthBuffer, px)))
		r.Code, r.Detail = CodeEmulatorNoReference, "depth outside [0, 1]"
		return r
	}
	if r, ok := checkInterface(presentBindings(refl.Bindings, ref.Kernel), ref.Kernel); !ok {
		return r
	}
	if r, ok := checkSpecConstants(refl.SpecConstants, ref.Kernel); !ok {
		return r
	}
	q := emuRequest{Device: e.opts.Device, Name: m.SHA256, Entry: m.Translation.Entry, SPIRV: m.Translation.SPIRV,
		Grid: ref.Grid, Buffers: ref.Inputs, Kernel: ref.Kernel}
	if refl.Stage == "fragment" {
		dq, r, ok := drawRequestFor(refl, ref, m.Translation.SPIRV)
		if !ok {
			return r
		}
		q.Draw = dq
	}
	if refl.Stage == "vertex" {
		cq, r, ok := captureRequestFor(refl, ref)
		if !ok {
			return r
		}
		q.Capture = cq
	}
	start = time.Now()
	var rep emuReply
	if len(e.opts.ChildArgv) > 0 {
		timeout := e.opts.Timeout
		if timeout <= 0 {
			timeout = time.Minute
		}
		rep = e.children().run(ctx, q, timeout)
	} else {
		dev, err := e.open()
		if err != nil {
			if errors.Is(err, device.ErrUnavailable) {
				return pipeline.Unavailablef("%s: %v", e.opts.Device, err)
			}
			return pipeline.Fail(CodeEmulatorDriver, "open", err.Error())
		}
		rep = runRequest(ctx, dev, q)
		if rep.Buffers == nil && (rep.Result.Code == CodeEmulatorDeviceLost || rep.Result.Code == pipeline.CodeTimeout) {
			e.abandon(dev)
		}
	}
	if rep.Buffers == nil {
		return rep.Result
	}
	got := rep.Buffers
	devTime := time.Since(start)
	r := compare(ref, got)
	if r.Data == nil {
		r.Data = map[string]string{}
	}
	if r.Code == CodeEmulatorMismatch && ref.ContractAllowed {
		r = againstFused(ctx, e, m, ref, got, r)
	}
	if f := rep.Facts; f != nil {
		r.Data["emulator_device"] = f.Name
		r.Data["emulator_driver"] = f.DriverInfo
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
	if t := texturesUsed(ref.Kernel); t != "" {
		r.Data["textures"] = t
	}
	if f := functionConstantsUsed(ref.Kernel); f != "" {
		r.Data["function_constants"] = f
	}
	if p := ref.Kernel.Predicates(); p != "" {
		r.Data["function_constant_predicates"] = p
	}
	if a := ref.Kernel.FunctionConstantSearch; a != "" {
		r.Data["function_constant_assignment"] = a // compiler/cpuref/fcsearch.go
	}
	if ref.InputFamily != "" && len(ref.Kernel.Buffers) > 0 {
		r.Data["input_family"] = ref.InputFamily
	}
	if ref.SIMDWidth > 0 {
		r.Data["simd_width"] = strconv.Itoa(ref.SIMDWidth)
	}
	g := ref.Grid
	r.Data["grid"] = fmt.Sprintf("%dx%dx%d groups of %dx%dx%d", g.Groups[0], g.Groups[1], g.Groups[2], g.Threads[0], g.Threads[1], g.Threads[2])
	if q.Capture != nil {
		r.Data["grid"] = fmt.Sprintf("%d vertices", q.Capture.Vertices)
	}
	if q.Draw != nil {
		r.Data["grid"] = fmt.Sprintf("%dx%d pixels", q.Draw.Width, q.Draw.Height)
		if ref.Kernel.WritesDepth {
			r.Data["depth"] = "compared (D32_SFLOAT attachment, test ALWAYS)"
		}
	}
	return r
}

// againstFused judges a mismatch of a module whose AIR permits fusing
// multiply-adds against the reference built with them fused: equal bit for
// bit is a pass (the device computed the other permitted answer, which the
// data says); otherwise the first mismatch stands, with what the fused
// reference said — unless every word that differs from both references is
// one where the references differ from each other (contractionOnly).
func againstFused(ctx context.Context, e *emulator, m *Module, ref *cpuref.Result, got map[int][]byte, unfused pipeline.Result) pipeline.Result {
	fused, err := e.referenceWith(ctx, m, true)
	if err != nil {
		unfused.Data["fused_reference"] = "none: " + err.Error()
		return unfused
	}
	fr := compare(fused, got)
	if fr.Status != pipeline.Passed {
		if c, ok := contractionOnly(ref, fused, got); ok {
			return c
		}
		unfused.Data["fused_reference"] = "differs too: " + fr.Detail
		return unfused
	}
	if fr.Data == nil {
		fr.Data = map[string]string{}
	}
	fr.Data["reference"] = "fused multiply-add (the AIR permits contraction; the unfused reference differs at " + unfused.Detail + ")"
	return fr
}

// depthInRange reports whether every depth the reference wrote lies in
// [0, 1] (what a D32_SFLOAT attachment holds without
// VK_EXT_depth_range_unrestricted); otherwise the first word outside and
// its position.
func depthInRange(ref *cpuref.Result) (uint32, int, bool) {
	for _, o := range ref.Outputs {
		if o.Index != cpuref.DepthBuffer {
			continue
		}
		for w := 0; 4*w < len(o.Bytes); w++ {
			x := word(o.Bytes, w)
			if f := math.Float32frombits(x); !(f >= 0 && f <= 1) {
				return x, w, false
			}
		}
	}
	return 0, 0, true
}

// anyWritable reports whether the function has a buffer or texture it may
// write.
func anyWritable(k *cpuref.Kernel) bool {
	for _, b := range k.Buffers {
		if b.Writable() {
			return true
		}
	}
	for _, t := range k.Textures {
		if t.Writable() {
			return true
		}
	}
	return false
}

// dispatch runs the SPIR-V once on dev over the reference's inputs and
// returns every buffer's bytes afterwards, by Metal index (a buffer the
// SPIR-V does not bind keeps its input). On failure it returns nil and the
// result to report.
//
// Textures the entry point samples or reads are bound uniform (every texel
// the reference's value, cpuref.Texture), samplers as the device's one
// sampler. tm, when not nil, receives the GPU time of the work (the device
// agreement's split timestamps).
func dispatch(ctx context.Context, dev *device.Device, spirv []byte, entry string, ref *cpuref.Result, dq *drawRequest, cq *captureRequest, tm *device.Timing) (map[int][]byte, pipeline.Result) {
	var p *device.Pipeline
	if dq == nil && cq == nil {
		var err error
		p, err = dev.LoadPipeline(spirv, entry)
		if errors.Is(err, device.ErrUnavailable) {
			// The SPIR-V needs a feature this device lacks.
			return nil, pipeline.Unavailablef("%v", err)
		}
		if err != nil {
			return nil, driverResult("vkCreateComputePipelines", err)
		}
		defer p.Unload()
	}
	// Buffers are freed only once the work is known to be done: after a
	// timeout the device may still be writing them.
	var bufs []*device.Buffer
	var texs []*device.Texture
	done := false
	defer func() {
		if done {
			for _, b := range bufs {
				b.Free()
			}
			for _, t := range texs {
				t.Free()
			}
		}
	}()
	inputs := map[int][]byte{}
	for _, in := range ref.Inputs {
		inputs[in.Index] = in.Bytes
	}
	got := map[int][]byte{}
	for i, b := range inputs {
		if i < cpuref.RenderTargetBase {
			got[i] = b
		}
	}
	var binds []device.Binding
	for _, b := range bindingsOf(ref) {
		data := inputs[b]
		buf, err := dev.NewBuffer(int64((len(data) + 3) &^ 3))
		if err != nil {
			done = true
			return nil, driverResult("vkCreateBuffer", err)
		}
		bufs = append(bufs, buf)
		copy(buf.Bytes(), data)
		binds = append(binds, device.Binding{Set: 0, Binding: uint32(b), Buffer: buf})
	}
	storage := map[int]*device.Texture{} // writable textures, by harness index
	for _, t := range ref.Kernel.Textures {
		dim, ok := textureDims[t.Dim]
		if !ok {
			done = true
			return nil, pipeline.Fail(CodeEmulatorInterface, "texture "+strconv.Itoa(t.Index), fmt.Sprintf("the reference gives texture %d the shape %q, which the device stage cannot make", t.Index, t.Dim))
		}
		tex, err := dev.NewTexture(device.TextureSpec{Dim: dim, Kind: t.Kind, Texel: t.Texel, Storage: t.Writable(), Samples: uint32(t.Samples)})
		if err != nil {
			done = true
			if errors.Is(err, device.ErrUnavailable) {
				return nil, pipeline.Unavailablef("%v", err)
			}
			return nil, driverResult("NewTexture", err)
		}
		texs = append(texs, tex)
		binding := textureBinding + t.Index
		if t.Writable() {
			binding = storageTextureBinding + t.Index
			storage[cpuref.StorageTextureBase+t.Index] = tex
		}
		binds = append(binds, device.Binding{Set: 0, Binding: uint32(binding), Texture: tex})
	}
	for _, i := range ref.Kernel.Samplers {
		binds = append(binds, device.Binding{Set: 0, Binding: uint32(samplerBinding + i), Sampler: true})
	}
	cbinds, err := constexprSamplerBinds(ref.Kernel) // constexpr.go
	if err != nil {
		done = true
		return nil, pipeline.Fail(CodeEmulatorInterface, "constexpr sampler", err.Error())
	}
	binds = append(binds, cbinds...)
	phBinds, phBufs, phTexs, err := placeholders(dev, ref.Kernel) // funcconst.go
	bufs, texs, binds = append(bufs, phBufs...), append(texs, phTexs...), append(binds, phBinds...)
	if err != nil {
		done = true
		if errors.Is(err, device.ErrUnavailable) {
			return nil, pipeline.Unavailablef("%v", err)
		}
		return nil, pipeline.Fail(CodeEmulatorInterface, "absent argument", err.Error())
	}
	spec := specialization(ref.Kernel)
	var depth []byte // the depth attachment's words, for a fragment function writing depth
	var targets [][]byte
	switch {
	case cq != nil:
		var rec []byte
		rec, err = dev.CaptureVertices(ctx, spirv, entry, device.VertexArgs{Vertices: cq.Vertices, Attributes: cq.Attributes,
			Outputs: cq.Outputs, Stride: cq.Stride, Initial: inputs[cpuref.OutputBuffer], Bindings: binds, Timing: tm, Specialization: spec})
		targets = [][]byte{rec}
	case dq != nil:
		if ref.Kernel.WritesDepth {
			depth = make([]byte, 4*dq.Width*dq.Height)
		}
		targets, err = dev.Draw(ctx, spirv, entry, device.DrawArgs{Width: dq.Width, Height: dq.Height, Targets: dq.Targets, Inputs: dq.Inputs, Bindings: binds, Timing: tm, Specialization: spec, Depth: depth})
	default:
		err = dev.Run(ctx, p, device.DispatchArgs{Groups: ref.Grid.Groups, Threads: ref.Grid.Threads, Bindings: binds, Timing: tm, Specialization: spec})
	}
	done = err == nil || ctx.Err() == nil && !errors.Is(err, device.ErrLost)
	if err != nil {
		if errors.Is(err, device.ErrUnavailable) {
			return nil, pipeline.Unavailablef("%v", err)
		}
		var le *device.LimitError
		if errors.As(err, &le) {
			r := pipeline.UnjudgedBecause(err.Error())
			r.Code, r.Detail = CodeEmulatorNoReference, "grid exceeds device limits"
			return nil, r
		}
		if errors.Is(err, device.ErrInvalidArgument) {
			call := "dispatch"
			if dq != nil || cq != nil {
				call = "draw"
			}
			return nil, pipeline.Fail(CodeEmulatorInterface, call, err.Error())
		}
		if errors.Is(err, device.ErrLost) {
			return nil, pipeline.Fail(CodeEmulatorDeviceLost, entry, err.Error())
		}
		if ctx.Err() != nil {
			return nil, pipeline.Fail(pipeline.CodeTimeout, "dispatch", err.Error())
		}
		return nil, driverResult("vkQueueSubmit", err)
	}
	for _, b := range binds {
		if b.Buffer != nil {
			got[int(b.Binding)] = append([]byte(nil), b.Buffer.Bytes()[:len(inputs[int(b.Binding)])]...)
		}
	}
	for n, t := range targets {
		if t != nil {
			got[cpuref.RenderTargetBase+n] = t
		}
	}
	if depth != nil {
		got[cpuref.DepthBuffer] = depth
	}
	for i, tex := range storage {
		b, err := tex.Read(ctx)
		if err != nil {
			return nil, driverResult("reading back texture "+strconv.Itoa(i-cpuref.StorageTextureBase), err)
		}
		got[i] = b
	}
	return got, pipeline.Result{}
}

// bindingsOf lists the buffer bindings to make: every buffer the reference
// knows, by the ABI (compiler/translate/ABI.md: air.buffer i is binding i).
func bindingsOf(ref *cpuref.Result) []int {
	var out []int
	for _, b := range ref.Kernel.Buffers {
		out = append(out, b.Index)
	}
	sort.Ints(out)
	return out
}

// checkInterface compares the SPIR-V's bindings (its reflection) with the
// arguments the reference read off the AIR: each binding must be a storage
// buffer at the index of one of the entry point's buffers, a sampled image
// at one of its textures' or a sampler at one of its samplers'.
func checkInterface(bs []translate.Binding, k *cpuref.Kernel) (pipeline.Result, bool) {
	known := map[int]string{}
	for _, b := range k.Buffers {
		known[b.Index] = "storage-buffer"
	}
	for _, t := range k.Textures {
		if t.Writable() {
			known[storageTextureBinding+t.Index] = "storage-image"
		} else {
			known[textureBinding+t.Index] = "sampled-image"
		}
	}
	for _, i := range k.Samplers {
		known[samplerBinding+i] = "sampler"
	}
	if r, ok := bindConstexprSamplers(bs, k, known); !ok { // constexpr.go
		return r, false
	}
	for _, d := range k.Destinations {
		known[inputAttachmentBinding+d.Index] = "input-attachment"
	}
	shape := map[int]string{} // the reference's texture shape, by binding
	for _, t := range k.Textures {
		if t.Writable() {
			shape[storageTextureBinding+t.Index] = t.Dim
		} else {
			shape[textureBinding+t.Index] = t.Dim
		}
	}
	for _, b := range bs {
		if b.Set != 0 || known[b.Binding] == "" || known[b.Binding] != b.Kind {
			return pipeline.Fail(CodeEmulatorInterface, fmt.Sprintf("set %d binding %d", b.Set, b.Binding),
				fmt.Sprintf("the SPIR-V declares a %s at set %d binding %d (%s), which is not one of the AIR entry point's buffers", b.Kind, b.Set, b.Binding, b.Metal)), false
		}
		if r, ok := viewShapeMatches(b, shape[b.Binding]); !ok {
			return r, false
		}
	}
	return pipeline.Result{}, true
}

// viewShapeMatches checks that an image binding's declared shape (the
// SPIR-V's Dim, Arrayed and MS) is the view the harness makes for the
// reference's texture shape. A translation may declare a Metal texture as
// another shape (a read-only cube as the 2D array of its faces, ABI.md); the
// harness then cannot bind a view the shader reads as the reference does,
// and the module is unjudged, naming the shape — never a mismatch.
func viewShapeMatches(b translate.Binding, refShape string) (pipeline.Result, bool) {
	if refShape == "" || b.Dim == "" {
		return pipeline.Result{}, true
	}
	want, known := textureDims[refShape]
	got, err := device.TextureDimOf(b.Dim, b.Arrayed)
	if known && err == nil && got == want && b.Multisampled == (cpuref.DimSamples(refShape) > 0) {
		return pipeline.Result{}, true
	}
	declared := b.Dim
	if b.Arrayed {
		declared += " array"
	}
	if b.Multisampled {
		declared += " multisampled"
	}
	r := pipeline.UnjudgedBecause(fmt.Sprintf("the SPIR-V declares %s (binding %d) as a %s image where the reference gives a %s texture: the harness binds views of the reference's shape only",
		b.Metal, b.Binding, declared, refShape))
	r.Code, r.Detail = CodeEmulatorNotImplemented, "texture view "+declared+" of a "+refShape
	return r, false
}

func driverResult(call string, err error) pipeline.Result {
	var de *device.DriverError
	if errors.As(err, &de) {
		call = de.Call
	}
	return pipeline.Fail(CodeEmulatorDriver, call, err.Error())
}

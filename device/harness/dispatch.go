package harness

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
)

// Request is one run on a device: the SPIR-V, the grid and the buffers'
// initial bytes, with the draw or capture of a fragment or vertex shader.
// It never carries the reference's answers, so the process (or machine)
// that runs it cannot agree by reading them.
type Request struct {
	Device  string         `json:"device"`
	Name    string         `json:"name"`
	Entry   string         `json:"entry"`
	SPIRV   []byte         `json:"spirv"`
	Grid    cpuref.Grid    `json:"grid"`
	Buffers []cpuref.Data  `json:"buffers"`
	Kernel  *cpuref.Kernel `json:"kernel"`
	// Draw, for a fragment shader, is the draw: targets, size and input constants.
	Draw *Draw `json:"draw,omitempty"`
	// Capture, for a vertex shader, is the capture: vertices, attributes, output slots.
	Capture *Capture `json:"capture,omitempty"`
	// InputFile, on the way from a parent to a child only, names the file
	// holding the buffers' bytes, InputSizes (in Buffers' order) long each,
	// which the line then leaves out (withInputFile).
	InputFile  string `json:"input_file,omitempty"`
	InputSizes []int  `json:"input_sizes,omitempty"`
}

// Reply is what the device left in each buffer, by Metal index (render
// targets at cpuref.RenderTargetBase+n, depth at cpuref.DepthBuffer), or
// why it did not run.
type Reply struct {
	Name    string         `json:"name"`
	Buffers map[int][]byte `json:"buffers,omitempty"`
	// Changes, on the way from a child to its parent only, holds the
	// buffers that travel as the spans the device changed in their input
	// (onlyChanges); the parent moves them back into Buffers.
	Changes map[int][]Span `json:"changes,omitempty"`
	// Verdict is the failure when Buffers is nil.
	Verdict judge.Verdict `json:"verdict"`
	Micros  int64         `json:"micros"`
	// GPUNanos is the GPU time of the work from the device agreement's
	// split timestamps; 0 when the device cannot time.
	GPUNanos uint64        `json:"gpu_ns"`
	Facts    *device.Facts `json:"facts,omitempty"`
	// Shared says the reply is an earlier identical request's
	// (Options.ShareRuns); it never travels.
	Shared bool `json:"-"`
}

// Dispatch runs q on dev.
func Dispatch(ctx context.Context, dev *device.Device, q Request) Reply {
	ref := &cpuref.Result{Kernel: q.Kernel, Grid: q.Grid, Inputs: q.Buffers}
	start := time.Now()
	var tm device.Timing
	got, res := dispatch(ctx, dev, q.SPIRV, q.Entry, ref, q.Draw, q.Capture, &tm)
	f := dev.Facts()
	return Reply{Name: q.Name, Buffers: got, Verdict: res, Micros: time.Since(start).Microseconds(), GPUNanos: tm.Nanos(), Facts: &f}
}

// The descriptor ABI (compiler/translate/ABI.md), restated here rather than
// taken from the translator, whose bindings are what checkInterface checks:
// air.buffer i is binding i, air.texture i binding textureBinding+i (sample
// or read access) or storageTextureBinding+i (write or read_write), air.sampler
// i binding samplerBinding+i, colour attachment n read as a fragment input
// inputAttachmentBinding+n (programmable blending), all in set 0.
const (
	textureBinding         = 32
	samplerBinding         = 160
	inputAttachmentBinding = 192
	storageTextureBinding  = 480
)

// textureDims maps the reference's texture shapes to the device's.
var textureDims = map[string]device.TextureDim{
	"1d": device.Dim1D, "1d_array": device.Dim1DArray, "2d": device.Dim2D, "2d_array": device.Dim2DArray,
	"3d": device.Dim3D, "cube": device.DimCube, "cube_array": device.DimCubeArray,
	"2d_ms": device.Dim2D, "2d_ms_array": device.Dim2DArray, // multisample: Samples cpuref.MSSamples
}

func unavailablef(format string, args ...any) judge.Verdict {
	return judge.Verdict{Status: judge.Unavailable, Message: fmt.Sprintf(format, args...)}
}

// dispatch runs the SPIR-V once on dev over the reference's inputs and
// returns every buffer's bytes afterwards, by Metal index (a buffer the
// SPIR-V does not bind keeps its input). On failure it returns nil and the
// verdict to report.
//
// Textures the entry point samples or reads are bound uniform (every texel
// the reference's value, cpuref.Texture), samplers as the device's one
// sampler. tm, when not nil, receives the GPU time of the work (the device
// agreement's split timestamps).
func dispatch(ctx context.Context, dev *device.Device, spirv []byte, entry string, ref *cpuref.Result, dq *Draw, cq *Capture, tm *device.Timing) (map[int][]byte, judge.Verdict) {
	var p *device.Pipeline
	if dq == nil && cq == nil {
		var err error
		p, err = dev.LoadPipeline(spirv, entry)
		if errors.Is(err, device.ErrUnavailable) {
			// The SPIR-V needs a feature this device lacks.
			return nil, unavailablef("%v", err)
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
			return nil, fail(codes.EmulatorInterfaceMismatch, "texture "+strconv.Itoa(t.Index), fmt.Sprintf("the reference gives texture %d the shape %q, which the device stage cannot make", t.Index, t.Dim))
		}
		tex, err := dev.NewTexture(device.TextureSpec{Dim: dim, Kind: t.Kind, Texel: t.Texel, Storage: t.Writable(), Samples: uint32(t.Samples)})
		if err != nil {
			done = true
			if errors.Is(err, device.ErrUnavailable) {
				return nil, unavailablef("%v", err)
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
		return nil, fail(codes.EmulatorInterfaceMismatch, "constexpr sampler", err.Error())
	}
	binds = append(binds, cbinds...)
	phBinds, phBufs, phTexs, err := placeholders(dev, ref.Kernel) // funcconst.go
	bufs, texs, binds = append(bufs, phBufs...), append(texs, phTexs...), append(binds, phBinds...)
	if err != nil {
		done = true
		if errors.Is(err, device.ErrUnavailable) {
			return nil, unavailablef("%v", err)
		}
		return nil, fail(codes.EmulatorInterfaceMismatch, "absent argument", err.Error())
	}
	spec := specialization(ref.Kernel)
	var depth []byte   // the depth attachment's words, for a fragment function writing depth
	var stencil []byte // the stencil aspect's bytes, for one writing a stencil reference
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
		if ref.Kernel.WritesStencil {
			stencil = make([]byte, dq.Width*dq.Height)
		}
		targets, err = dev.Draw(ctx, spirv, entry, device.DrawArgs{Width: dq.Width, Height: dq.Height, Targets: dq.Targets, Inputs: dq.Inputs, Bindings: binds, Timing: tm, Specialization: spec,
			Depth: depth, Stencil: stencil, StencilClear: cpuref.ClearStencil, ScratchDepth: dq.ScratchDepth})
	default:
		err = dev.Run(ctx, p, device.DispatchArgs{Groups: ref.Grid.Groups, Threads: ref.Grid.Threads, Bindings: binds, Timing: tm, Specialization: spec})
	}
	done = err == nil || ctx.Err() == nil && !errors.Is(err, device.ErrLost)
	if err != nil {
		if errors.Is(err, device.ErrUnavailable) {
			return nil, unavailablef("%v", err)
		}
		var le *device.LimitError
		if errors.As(err, &le) {
			return nil, unjudged(codes.EmulatorNoReference, "grid exceeds device limits", err.Error())
		}
		if errors.Is(err, device.ErrInvalidArgument) {
			call := "dispatch"
			if dq != nil || cq != nil {
				call = "draw"
			}
			return nil, fail(codes.EmulatorInterfaceMismatch, call, err.Error())
		}
		if errors.Is(err, device.ErrLost) {
			return nil, fail(codes.EmulatorDeviceLost, entry, err.Error())
		}
		if ctx.Err() != nil {
			return nil, fail(codes.Timeout, "dispatch", err.Error())
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
	if stencil != nil {
		words := make([]byte, 4*len(stencil)) // a word per pixel, as the reference stores it
		for i, s := range stencil {
			words[4*i] = s
		}
		got[cpuref.StencilBuffer] = words
	}
	for i, tex := range storage {
		b, err := tex.Read(ctx)
		if err != nil {
			return nil, driverResult("reading back texture "+strconv.Itoa(i-cpuref.StorageTextureBase), err)
		}
		got[i] = b
	}
	return got, judge.Verdict{}
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

func driverResult(call string, err error) judge.Verdict {
	var de *device.DriverError
	if errors.As(err, &de) {
		call = de.Call
	}
	return fail(codes.EmulatorDriverError, call, err.Error())
}

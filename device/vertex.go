package device

import (
	"context"
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// VertexOutput is one output of a vertex shader to capture: the output variable at Location,
// or with Location -1 the one decorated BuiltIn (0 Position, 1 PointSize), written at byte
// Offset of each vertex's record.
type VertexOutput struct {
	Location int
	BuiltIn  uint32
	Offset   uint32
}

// VertexArgs are one capture of a vertex shader's outputs.
type VertexArgs struct {
	// Vertices is how many vertices are drawn, as a triangle list (a multiple of 3, 3..768);
	// vertex i has VertexIndex i, in one instance.
	Vertices uint32
	// Attributes give, by input location, each vertex's words (one per component).
	Attributes map[uint32][][]uint32
	// Outputs are captured into records of Stride bytes, one per vertex in drawing order.
	// With none (Stride 0, no Initial bytes) the vertices run for their buffer and texture
	// writes alone, without transform feedback, and CaptureVertices returns no bytes.
	Outputs []VertexOutput
	Stride  uint32
	// Initial is the capture buffer before the draw (Vertices×Stride bytes): what an output
	// does not write keeps it.
	Initial []byte
	// Bindings bind the shader's buffers, textures and sampler.
	Bindings []Binding
	// Specialization gives the vertex shader's specialization constants their values (at
	// most once per SpecId); the others keep their defaults, undeclared SpecIds are ignored.
	Specialization []SpecValue
	// Timing, when not nil, receives the GPU time of the command buffer that holds the
	// capture draw (CaptureVertices splits after it).
	Timing *Timing
}

// CaptureVertices runs the vertex entry point entry of vert over x.Vertices vertices with the
// rasteriser off and returns the capture buffer: each listed output of each vertex, as the
// shader wrote it, at its offset in the vertex's record. It captures through transform
// feedback (VK_EXT_transform_feedback): a copy of the module gets the Xfb execution mode and
// XfbBuffer/XfbStride/Offset decorations on the listed outputs, which change nothing the shader
// computes. Outputs must be 32-bit scalars or vectors of up to 4 components.
//
// Misuse is an *ArgumentError; a device without transform feedback or a graphics queue wraps
// ErrUnavailable.
func (d *Device) CaptureVertices(ctx context.Context, vert []byte, entry string, x VertexArgs) ([]byte, error) {
	begin, end, err := d.renderingFns()
	if err != nil {
		return nil, err
	}
	ld := d.dev
	none := len(x.Outputs) == 0 && x.Stride == 0 && len(x.Initial) == 0 // buffer writes only
	switch {
	case !ld.xfb && !none || begin == 0 || ld.draw.CmdBindVertexBuffers == 0:
		return nil, fmt.Errorf("%w: %s: no transform feedback or dynamic rendering", ErrUnavailable, ld.phys.facts.Name)
	case x.Vertices < 3 || x.Vertices > 768 || x.Vertices%3 != 0:
		return nil, argErr("CaptureVertices", -1, "%d vertices: a multiple of 3 from 3 to 768", x.Vertices)
	case none:
	case x.Stride == 0 || x.Stride%4 != 0 || x.Stride > 512:
		return nil, argErr("CaptureVertices", -1, "stride %d: a multiple of 4 up to 512", x.Stride)
	case len(x.Initial) != int(x.Vertices*x.Stride):
		return nil, argErr("CaptureVertices", -1, "%d initial bytes for %d vertices of %d", len(x.Initial), x.Vertices, x.Stride)
	}
	m, e, err := d.stageModule("CaptureVertices", vert, execModelVertex, "Vertex", entry, x.Bindings, x.Specialization)
	if err != nil {
		return nil, err
	}
	offsets := map[uint32]uint32{}
	for i, o := range x.Outputs {
		id, typ, found := uint32(0), uint32(0), false
		for _, vid := range e.Interface {
			v, ok := m.vars[vid]
			if !ok || v.Class != scOutput {
				continue
			}
			pt := m.types[v.PtrType]
			if len(pt) < 4 {
				continue
			}
			dec := m.decorations[vid]
			loc, hasLoc := dec[decLocation]
			bi, hasBI := dec[decBuiltIn]
			if o.Location >= 0 && hasLoc && loc == uint32(o.Location) || o.Location < 0 && hasBI && bi == o.BuiltIn {
				id, typ, found = vid, pt[3], true
				break
			}
		}
		if !found {
			return nil, argErr("CaptureVertices", i, "no output at location %d / built-in %d", o.Location, o.BuiltIn)
		}
		size := m.outputSize(typ)
		if size == 0 || o.Offset%4 != 0 || o.Offset+size > x.Stride {
			return nil, argErr("CaptureVertices", i, "output %d bytes at offset %d of %d-byte records (32-bit scalars or vectors only)", size, o.Offset, x.Stride)
		}
		offsets[id] = o.Offset
	}
	words := m.words
	if !none {
		if len(offsets) == 0 {
			return nil, argErr("CaptureVertices", -1, "no output to capture")
		}
		if words, err = m.withXfb(e.ID, offsets, x.Stride); err != nil {
			return nil, err
		}
	}
	attrs, err := vertexAttributes(m, e)
	if err != nil {
		return nil, argErr("CaptureVertices", -1, "vertex %q: %v", entry, err)
	}
	stride := 32 * len(attrs)
	var vdata []byte
	if len(attrs) > 0 {
		vdata = make([]byte, int(x.Vertices)*stride)
		for k, a := range attrs {
			per, ok := x.Attributes[a.Location]
			if !ok || len(per) != int(x.Vertices) {
				return nil, argErr("CaptureVertices", -1, "input location %d: %d vertices' values, want %d", a.Location, len(per), x.Vertices)
			}
			for v, ws := range per {
				if len(ws) > 4 {
					return nil, argErr("CaptureVertices", -1, "input location %d: %d components", a.Location, len(ws))
				}
				for c, w := range ws {
					putWord(vdata, v*stride+32*k+4*c, w)
				}
			}
		}
	}
	if err := d.enter(); err != nil {
		return nil, err
	}
	p, err := ld.newGraphicsPipeline(graphicsDesc{vert: words, vertEntry: e.Name, attrs: attrs, bindings: m.bindings, spec: mergeSpec(nil, x.Specialization)}, false)
	var capture, vbuf *Buffer
	release := func() {
		if capture != nil {
			capture.destroy()
		}
		if vbuf != nil {
			vbuf.destroy()
		}
		if p != nil {
			p.destroy()
		}
	}
	if err == nil && !none {
		capture, err = d.newBuffer(int64(len(x.Initial)))
	}
	if err == nil && vdata != nil {
		vbuf, err = d.newBuffer(int64(len(vdata)))
	}
	d.leave()
	if err != nil {
		release()
		return nil, err
	}
	if capture != nil {
		copy(capture.Bytes(), x.Initial)
	}
	if vbuf != nil {
		copy(vbuf.Bytes(), vdata)
	}
	if err := d.submitWait(ctx, x.Timing, func(enc *Encoder) error {
		return d.recordCapture(enc, p, m.bindings, x, capture, vbuf, begin, end)
	}, release); err != nil {
		return nil, err
	}
	var out []byte
	if capture != nil {
		out = append([]byte(nil), capture.Bytes()...)
	}
	release()
	return out, nil
}

func putWord(b []byte, at int, w uint32) {
	b[at], b[at+1], b[at+2], b[at+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
}

// recordCapture records the capture draw into the open command buffer.
func (d *Device) recordCapture(enc *Encoder, p *computePipeline, bindings []spirvBinding, x VertexArgs, capture, vbuf *Buffer, begin, end uintptr) error {
	a := vk.GetArena()
	defer vk.PutArena(a)
	cmd, sets, err := d.graphicsPrologue(enc, a, p, bindings, x.Bindings)
	if err != nil {
		return err
	}
	ld := d.dev
	ri := vk.New[vk.RenderingInfo](a)
	ri.SType = vk.StructureTypeRenderingInfo
	ri.RenderArea = vk.Rect2D{Width: 1, Height: 1}
	ri.LayerCount = 1
	vk.Call(begin, cmd, vk.Addr(ri))
	bindGraphics(ld, a, cmd, p, sets, ri.RenderArea)
	if vbuf != nil {
		bufs := vk.New[uint64](a)
		*bufs = vbuf.buffer
		offs := vk.New[uint64](a)
		vk.Call(ld.draw.CmdBindVertexBuffers, cmd, 0, 1, vk.Addr(bufs), vk.Addr(offs))
	}
	if capture == nil {
		// No outputs: the vertices run for their buffer writes.
		vk.Call(ld.draw.CmdDraw, cmd, uintptr(x.Vertices), 1, 0, 0)
	} else {
		xb := vk.New[uint64](a)
		*xb = capture.buffer
		xo := vk.New[uint64](a)
		vk.Call(ld.draw.CmdBindTransformFeedbackBuffersEXT, cmd, 0, 1, vk.Addr(xb), vk.Addr(xo), 0)
		vk.Call(ld.draw.CmdBeginTransformFeedbackEXT, cmd, 0, 0, 0, 0)
		vk.Call(ld.draw.CmdDraw, cmd, uintptr(x.Vertices), 1, 0, 0)
		vk.Call(ld.draw.CmdEndTransformFeedbackEXT, cmd, 0, 0, 0, 0)
	}
	vk.Call(end, cmd)
	barrier(ld, cmd, vk.PipelineStageTransformFeedback|vk.PipelineStageVertexShader, vk.PipelineStageHost,
		vk.AccessTransformFeedbackWrite|vk.AccessShaderWrite, vk.AccessHostRead)
	return nil
}

package device

import (
	"context"
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// DrawTarget is one colour attachment of a draw, at the location of its index in DrawArgs.Targets.
type DrawTarget struct {
	// Format is the attachment's format; FormatUndefined leaves the location without one.
	Format Format
	// Mask is the colour write mask (bit c: component c); 0 writes every component. Components
	// the shader's output lacks must be left out: Vulkan leaves them undefined otherwise.
	Mask uint32
	// Clear is what the attachment holds before the draw: VkClearColorValue's four 32-bit
	// words, read as the format's numeric type (float, int or uint).
	Clear [4]uint32
	// Input marks a target the shader also reads as input attachment <its location>
	// (programmable blending): the draw then runs in a render pass (inputattach.go) and the
	// shader reads Clear. FragmentTargets sets it for every input attachment the shader has.
	Input bool
	// NoWrite leaves the target unwritten (colour write mask 0): a target the shader reads
	// but has no output for.
	NoWrite bool
}

// DrawArgs are one full-screen draw of a fragment shader.
type DrawArgs struct {
	// Width and Height are the render targets' size in pixels (each 1..256).
	Width, Height uint32
	// Targets are the colour attachments, by location.
	Targets []DrawTarget
	// Inputs are, by location, the 32-bit words (one per component) every vertex gives the
	// fragment input there; every input the shader reads must have one.
	Inputs map[uint32][]uint32
	// Bindings bind the shader's buffers, textures and sampler.
	Bindings []Binding
	// Specialization gives the fragment shader's specialization constants their values (at
	// most once per SpecId); the others keep their defaults, undeclared SpecIds are ignored.
	Specialization []SpecValue
	// Depth, when not nil, must be Width·Height·4 bytes: the draw then has a D32_SFLOAT depth
	// attachment, cleared to 1.0 and written by every fragment (depth test on with compare op
	// ALWAYS, depth clamping off, viewport depth range [0, 1]), and Draw copies its contents
	// (row-major float32 words, little-endian) into Depth. A fragment without a FragDepth
	// output leaves the rasterised depth, 0.5 (the full-screen triangle's z).
	Depth []byte
	// Stencil, when not nil, must be Width·Height bytes: the draw then has a stencil
	// aspect (one D32_SFLOAT_S8_UINT attachment with the depth, if any; depth.go),
	// cleared to StencilClear, tested with compare op ALWAYS and replaced by every fragment
	// with its stencil reference — the FragStencilRefEXT a shader exports
	// (VK_EXT_shader_stencil_export), else the pipeline's reference, 0 — all 8 bits
	// written; Draw copies it (row-major, a byte per pixel) into Stencil.
	Stencil      []byte
	StencilClear uint8
	// ScratchDepth, when neither Depth nor Stencil is set, gives the draw the depth attachment
	// Depth describes (compare op ALWAYS, so every fragment passes and no colour target or
	// buffer changes), in a buffer of Draw's own that it drops after. Lavapipe compiles the
	// fragment shader once for such a draw, where for an opaque one (no depth, stencil or
	// alpha test, no blending or logic op, the first target's colour mask full, no discard)
	// llvmpipe's generate_variant also builds a whole-block variant.
	ScratchDepth bool
	// Timing, when not nil, receives the GPU time of the command buffer that holds the draw
	// and the copies of its targets (Draw splits after them).
	Timing *Timing
}

// texelSize is the bytes per pixel of the formats Draw reads back.
var texelSize = map[Format]int{
	98: 4, 99: 4, 100: 4, 101: 8, 102: 8, 103: 8, 104: 12, 105: 12, 106: 12,
	FormatR32G32B32A32Uint: 16, FormatR32G32B32A32Sint: 16, FormatR32G32B32A32Sfloat: 16,
	FormatR8G8B8A8Unorm: 4, FormatB8G8R8A8Unorm: 4, FormatR16G16B16A16Sfloat: 8,
}

// drawImage is one attachment's image, memory, view and readback buffer.
type drawImage struct {
	image, memory, view uint64
	readback            *Buffer
	size                int
	// format is the image's format; aspect, for a depth attachment (depth.go), its aspects:
	// depth, or depth and stencil (D32_SFLOAT_S8_UINT, whose stencil bytes the readback
	// holds after the depth words).
	format, aspect uint32
}

// Draw draws the fragment entry point entry of frag once over every pixel of Width×Height
// render targets and returns, per target, its pixels after the draw (row-major, tightly packed;
// nil for a location without an attachment). A generated vertex shader (fullScreenVertex)
// draws one triangle covering the viewport (z 0.5, w 1, so FragCoord is (x+0.5, y+0.5, 0.5, 1))
// and gives each fragment input its constant from Inputs. The attachments start as their
// Clear value, are rendered with dynamic rendering (in a render pass when a target is marked
// Input: the shader reads it as an input attachment, inputattach.go), and are copied to
// host-visible buffers.
// With DrawArgs.Depth the draw also has a depth attachment, copied into Depth (see its doc).
//
// Misuse is an *ArgumentError; a device without a graphics queue or dynamic rendering wraps
// ErrUnavailable; a driver refusal is a *DriverError. When the context ends first, the
// device may still be drawing: the attachments are then left allocated.
func (d *Device) Draw(ctx context.Context, frag []byte, entry string, x DrawArgs) ([][]byte, error) {
	begin, end, err := d.renderingFns()
	if err != nil {
		return nil, err
	}
	ld := d.dev
	switch {
	case begin == 0 || end == 0 || ld.draw.CmdDraw == 0 || ld.draw.CreateImage == 0:
		return nil, fmt.Errorf("%w: %s: no dynamic rendering", ErrUnavailable, ld.phys.facts.Name)
	case x.Width < 1 || x.Height < 1 || x.Width > 256 || x.Height > 256:
		return nil, argErr("Draw", -1, "%d×%d pixels: each side must be 1..256", x.Width, x.Height)
	case len(x.Targets) > 8:
		return nil, argErr("Draw", -1, "%d colour targets: at most 8", len(x.Targets))
	case x.Depth != nil && len(x.Depth) != int(x.Width)*int(x.Height)*4:
		return nil, argErr("Draw", -1, "depth buffer of %d bytes: want %d×%d×4 = %d", len(x.Depth), x.Width, x.Height, int(x.Width)*int(x.Height)*4)
	case x.Stencil != nil && len(x.Stencil) != int(x.Width)*int(x.Height):
		return nil, argErr("Draw", -1, "stencil buffer of %d bytes: want %d×%d = %d", len(x.Stencil), x.Width, x.Height, int(x.Width)*int(x.Height))
	}
	if x.ScratchDepth && x.Depth == nil && x.Stencil == nil {
		x.Depth = make([]byte, int(x.Width)*int(x.Height)*4) // x is this call's copy
	}
	withDepth := x.Depth != nil || x.Stencil != nil
	if withDepth {
		if err := ld.checkDepthFormat(depthFormatFor(x.Stencil != nil)); err != nil {
			return nil, err
		}
	}
	fm, fe, err := d.stageModule("Draw", frag, execModelFragment, "Fragment", entry, x.Bindings, x.Specialization)
	if err != nil {
		return nil, err
	}
	formats := make([]Format, len(x.Targets))
	masks := make([]uint32, len(x.Targets))
	for i, t := range x.Targets {
		if t.Format != FormatUndefined && texelSize[t.Format] == 0 {
			return nil, argErr("Draw", i, "target format %d cannot be read back", t.Format)
		}
		formats[i], masks[i] = t.Format, t.Mask
		if masks[i] == 0 {
			masks[i] = vk.ColorComponentAll
		}
		if t.NoWrite {
			masks[i] = 0
		}
	}
	inputs, err := checkInputTargets(fm, x.Targets)
	if err != nil {
		return nil, err
	}
	vert, err := fullScreenVertex(fm, fe, x.Inputs)
	if err != nil {
		return nil, argErr("Draw", -1, "vertex shader for fragment %q: %v", entry, err)
	}
	if err := d.enter(); err != nil {
		return nil, err
	}
	imgs := make([]*drawImage, len(x.Targets))
	var depth *drawImage
	var rp *renderPass
	p := &computePipeline{dev: ld}
	release := func() {
		for _, im := range append(imgs, depth) {
			if im != nil {
				ld.destroyImage(im)
			}
		}
		rp.destroy(ld)
		p.destroy()
	}
	for i, t := range x.Targets {
		if t.Format == FormatUndefined {
			continue
		}
		im, err := d.newTargetImage(t, x.Width, x.Height)
		if im != nil {
			imgs[i] = im
		}
		if err != nil {
			release()
			d.leave()
			return nil, err
		}
	}
	if withDepth {
		var err error
		if depth, err = d.newDepthImage(x.Width, x.Height, x.Stencil != nil); err != nil {
			release()
			d.leave()
			return nil, err
		}
	}
	var pass uint64
	if len(inputs) > 0 {
		if rp, err = ld.newRenderPass(x.Targets, imgs, depth, x.StencilClear, x.Width, x.Height); err != nil {
			release()
			d.leave()
			return nil, err
		}
		pass = rp.pass
	}
	gp, err := ld.newGraphicsPipeline(graphicsDesc{vert: vert, vertEntry: "main", frag: fm.words, fragEntry: fe.Name,
		bindings: fm.bindings, formats: formats, masks: masks, spec: mergeSpec(nil, x.Specialization), depth: x.Depth != nil, stencil: x.Stencil != nil, renderPass: pass}, false)
	if err != nil {
		release()
		d.leave()
		return nil, err
	}
	*p = *gp
	d.leave()
	if err := d.submitWait(ctx, x.Timing, func(enc *Encoder) error {
		return d.recordDraw(enc, p, fm.bindings, imgs, depth, x, begin, end, rp, inputs)
	}, release); err != nil {
		return nil, err
	}
	out := make([][]byte, len(x.Targets))
	for i, im := range imgs {
		if im != nil {
			out[i] = append([]byte(nil), im.readback.Bytes()[:im.size]...)
		}
	}
	if x.Depth != nil {
		copy(x.Depth, depth.readback.Bytes())
	}
	if x.Stencil != nil {
		copy(x.Stencil, depth.readback.Bytes()[stencilOffset(x.Width, x.Height):])
	}
	release()
	return out, nil
}

// newAttachment makes a w×h attachment image of format (texel bytes a pixel), usable as
// usage and as a transfer source, its 2D view over rng and its readback buffer. On failure
// it returns what it made so far (for destroyImage).
func (d *Device) newAttachment(format uint32, texel int, usage uint32, rng vk.ImageSubresourceRange, w, h uint32) (*drawImage, error) {
	ld := d.dev
	a := vk.GetArena()
	defer vk.PutArena(a)
	im := &drawImage{size: int(w) * int(h) * texel, format: format, aspect: rng.AspectMask}
	ci := vk.New[vk.ImageCreateInfo](a)
	ci.ImageType = vk.ImageType2D
	ci.Format = format
	ci.Extent = vk.Extent3D{Width: w, Height: h, Depth: 1}
	ci.ArrayLayers = 1
	ci.Usage = usage | vk.ImageUsageTransferSrc
	var err error
	im.image, im.memory, im.view, err = ld.newImage(ci, vk.ImageViewType2D, rng)
	if err != nil {
		return im, err
	}
	b, err := d.newBuffer(int64(im.size))
	if err != nil {
		return im, err
	}
	im.readback = b
	return im, nil
}

// newImage makes the optimally tiled, one-level image that ci describes (its type, flags,
// format, extent, layers, usage and samples, single-sampled when 0; newImage fills in the rest), binds it to
// memory of the device (device-local where there is such) and makes a view of viewType over
// rng. On failure it returns the handles it made so far (for destroyImageObjects).
func (ld *logical) newImage(ci *vk.ImageCreateInfo, viewType uint32, rng vk.ImageSubresourceRange) (image, memory, view uint64, err error) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	ci.SType = vk.StructureTypeImageCreateInfo
	ci.MipLevels = 1
	if ci.Samples == 0 {
		ci.Samples = vk.SampleCount1 // a multisample texture sets its own (msimage.go)
	}
	ci.Tiling = vk.ImageTilingOptimal
	out := vk.New[uint64](a)
	if err := check("vkCreateImage", vk.CallResult(ld.draw.CreateImage, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
		return 0, 0, 0, err
	}
	image = *out
	req := vk.New[vk.MemoryRequirements](a)
	vk.Call(ld.draw.GetImageMemoryRequirements, ld.handle, uintptr(image), vk.Addr(req))
	mt, ok := ld.memoryType(req.MemoryTypeBits, 0)
	if !ok {
		return image, 0, 0, fmt.Errorf("device: %s has no memory type for a %d-format image", ld.phys.facts.Name, ci.Format)
	}
	ai := vk.New[vk.MemoryAllocateInfo](a)
	ai.SType = vk.StructureTypeMemoryAllocateInfo
	ai.AllocationSize = req.Size
	ai.MemoryTypeIndex = mt
	if err := check("vkAllocateMemory", vk.CallResult(ld.fns.AllocateMemory, ld.handle, vk.Addr(ai), 0, vk.Addr(out))); err != nil {
		return image, 0, 0, err
	}
	memory = *out
	if err := check("vkBindImageMemory", vk.CallResult(ld.draw.BindImageMemory, ld.handle, uintptr(image), uintptr(memory), 0)); err != nil {
		return image, memory, 0, err
	}
	vi := vk.New[vk.ImageViewCreateInfo](a)
	vi.SType = vk.StructureTypeImageViewCreateInfo
	vi.Image = image
	vi.ViewType = viewType
	vi.Format = ci.Format
	vi.SubresourceRange = rng
	if err := check("vkCreateImageView", vk.CallResult(ld.draw.CreateImageView, ld.handle, vk.Addr(vi), 0, vk.Addr(out))); err != nil {
		return image, memory, 0, err
	}
	return image, memory, *out, nil
}

func colorRange() vk.ImageSubresourceRange {
	return vk.ImageSubresourceRange{AspectMask: vk.ImageAspectColor, LevelCount: 1, LayerCount: 1}
}

// destroyImage frees what newAttachment made.
func (ld *logical) destroyImage(im *drawImage) {
	if im.readback != nil {
		im.readback.destroy()
	}
	ld.destroyImageObjects(im.image, im.memory, im.view)
}

// destroyImageObjects frees what newImage made (0 handles are skipped).
func (ld *logical) destroyImageObjects(image, memory, view uint64) {
	if view != 0 {
		vk.Call(ld.draw.DestroyImageView, ld.handle, uintptr(view), 0)
	}
	if image != 0 {
		vk.Call(ld.draw.DestroyImage, ld.handle, uintptr(image), 0)
	}
	if memory != 0 {
		vk.Call(ld.fns.FreeMemory, ld.handle, uintptr(memory), 0)
	}
}

// layoutBarrier is the barrier that moves rng of image from layout from to layout to.
func layoutBarrier(image uint64, rng vk.ImageSubresourceRange, srcAccess, dstAccess, from, to uint32) vk.ImageMemoryBarrier {
	return vk.ImageMemoryBarrier{SType: vk.StructureTypeImageMemoryBarrier, SrcAccessMask: srcAccess, DstAccessMask: dstAccess,
		OldLayout: from, NewLayout: to, SrcQueueFamilyIndex: vk.QueueFamilyIgnored, DstQueueFamilyIndex: vk.QueueFamilyIgnored,
		Image: image, SubresourceRange: rng}
}

// imageBarrier records a layout transition of every image in imgs.
func imageBarrier(ld *logical, cmd uintptr, imgs []*drawImage, srcStage, dstStage, srcAccess, dstAccess, from, to uint32) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	var live []*drawImage
	for _, im := range imgs {
		if im != nil {
			live = append(live, im)
		}
	}
	if len(live) == 0 {
		return
	}
	bs := vk.NewArray[vk.ImageMemoryBarrier](a, len(live))
	for i, im := range live {
		bs[i] = layoutBarrier(im.image, colorRange(), srcAccess, dstAccess, from, to)
	}
	vk.Call(ld.fns.CmdPipelineBarrier, cmd, uintptr(srcStage), uintptr(dstStage), 0, 0, 0, 0, 0, uintptr(len(bs)), vk.SliceAddr(bs))
}

// recordDraw records the draw and the copies of its attachments (depth: when not nil) into
// the open command buffer.
func (d *Device) recordDraw(enc *Encoder, p *computePipeline, bindings []spirvBinding, imgs []*drawImage, depth *drawImage, x DrawArgs, begin, end uintptr,
	rp *renderPass, inputs []inputAttachment) error {
	a := vk.GetArena()
	defer vk.PutArena(a)
	cmd, sets, err := d.graphicsPrologue(enc, a, p, withoutInputAttachments(bindings), x.Bindings)
	if err != nil {
		return err
	}
	ld := d.dev
	layout := uint32(vk.ImageLayoutColorAttach)
	if rp != nil {
		// Input attachments: a render pass, the targets in GENERAL (inputattach.go).
		ld.writeInputAttachments(sets, inputs, imgs)
		d.recordRenderPass(cmd, a, rp, p, sets, imgs, depth, x)
		layout = vk.ImageLayoutGeneral
	} else {
		recordRendering(ld, a, cmd, p, sets, imgs, depth, x, begin, end)
	}
	imageBarrier(ld, cmd, imgs, vk.PipelineStageColorAttachmentOutput, vk.PipelineStageTransfer, vk.AccessColorAttachmentWrite, vk.AccessTransferRead,
		layout, vk.ImageLayoutTransferSrc)
	for _, im := range imgs {
		if im == nil {
			continue
		}
		r := vk.New[vk.BufferImageCopy](a)
		r.ImageSubresource = [4]uint32{vk.ImageAspectColor, 0, 0, 1}
		r.ImageExtent = vk.Extent3D{Width: x.Width, Height: x.Height, Depth: 1}
		vk.Call(ld.draw.CmdCopyImageToBuffer, cmd, uintptr(im.image), vk.ImageLayoutTransferSrc, uintptr(im.readback.buffer), 1, vk.Addr(r))
	}
	if depth != nil {
		recordDepthCopy(ld, cmd, depth, x.Width, x.Height)
	}
	barrier(ld, cmd, vk.PipelineStageTransfer|vk.PipelineStageFragmentShader, vk.PipelineStageHost,
		vk.AccessTransferWrite|vk.AccessShaderWrite, vk.AccessHostRead)
	return nil
}

// recordRendering records the draw with dynamic rendering: the targets' (and depth's) move
// to their attachment layouts, the rendering with its clears, the pipeline and its sets, the
// triangle.
func recordRendering(ld *logical, a *vk.Arena, cmd uintptr, p *computePipeline, sets []uint64, imgs []*drawImage, depth *drawImage, x DrawArgs, begin, end uintptr) {
	imageBarrier(ld, cmd, imgs, vk.PipelineStageTopOfPipe, vk.PipelineStageColorAttachmentOutput, 0, vk.AccessColorAttachmentWrite,
		vk.ImageLayoutUndefined, vk.ImageLayoutColorAttach)
	if depth != nil {
		depthBarrier(ld, cmd, depth, vk.PipelineStageTopOfPipe, vk.PipelineStageEarlyFragmentTests|vk.PipelineStageLateFragmentTests, 0,
			vk.AccessDepthStencilAttachmentRead|vk.AccessDepthStencilAttachmentWrite, vk.ImageLayoutUndefined, vk.ImageLayoutDepthStencilAttach)
	}
	atts := vk.NewArray[vk.RenderingAttachmentInfo](a, max(len(x.Targets), 1))
	for i, t := range x.Targets {
		atts[i] = vk.RenderingAttachmentInfo{SType: vk.StructureTypeRenderingAttachmentInfo}
		if imgs[i] == nil {
			continue
		}
		atts[i].ImageView = imgs[i].view
		atts[i].ImageLayout = vk.ImageLayoutColorAttach
		atts[i].LoadOp = vk.AttachmentLoadOpClear
		atts[i].StoreOp = vk.AttachmentStoreOpStore
		atts[i].ClearValue = t.Clear
	}
	ri := vk.New[vk.RenderingInfo](a)
	ri.SType = vk.StructureTypeRenderingInfo
	ri.RenderArea = vk.Rect2D{Width: x.Width, Height: x.Height}
	ri.LayerCount = 1
	ri.ColorAttachmentCount = uint32(len(x.Targets))
	ri.PColorAttachments = vk.SliceAddr(atts)
	if depth != nil {
		at := vk.Addr(depthAttachment(a, depth, x.StencilClear))
		ri.PDepthAttachment = at
		if depth.aspect&vk.ImageAspectStencil != 0 {
			ri.PStencilAttachment = at // the same view, both aspects
		}
	}
	vk.Call(begin, cmd, vk.Addr(ri))
	bindGraphics(ld, a, cmd, p, sets, ri.RenderArea)
	vk.Call(ld.draw.CmdDraw, cmd, 3, 1, 0, 0)
	vk.Call(end, cmd)
}

// FragmentTargets gives, per colour output location of the fragment entry point entry, the
// target Draw reads it through: a four-component 32-bit format of the output's numeric type
// (float, signed or unsigned) and a write mask of the output's components, so that the others
// keep their clear value. Locations without an output get FormatUndefined. Outputs must be
// 32-bit scalars or vectors, as airpipe's translation writes them (ABI.md).
func FragmentTargets(spirv []byte, entry string) ([]DrawTarget, error) {
	m, err := parseSPIRV(spirv)
	if err != nil {
		return nil, err
	}
	e, ok := m.entry(execModelFragment, entry)
	if !ok {
		return nil, argErr("FragmentTargets", -1, "module has no Fragment entry point %q", entry)
	}
	var out []DrawTarget
	for _, v := range m.ioVars(e, scOutput) {
		t := m.types[v.Type]
		n := uint32(1)
		if len(t) >= 4 && t[0]&0xffff == opTypeVector {
			n, t = t[3], m.types[t[2]]
		}
		var f Format
		switch {
		case len(t) >= 3 && t[0]&0xffff == opTypeFloat && t[2] == 32:
			f = FormatR32G32B32A32Sfloat
		case len(t) >= 4 && t[0]&0xffff == opTypeInt && t[2] == 32 && t[3] == 1:
			f = FormatR32G32B32A32Sint
		case len(t) >= 4 && t[0]&0xffff == opTypeInt && t[2] == 32:
			f = FormatR32G32B32A32Uint
		}
		if f == FormatUndefined || n < 1 || n > 4 {
			return nil, argErr("FragmentTargets", -1, "output location %d: type %%%d is not a 32-bit scalar or vector of up to 4", v.Location, v.Type)
		}
		if v.Location >= 8 {
			return nil, argErr("FragmentTargets", -1, "output location %d: beyond 8 colour attachments", v.Location)
		}
		if _, dual := m.decorations[v.ID][decIndex]; dual {
			return nil, argErr("FragmentTargets", -1, "output location %d has an Index (dual-source blending)", v.Location)
		}
		for len(out) <= int(v.Location) {
			out = append(out, DrawTarget{})
		}
		out[v.Location] = DrawTarget{Format: f, Mask: 1<<n - 1}
	}
	return markInputTargets(m, out) // input attachments (inputattach.go)
}

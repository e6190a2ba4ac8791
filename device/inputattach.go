package device

import (
	"fmt"
	"math"
	"sort"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Input attachments: a fragment shader that reads colour attachment n at its own pixel
// (Metal's programmable blending, compiler/translate/ABI.md) declares an OpTypeImage
// SubpassData decorated InputAttachmentIndex n. Draw binds such a shader inside a render
// pass (dynamic rendering reads no input attachments without
// VK_KHR_dynamic_rendering_local_read) whose one subpass uses each DrawTarget marked Input
// both as colour attachment n and as input attachment n, in layout GENERAL (a feedback
// loop), with a by-region self-dependency from colour writes to input-attachment reads;
// the shader's INPUT_ATTACHMENT descriptor is that target's view. What the shader reads is
// the target's Clear value: one full-screen triangle covers each pixel once.

// decInputAttachmentIndex is SPIR-V's InputAttachmentIndex decoration.
const decInputAttachmentIndex = 43

// inputAttachment is one input attachment a module declares: its descriptor, its
// InputAttachmentIndex and the numeric kind of its image's sampled type ('f', 'i', 'u').
type inputAttachment struct {
	set, binding, index uint32
	kind                byte
}

// inputAttachments lists the module's input attachments, by index. A SubpassData image
// without InputAttachmentIndex is an error.
func (m *spirvModule) inputAttachments() ([]inputAttachment, error) {
	var out []inputAttachment
	for id, v := range m.vars {
		if v.Class != scUniformConstant {
			continue
		}
		ptr := m.types[v.PtrType]
		if len(ptr) < 4 {
			continue
		}
		img := m.types[ptr[3]]
		if len(img) < 9 || img[0]&0xffff != opTypeImage || img[3] != 6 { // 6: SubpassData
			continue
		}
		d := m.decorations[id]
		idx, ok := d[decInputAttachmentIndex]
		if !ok {
			return nil, fmt.Errorf("SubpassData variable %%%d has no InputAttachmentIndex", id)
		}
		out = append(out, inputAttachment{set: d[decDescriptorSet], binding: d[decBinding], index: idx, kind: numericKind(m.types[img[2]])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out, nil
}

// withoutInputAttachments is bs less its INPUT_ATTACHMENT descriptors, which Draw binds
// itself (to its targets' views), so callers neither give nor are asked for them.
func withoutInputAttachments(bs []spirvBinding) []spirvBinding {
	var out []spirvBinding
	for _, b := range bs {
		if b.Type != vk.DescriptorTypeInputAttachment {
			out = append(out, b)
		}
	}
	return out
}

// kindFormats are the formats FragmentTargets gives a target of each numeric kind.
var kindFormats = map[byte]Format{'f': FormatR32G32B32A32Sfloat, 'i': FormatR32G32B32A32Sint, 'u': FormatR32G32B32A32Uint}

// formatKinds is the numeric kind of each format a target may have when it is read as an
// input attachment.
var formatKinds = map[Format]byte{
	FormatR32G32B32A32Sfloat: 'f', FormatR32G32B32A32Sint: 'i', FormatR32G32B32A32Uint: 'u',
	FormatR32Sfloat: 'f', FormatR32Uint: 'u', FormatR16G16B16A16Sfloat: 'f', FormatR8G8B8A8Unorm: 'f', FormatB8G8R8A8Unorm: 'f',
}

// markInputTargets marks, in the targets FragmentTargets found from m's outputs, each
// location m reads as an input attachment; a location it reads but does not write gets a
// target of the input's kind that the draw does not write (NoWrite).
func markInputTargets(m *spirvModule, out []DrawTarget) ([]DrawTarget, error) {
	ias, err := m.inputAttachments()
	if err != nil {
		return nil, argErr("FragmentTargets", -1, "%v", err)
	}
	for _, ia := range ias {
		f, ok := kindFormats[ia.kind]
		switch {
		case !ok:
			return nil, argErr("FragmentTargets", -1, "input attachment %d: its image's sampled type is not a 32-bit float or integer", ia.index)
		case ia.index >= 8:
			return nil, argErr("FragmentTargets", -1, "input attachment %d: beyond 8 colour attachments", ia.index)
		}
		for len(out) <= int(ia.index) {
			out = append(out, DrawTarget{})
		}
		t := &out[ia.index]
		if t.Format == FormatUndefined {
			*t = DrawTarget{Format: f, NoWrite: true}
		} else if t.Format != f {
			return nil, argErr("FragmentTargets", -1, "input attachment %d reads %q values; the output at location %d writes %q", ia.index, ia.kind, ia.index, formatKinds[t.Format])
		}
		t.Input = true
	}
	return out, nil
}

// checkInputTargets says whether targets give every input attachment of m a target marked
// Input of its numeric kind, and that each target marked Input is read by m; it returns m's
// input attachments.
func checkInputTargets(m *spirvModule, targets []DrawTarget) ([]inputAttachment, error) {
	ias, err := m.inputAttachments()
	if err != nil {
		return nil, argErr("Draw", -1, "%v", err)
	}
	read := map[uint32]bool{}
	for _, ia := range ias {
		if int(ia.index) >= len(targets) || !targets[ia.index].Input {
			return nil, argErr("Draw", -1, "the shader reads input attachment %d (set %d binding %d); Targets[%d] is not marked Input", ia.index, ia.set, ia.binding, ia.index)
		}
		t := targets[ia.index]
		if k, ok := formatKinds[t.Format]; !ok || k != ia.kind {
			return nil, argErr("Draw", int(ia.index), "input attachment %d reads %q values; the target's format %d is not of that kind", ia.index, ia.kind, t.Format)
		}
		read[ia.index] = true
	}
	for i, t := range targets {
		if t.Input && !read[uint32(i)] {
			return nil, argErr("Draw", i, "target %d is marked Input; the shader reads no input attachment %d", i, i)
		}
	}
	return ias, nil
}

// renderPass is the render pass and framebuffer of a draw that reads input attachments.
type renderPass struct {
	pass, framebuffer uint64
	clears            [][4]uint32 // one VkClearValue per attachment, in attachment order
}

// newRenderPass makes the render pass of a draw into targets (their images imgs; depth, if
// not nil, is the depth attachment, its stencil cleared to stencilClear) whose subpass reads the targets marked Input
// as input attachments, and its framebuffer of w×h. On failure it returns what it made so
// far (for destroy).
func (ld *logical) newRenderPass(targets []DrawTarget, imgs []*drawImage, depth *drawImage, stencilClear uint8, w, h uint32) (*renderPass, error) {
	rp, views, err := ld.newPass(targets, imgs, depth, stencilClear)
	if err != nil {
		return rp, err
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	va := vk.NewArray[uint64](a, max(len(views), 1))
	copy(va, views)
	fi := vk.New[vk.FramebufferCreateInfo](a)
	fi.SType = vk.StructureTypeFramebufferCreateInfo
	fi.RenderPass = rp.pass
	fi.AttachmentCount = uint32(len(views))
	fi.PAttachments = vk.SliceAddr(va)
	fi.Width, fi.Height, fi.Layers = w, h, 1
	out := vk.New[uint64](a)
	if err := check("vkCreateFramebuffer", vk.CallResult(ld.rp.CreateFramebuffer, ld.handle, vk.Addr(fi), 0, vk.Addr(out))); err != nil {
		return rp, err
	}
	rp.framebuffer = *out
	return rp, nil
}

// newPass makes the render pass newRenderPass describes and returns the views its
// framebuffer takes, in attachment order. imgs and depth nil make the pass alone (a pipeline
// is built for it, nothing drawn): every target of a format then has an attachment.
func (ld *logical) newPass(targets []DrawTarget, imgs []*drawImage, depth *drawImage, stencilClear uint8) (*renderPass, []uint64, error) {
	rp := &renderPass{}
	if ld.rp.CreateRenderPass == 0 || ld.rp.DestroyRenderPass == 0 || ld.rp.CreateFramebuffer == 0 || ld.rp.CmdBeginRenderPass == 0 {
		return rp, nil, fmt.Errorf("%w: %s: no render pass functions", ErrUnavailable, ld.phys.facts.Name)
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	var descs []vk.AttachmentDescription
	var views []uint64
	colour := vk.NewArray[vk.AttachmentReference](a, max(len(targets), 1))
	input := vk.NewArray[vk.AttachmentReference](a, max(len(targets), 1))
	inputs := 0
	for i, t := range targets {
		colour[i] = vk.AttachmentReference{Attachment: vk.AttachmentUnused, Layout: vk.ImageLayoutGeneral}
		input[i] = colour[i]
		if t.Format == FormatUndefined || imgs != nil && imgs[i] == nil {
			continue
		}
		colour[i].Attachment = uint32(len(descs))
		if t.Input {
			input[i].Attachment = uint32(len(descs))
			inputs = i + 1
		}
		descs = append(descs, vk.AttachmentDescription{Format: uint32(t.Format), Samples: vk.SampleCount1, LoadOp: vk.AttachmentLoadOpClear,
			StoreOp: vk.AttachmentStoreOpStore, StencilLoadOp: vk.AttachmentLoadOpDontCare, StencilStoreOp: vk.AttachmentStoreOpDontCare,
			InitialLayout: vk.ImageLayoutGeneral, FinalLayout: vk.ImageLayoutGeneral})
		if imgs != nil {
			views = append(views, imgs[i].view)
		}
		rp.clears = append(rp.clears, t.Clear)
	}
	sub := vk.New[vk.SubpassDescription](a)
	sub.PipelineBindPoint = vk.PipelineBindPointGraphics
	sub.ColorAttachmentCount = uint32(len(targets))
	sub.PColorAttachments = vk.SliceAddr(colour)
	sub.InputAttachmentCount = uint32(inputs)
	sub.PInputAttachments = vk.SliceAddr(input)
	if depth != nil {
		ref := vk.New[vk.AttachmentReference](a)
		*ref = vk.AttachmentReference{Attachment: uint32(len(descs)), Layout: vk.ImageLayoutDepthStencilAttach}
		sub.PDepthStencilAttachment = vk.Addr(ref)
		desc := vk.AttachmentDescription{Format: depth.format, Samples: vk.SampleCount1, LoadOp: vk.AttachmentLoadOpClear,
			StoreOp: vk.AttachmentStoreOpStore, StencilLoadOp: vk.AttachmentLoadOpDontCare, StencilStoreOp: vk.AttachmentStoreOpDontCare,
			InitialLayout: vk.ImageLayoutDepthStencilAttach, FinalLayout: vk.ImageLayoutDepthStencilAttach}
		if depth.aspect&vk.ImageAspectStencil != 0 {
			desc.StencilLoadOp, desc.StencilStoreOp = vk.AttachmentLoadOpClear, vk.AttachmentStoreOpStore
		}
		descs = append(descs, desc)
		views = append(views, depth.view)
		rp.clears = append(rp.clears, [4]uint32{math.Float32bits(depthClear), uint32(stencilClear)})
	}
	da := vk.NewArray[vk.AttachmentDescription](a, max(len(descs), 1))
	copy(da, descs)
	dep := vk.New[vk.SubpassDependency](a)
	*dep = vk.SubpassDependency{SrcStageMask: vk.PipelineStageColorAttachmentOutput, DstStageMask: vk.PipelineStageFragmentShader,
		SrcAccessMask: vk.AccessColorAttachmentWrite, DstAccessMask: vk.AccessInputAttachmentRead, DependencyFlags: vk.DependencyByRegion}
	ci := vk.New[vk.RenderPassCreateInfo](a)
	ci.SType = vk.StructureTypeRenderPassCreateInfo
	ci.AttachmentCount = uint32(len(descs))
	ci.PAttachments = vk.SliceAddr(da)
	ci.SubpassCount = 1
	ci.PSubpasses = vk.Addr(sub)
	ci.DependencyCount = 1
	ci.PDependencies = vk.Addr(dep)
	out := vk.New[uint64](a)
	if err := check("vkCreateRenderPass", vk.CallResult(ld.rp.CreateRenderPass, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
		return rp, nil, err
	}
	rp.pass = *out
	return rp, views, nil
}

// compilePass is the render pass CompileGraphics builds a pipeline for when the fragment
// shader m reads input attachments (Vulkan builds such a pipeline only for a render pass):
// colour attachments of formats, each location m reads marked Input (one without a format
// gets its input's kind's), and the formats by location the pipeline must then have. It
// returns a nil pass when m reads none; the caller destroys it.
func (ld *logical) compilePass(m *spirvModule, formats []Format) (*renderPass, []Format, error) {
	ias, err := m.inputAttachments()
	if err != nil || len(ias) == 0 {
		return nil, formats, err
	}
	targets := make([]DrawTarget, len(formats))
	for i, f := range formats {
		targets[i].Format = f
	}
	for _, ia := range ias {
		if ia.index >= 8 {
			return nil, nil, fmt.Errorf("input attachment %d: beyond 8 colour attachments", ia.index)
		}
		for len(targets) <= int(ia.index) {
			targets = append(targets, DrawTarget{})
		}
		if targets[ia.index].Format == FormatUndefined {
			targets[ia.index].Format = kindFormats[ia.kind]
		}
		targets[ia.index].Input = true
	}
	rp, _, err := ld.newPass(targets, nil, nil, 0)
	if err != nil {
		rp.destroy(ld)
		return nil, nil, err
	}
	out := make([]Format, len(targets))
	for i, t := range targets {
		out[i] = t.Format
	}
	return rp, out, nil
}

// destroy frees what newRenderPass made.
func (rp *renderPass) destroy(ld *logical) {
	if rp == nil {
		return
	}
	if rp.framebuffer != 0 {
		vk.Call(ld.rp.DestroyFramebuffer, ld.handle, uintptr(rp.framebuffer), 0)
	}
	if rp.pass != 0 {
		vk.Call(ld.rp.DestroyRenderPass, ld.handle, uintptr(rp.pass), 0)
	}
	*rp = renderPass{}
}

// newTargetImage makes a draw target's image: a colour attachment, an input attachment too
// when the shader reads it.
func (d *Device) newTargetImage(t DrawTarget, w, h uint32) (*drawImage, error) {
	usage := uint32(vk.ImageUsageColorAttach)
	if t.Input {
		usage |= vk.ImageUsageInputAttachment
	}
	return d.newAttachment(uint32(t.Format), texelSize[t.Format], usage, colorRange(), w, h)
}

// writeInputAttachments points each input attachment descriptor of sets (indexed by set
// number) at its target's view, layout GENERAL.
func (ld *logical) writeInputAttachments(sets []uint64, ias []inputAttachment, imgs []*drawImage) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	for _, ia := range ias {
		ii := vk.New[vk.DescriptorImageInfo](a)
		ii.ImageView = imgs[ia.index].view
		ii.ImageLayout = vk.ImageLayoutGeneral
		w := ld.descriptorWrite(a, sets[ia.set], ia.binding, vk.DescriptorTypeInputAttachment)
		w.PImageInfo = vk.Addr(ii)
		vk.Call(ld.fns.UpdateDescriptorSets, ld.handle, 1, vk.Addr(w), 0, 0)
	}
}

// recordRenderPass records the draw inside rp: the targets' move to GENERAL (the depth
// attachment's to its attachment layout), the render pass with its clears, the pipeline and
// its sets, the triangle. The targets stay GENERAL after it.
func (d *Device) recordRenderPass(cmd uintptr, a *vk.Arena, rp *renderPass, p *computePipeline, sets []uint64, imgs []*drawImage, depth *drawImage, x DrawArgs) {
	ld := d.dev
	imageBarrier(ld, cmd, imgs, vk.PipelineStageTopOfPipe, vk.PipelineStageColorAttachmentOutput|vk.PipelineStageFragmentShader, 0,
		vk.AccessColorAttachmentWrite|vk.AccessColorAttachmentRead|vk.AccessInputAttachmentRead, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral)
	if depth != nil {
		depthBarrier(ld, cmd, depth, vk.PipelineStageTopOfPipe, vk.PipelineStageEarlyFragmentTests|vk.PipelineStageLateFragmentTests, 0,
			vk.AccessDepthStencilAttachmentRead|vk.AccessDepthStencilAttachmentWrite, vk.ImageLayoutUndefined, vk.ImageLayoutDepthStencilAttach)
	}
	clears := vk.NewArray[[4]uint32](a, max(len(rp.clears), 1))
	copy(clears, rp.clears)
	bi := vk.New[vk.RenderPassBeginInfo](a)
	bi.SType = vk.StructureTypeRenderPassBeginInfo
	bi.RenderPass = rp.pass
	bi.Framebuffer = rp.framebuffer
	bi.RenderArea = vk.Rect2D{Width: x.Width, Height: x.Height}
	bi.ClearValueCount = uint32(len(rp.clears))
	bi.PClearValues = vk.SliceAddr(clears)
	vk.Call(ld.rp.CmdBeginRenderPass, cmd, vk.Addr(bi), vk.SubpassContentsInline)
	bindGraphics(ld, a, cmd, p, sets, bi.RenderArea)
	vk.Call(ld.draw.CmdDraw, cmd, 3, 1, 0, 0)
	vk.Call(ld.rp.CmdEndRenderPass, cmd)
}

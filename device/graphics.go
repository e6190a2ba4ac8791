package device

import (
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Format is a VkFormat, the format of a color attachment.
type Format uint32

// Formats Metal render targets commonly map to.
const (
	FormatUndefined          Format = 0
	FormatR8G8B8A8Unorm      Format = 37
	FormatB8G8R8A8Unorm      Format = 44
	FormatR16G16B16A16Sfloat Format = 97
	FormatR32Uint            Format = 98
	FormatR32Sfloat          Format = 100
	FormatR32G32B32A32Uint   Format = 107
	FormatR32G32B32A32Sint   Format = 108
	FormatR32G32B32A32Sfloat Format = 109
)

// CompileGraphics builds a graphics pipeline (dynamic rendering, triangle lists, one vertex
// buffer binding whose attributes follow the vertex shader's inputs) and returns the driver's
// ISA statistics, keyed by executable ("Vertex Shader/VGPRs", ...).
//
// Either stage may be missing: without frag the pipeline discards rasterization; without vert
// airpipe writes a vertex shader that feeds every input of frag (zeros, same locations and
// interpolation). colorFormats nil means one attachment per fragment output location, in the
// output's own type (float4 → R32G32B32A32_SFLOAT, half4 → R16G16B16A16_SFLOAT, ...).
// Errors are as for CompileCompute.
func (c *Compiler) CompileGraphics(vert, frag []byte, vertEntry, fragEntry string, colorFormats []Format) (Stats, error) {
	if vert == nil && frag == nil {
		return nil, argErr("CompileGraphics", -1, "neither a vertex nor a fragment shader")
	}
	var fm *spirvModule
	var fe spirvEntry
	if frag != nil {
		var err error
		if fm, err = parseSPIRV(frag); err != nil {
			return nil, err
		}
		var ok bool
		if fe, ok = fm.entry(execModelFragment, fragEntry); !ok {
			return nil, argErr("CompileGraphics", -1, "module has no Fragment entry point %q", fragEntry)
		}
	}
	var vm *spirvModule
	var ve spirvEntry
	if vert != nil {
		var err error
		if vm, err = parseSPIRV(vert); err != nil {
			return nil, err
		}
		var ok bool
		if ve, ok = vm.entry(execModelVertex, vertEntry); !ok {
			return nil, argErr("CompileGraphics", -1, "module has no Vertex entry point %q", vertEntry)
		}
	} else {
		words, err := vertexFor(fm, fe)
		if err != nil {
			return nil, fmt.Errorf("device: vertex shader for fragment %q: %w", fragEntry, err)
		}
		vm = &spirvModule{words: words}
		ve = spirvEntry{Model: execModelVertex, Name: "main"}
	}
	if colorFormats == nil && fm != nil {
		var err error
		if colorFormats, err = outputFormats(fm, fe); err != nil {
			return nil, fmt.Errorf("device: fragment %q: %w", fragEntry, err)
		}
	}
	attrs, err := vertexAttributes(vm, ve)
	if err != nil {
		return nil, fmt.Errorf("device: vertex %q: %w", ve.Name, err)
	}
	bindings, push := vm.bindings, vm.pushConstants
	if fm != nil {
		if bindings, err = mergeBindings(vm.bindings, fm.bindings); err != nil {
			return nil, err
		}
		push = push || fm.pushConstants
	}
	g := graphicsDesc{vert: vm.words, vertEntry: ve.Name, attrs: attrs, bindings: bindings, push: push, formats: colorFormats}
	if fm != nil {
		g.frag, g.fragEntry = fm.words, fe.Name
		// Input attachments: the pipeline is built for a render pass (inputattach.go).
		rp, formats, err := c.dev.compilePass(fm, colorFormats)
		if err != nil {
			return nil, fmt.Errorf("device: fragment %q: %w", fragEntry, err)
		}
		if rp != nil {
			defer rp.destroy(c.dev)
			g.renderPass, g.formats = rp.pass, formats
		}
	}
	return c.buildStats(func() (*computePipeline, error) { return c.dev.newGraphicsPipeline(g, c.dev.execStats) })
}

// outputFormats gives one color format per fragment output location (UNDEFINED in gaps).
func outputFormats(m *spirvModule, e spirvEntry) ([]Format, error) {
	var out []Format
	for _, v := range m.ioVars(e, scOutput) {
		fs, err := m.locationFormats(v.Type)
		if err != nil {
			return nil, fmt.Errorf("output location %d: %w", v.Location, err)
		}
		for k, f := range fs {
			loc := int(v.Location) + k
			if loc >= 8 {
				return nil, fmt.Errorf("output location %d: beyond 8 color attachments", loc)
			}
			for len(out) <= loc {
				out = append(out, FormatUndefined)
			}
			out[loc] = Format(f)
		}
	}
	return out, nil
}

// vertexAttributes gives one attribute per input location of the vertex entry, all in vertex
// buffer binding 0, 32 bytes apart.
func vertexAttributes(m *spirvModule, e spirvEntry) ([]vk.VertexInputAttributeDescription, error) {
	var out []vk.VertexInputAttributeDescription
	for _, v := range m.ioVars(e, scInput) {
		fs, err := m.locationFormats(v.Type)
		if err != nil {
			return nil, fmt.Errorf("input location %d: %w", v.Location, err)
		}
		for k, f := range fs {
			out = append(out, vk.VertexInputAttributeDescription{Location: v.Location + uint32(k), Format: f, Offset: uint32(32 * len(out))})
		}
	}
	return out, nil
}

// mergeBindings joins two stages' descriptors; a binding both use must agree.
func mergeBindings(a, b []spirvBinding) ([]spirvBinding, error) {
	out := append([]spirvBinding(nil), a...)
	for _, x := range b {
		dup := false
		for _, y := range a {
			if x.Set == y.Set && x.Binding == y.Binding {
				if x.Type != y.Type {
					return nil, fmt.Errorf("device: set %d binding %d is descriptor type %d in one stage and %d in the other", x.Set, x.Binding, y.Type, x.Type)
				}
				dup = true
			}
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out, nil
}

// graphicsDesc is what newGraphicsPipeline builds.
type graphicsDesc struct {
	vert, frag           []uint32 // frag nil: rasterizer discard
	vertEntry, fragEntry string
	attrs                []vk.VertexInputAttributeDescription
	bindings             []spirvBinding
	push                 bool
	formats              []Format
	masks                []uint32          // per attachment colour write mask; nil: all components
	spec                 map[uint32]uint32 // specialization (SpecId -> word) of both stages
	depth                bool              // a D32_SFLOAT depth attachment, test ALWAYS, writes on
	stencil              bool              // a stencil aspect too (D32_SFLOAT_S8_UINT), test ALWAYS, REPLACE (depth.go)
	renderPass           uint64            // when not 0: built for subpass 0 of this render pass, not dynamic rendering
}

func (d *logical) newGraphicsPipeline(g graphicsDesc, capture bool) (_ *computePipeline, err error) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	p := &computePipeline{dev: d}
	defer func() {
		if err != nil {
			p.destroy()
		}
	}()
	stages := vk.NewArray[vk.PipelineShaderStageCreateInfo](a, 2)
	n := 0
	for _, s := range []struct {
		words []uint32
		entry string
		stage uint32
	}{{g.vert, g.vertEntry, vk.ShaderStageVertex}, {g.frag, g.fragEntry, vk.ShaderStageFragment}} {
		if s.words == nil {
			continue
		}
		mod, err := d.shaderModule(s.words)
		if err != nil {
			return nil, err
		}
		p.modules = append(p.modules, mod)
		stages[n] = vk.PipelineShaderStageCreateInfo{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: s.stage, Module: mod, PName: a.CString(s.entry),
			PSpecializationInfo: specialization(a, g.spec)}
		n++
	}
	if err := p.makeLayout(g.bindings, g.push, vk.ShaderStageAllGraphics, false); err != nil {
		return nil, err
	}

	vi := vk.New[vk.PipelineVertexInputStateCreateInfo](a)
	vi.SType = vk.StructureTypePipelineVertexInputStateCreateInfo
	if len(g.attrs) > 0 {
		bind := vk.New[vk.VertexInputBindingDescription](a)
		bind.Stride = uint32(32 * len(g.attrs))
		attrs := vk.NewArray[vk.VertexInputAttributeDescription](a, len(g.attrs))
		copy(attrs, g.attrs)
		vi.VertexBindingDescriptionCount = 1
		vi.PVertexBindingDescriptions = vk.Addr(bind)
		vi.VertexAttributeDescriptionCount = uint32(len(attrs))
		vi.PVertexAttributeDescriptions = vk.SliceAddr(attrs)
	}
	ia := vk.New[vk.PipelineInputAssemblyStateCreateInfo](a)
	ia.SType = vk.StructureTypePipelineInputAssemblyStateCreateInfo
	ia.Topology = vk.PrimitiveTopologyTriangleList
	vp := vk.New[vk.PipelineViewportStateCreateInfo](a)
	vp.SType = vk.StructureTypePipelineViewportStateCreateInfo
	vp.ViewportCount, vp.ScissorCount = 1, 1
	rs := vk.New[vk.PipelineRasterizationStateCreateInfo](a)
	rs.SType = vk.StructureTypePipelineRasterizationStateCreateInfo
	rs.PolygonMode = vk.PolygonModeFill
	rs.LineWidth = 1
	if g.frag == nil {
		rs.RasterizerDiscardEnable = 1
	}
	ms := vk.New[vk.PipelineMultisampleStateCreateInfo](a)
	ms.SType = vk.StructureTypePipelineMultisampleStateCreateInfo
	ms.RasterizationSamples = vk.SampleCount1
	blends := vk.NewArray[vk.PipelineColorBlendAttachmentState](a, max(len(g.formats), 1))
	formats := vk.NewArray[uint32](a, max(len(g.formats), 1))
	for i, f := range g.formats {
		blends[i].ColorWriteMask = vk.ColorComponentAll
		if i < len(g.masks) {
			blends[i].ColorWriteMask = g.masks[i]
		}
		formats[i] = uint32(f)
	}
	cb := vk.New[vk.PipelineColorBlendStateCreateInfo](a)
	cb.SType = vk.StructureTypePipelineColorBlendStateCreateInfo
	cb.AttachmentCount = uint32(len(g.formats))
	cb.PAttachments = vk.SliceAddr(blends)
	dyn := vk.NewArray[uint32](a, 2)
	dyn[0], dyn[1] = vk.DynamicStateViewport, vk.DynamicStateScissor
	ds := vk.New[vk.PipelineDynamicStateCreateInfo](a)
	ds.SType = vk.StructureTypePipelineDynamicStateCreateInfo
	ds.DynamicStateCount = 2
	ds.PDynamicStates = vk.SliceAddr(dyn)
	ri := vk.New[vk.PipelineRenderingCreateInfo](a)
	ri.SType = vk.StructureTypePipelineRenderingCreateInfo
	ri.ColorAttachmentCount = uint32(len(g.formats))
	ri.PColorAttachmentFormats = vk.SliceAddr(formats)
	if g.depth || g.stencil {
		ri.DepthAttachmentFormat = depthFormatFor(g.stencil)
	}
	if g.stencil {
		ri.StencilAttachmentFormat = depthFormatFor(true)
	}

	ci := vk.New[vk.GraphicsPipelineCreateInfo](a)
	ci.SType = vk.StructureTypeGraphicsPipelineCreateInfo
	ci.PNext = vk.Addr(ri)
	if g.renderPass != 0 {
		ci.PNext, ci.RenderPass = 0, g.renderPass // input attachments (inputattach.go)
	}
	if capture {
		ci.Flags = vk.PipelineCreateCaptureStatistics
	}
	ci.StageCount = uint32(n)
	ci.PStages = vk.SliceAddr(stages)
	ci.PVertexInputState = vk.Addr(vi)
	ci.PInputAssemblyState = vk.Addr(ia)
	ci.PViewportState = vk.Addr(vp)
	ci.PRasterizationState = vk.Addr(rs)
	ci.PMultisampleState = vk.Addr(ms)
	ci.PColorBlendState = vk.Addr(cb)
	ci.PDynamicState = vk.Addr(ds)
	if g.depth || g.stencil {
		ci.PDepthStencilState = vk.Addr(depthState(a, g.depth, g.stencil))
	}
	ci.Layout = p.layout
	ci.BasePipelineIndex = -1
	out := vk.New[uint64](a)
	if err := check("vkCreateGraphicsPipelines", vk.CallResult(d.fns.CreateGraphicsPipelines, d.handle, 0, 1, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
		return nil, err
	}
	p.pipeline = *out
	return p, nil
}

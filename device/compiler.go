package device

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Target is a compile target: a driver that compiles SPIR-V for one GPU ISA.
type Target struct {
	Name string // "radv-navi21", "lavapipe", or a device name
}

// Stats are a pipeline's ISA statistics as the driver names them (VK_KHR_pipeline_executable_
// properties), such as RADV's "SGPRs", "VGPRs", "Spilled SGPRs", "Code size", "Instructions",
// "Latency", plus "Subgroup size". When a pipeline has several executables, keys are prefixed
// with the executable's name and "/". Empty when the driver gives none (lavapipe).
type Stats map[string]string

// Keys returns the statistics' names in order.
func (s Stats) Keys() []string {
	ks := make([]string, 0, len(s))
	for k := range s {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Compiler compiles SPIR-V on one target. Open it once and reuse it for many modules; it is
// safe for concurrent use (pipeline creation is internally synchronized in Vulkan).
type Compiler struct {
	target Target
	dev    *logical
}

// canonicalTarget names a target as the compile stage records it.
func canonicalTarget(spec string, p *physical) string {
	if fam, ok := parseRADV(spec); ok {
		return "radv-" + fam
	}
	if p.facts.Driver == "llvmpipe" {
		return "lavapipe"
	}
	return p.facts.Name
}

// OpenCompiler opens a compile target: "radv-navi21" (or "radv:<family>", "radv-null") for
// RADV's null device, "lavapipe", "auto", or a device name substring. The error wraps
// ErrUnavailable with the reason when the loader, driver or device is absent.
func OpenCompiler(target string) (*Compiler, error) {
	p, err := choose(target)
	if err != nil {
		return nil, err
	}
	d, err := openShared(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return &Compiler{target: Target{Name: canonicalTarget(target, p)}, dev: d}, nil
}

// Target is what this compiler compiles for.
func (c *Compiler) Target() Target { return c.target }

// Facts describe the compiler's device.
func (c *Compiler) Facts() Facts { return c.dev.phys.facts }

// Close destroys the compiler's device (RADV null devices are kept for the process, as Mesa
// cannot destroy them). The compiler must not be used afterwards.
func (c *Compiler) Close() error {
	c.dev.destroy()
	return nil
}

// CompileCompute builds a compute pipeline from spirv's GLCompute entry point entry with a
// pipeline layout made from the module's own descriptors, and returns the driver's ISA
// statistics. localSize, when not all zero, replaces the module's workgroup size (through its
// specialization constants where it has them, else by rewriting the literal). A driver refusal
// is a *DriverError; a module airpipe cannot read is a *SPIRVError; an entry point the module
// lacks is an *ArgumentError.
func (c *Compiler) CompileCompute(spirv []byte, entry string, localSize [3]uint32) (Stats, error) {
	m, err := parseSPIRV(spirv)
	if err != nil {
		return nil, err
	}
	id, ok := m.entries[entry]
	if !ok {
		return nil, argErr("CompileCompute", -1, "module has no GLCompute entry point %q", entry)
	}
	words := m.words
	var spec map[uint32]uint32
	if localSize != [3]uint32{} {
		words, spec = m.withLocalSize(id, localSize)
	}
	return c.buildStats(func() (*computePipeline, error) {
		return c.dev.newComputePipeline(words, entry, m.bindings, m.pushConstants, spec, false, c.dev.execStats)
	})
}

// buildStats makes a pipeline with build, gives a *DriverError it returns the driver's
// messages, and returns the pipeline's ISA statistics; it destroys the pipeline after.
func (c *Compiler) buildStats(build func() (*computePipeline, error)) (Stats, error) {
	var p *computePipeline
	msgs, err := captureMessages(func() (err error) {
		p, err = build()
		return err
	})
	if err != nil {
		var de *DriverError
		if errors.As(err, &de) && len(msgs) > 0 {
			de.Message = strings.Join(msgs, "; ")
		}
		return nil, err
	}
	defer c.dev.flushDestroyed()
	defer p.destroy()
	return c.dev.pipelineStats(p.pipeline)
}

// computePipeline is a VkPipeline (compute or graphics) with its shader modules and layout.
type computePipeline struct {
	dev        *logical
	modules    []uint64
	setLayouts []uint64
	layout     uint64
	pipeline   uint64
}

// specialization returns a VkSpecializationInfo for spec (SpecId -> 32-bit value), or 0.
func specialization(a *vk.Arena, spec map[uint32]uint32) uintptr {
	if len(spec) == 0 {
		return 0
	}
	ids := make([]uint32, 0, len(spec))
	for id := range spec {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	ents := vk.NewArray[vk.SpecializationMapEntry](a, len(ids))
	data := vk.NewArray[uint32](a, len(ids))
	for i, id := range ids {
		ents[i] = vk.SpecializationMapEntry{ConstantID: id, Offset: uint32(4 * i), Size: 4}
		data[i] = spec[id]
	}
	si := vk.New[vk.SpecializationInfo](a)
	si.MapEntryCount = uint32(len(ids))
	si.PMapEntries = vk.SliceAddr(ents)
	si.DataSize = uintptr(4 * len(ids))
	si.PData = vk.SliceAddr(data)
	return vk.Addr(si)
}

// shaderModule creates a VkShaderModule from words.
func (d *logical) shaderModule(words []uint32) (uint64, error) {
	if err := d.checkCapabilities(words); err != nil {
		return 0, err
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	code := vk.NewArray[uint32](a, len(words))
	copy(code, words)
	smci := vk.New[vk.ShaderModuleCreateInfo](a)
	smci.SType = vk.StructureTypeShaderModuleCreateInfo
	smci.CodeSize = uintptr(4 * len(words))
	smci.PCode = vk.SliceAddr(code)
	out := vk.New[uint64](a)
	if err := check("vkCreateShaderModule", vk.CallResult(d.fns.CreateShaderModule, d.handle, vk.Addr(smci), 0, vk.Addr(out))); err != nil {
		return 0, err
	}
	return *out, nil
}

// makeLayout creates descriptor set layouts (one per set up to the highest the bindings use)
// and the pipeline layout, with a push-constant range of the device's full size when push is
// set, all visible to stages. dynamic0 makes set 0 binding 0 a dynamic storage buffer.
func (p *computePipeline) makeLayout(bindings []spirvBinding, push bool, stages uint32, dynamic0 bool) error {
	d := p.dev
	a := vk.GetArena()
	defer vk.PutArena(a)
	out := vk.New[uint64](a)
	nsets := 0
	for _, b := range bindings {
		nsets = max(nsets, int(b.Set)+1)
	}
	if lim := int(d.phys.facts.Limits.MaxBoundDescriptorSets); nsets > lim {
		return fmt.Errorf("module uses descriptor set %d; %s binds at most %d sets", nsets-1, d.phys.facts.Name, lim)
	}
	for set := range nsets {
		var bs []vk.DescriptorSetLayoutBinding
		seen := map[uint32]bool{}
		for _, b := range bindings {
			if int(b.Set) != set || seen[b.Binding] {
				continue
			}
			seen[b.Binding] = true
			t := b.Type
			if dynamic0 && set == 0 && b.Binding == 0 && t == vk.DescriptorTypeStorageBuffer {
				t = vk.DescriptorTypeStorageBufferDynamic
			}
			sf := stages
			if t == vk.DescriptorTypeInputAttachment {
				sf = vk.ShaderStageFragment // Vulkan allows input attachments in no other stage
			}
			bs = append(bs, vk.DescriptorSetLayoutBinding{Binding: b.Binding, DescriptorType: t, DescriptorCount: b.Count, StageFlags: sf})
		}
		arr := vk.NewArray[vk.DescriptorSetLayoutBinding](a, len(bs))
		copy(arr, bs)
		ci := vk.New[vk.DescriptorSetLayoutCreateInfo](a)
		ci.SType = vk.StructureTypeDescriptorSetLayoutCreateInfo
		ci.BindingCount = uint32(len(bs))
		ci.PBindings = vk.SliceAddr(arr)
		if err := check("vkCreateDescriptorSetLayout", vk.CallResult(d.fns.CreateDescriptorSetLayout, d.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
			return err
		}
		p.setLayouts = append(p.setLayouts, *out)
	}
	sl := vk.NewArray[uint64](a, len(p.setLayouts))
	copy(sl, p.setLayouts)
	plci := vk.New[vk.PipelineLayoutCreateInfo](a)
	plci.SType = vk.StructureTypePipelineLayoutCreateInfo
	plci.SetLayoutCount = uint32(len(sl))
	plci.PSetLayouts = vk.SliceAddr(sl)
	if push {
		r := vk.New[vk.PushConstantRange](a)
		r.StageFlags = stages
		r.Size = max(d.phys.facts.Limits.MaxPushConstantsSize, 4)
		plci.PushConstantRangeCount = 1
		plci.PPushConstantRanges = vk.Addr(r)
	}
	if err := check("vkCreatePipelineLayout", vk.CallResult(d.fns.CreatePipelineLayout, d.handle, vk.Addr(plci), 0, vk.Addr(out))); err != nil {
		return err
	}
	p.layout = *out
	return nil
}

// newComputePipeline creates a shader module, its layout (makeLayout) and the pipeline.
func (d *logical) newComputePipeline(words []uint32, entry string, bindings []spirvBinding, push bool, spec map[uint32]uint32, dynamic0, capture bool) (_ *computePipeline, err error) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	p := &computePipeline{dev: d}
	defer func() {
		if err != nil {
			p.destroy()
		}
	}()
	mod, err := d.shaderModule(words)
	if err != nil {
		return nil, err
	}
	p.modules = append(p.modules, mod)
	if err := p.makeLayout(bindings, push, vk.ShaderStageCompute, dynamic0); err != nil {
		return nil, err
	}
	out := vk.New[uint64](a)
	ci := vk.New[vk.ComputePipelineCreateInfo](a)
	ci.SType = vk.StructureTypeComputePipelineCreateInfo
	if capture {
		ci.Flags = vk.PipelineCreateCaptureStatistics
	}
	ci.Stage.SType = vk.StructureTypePipelineShaderStageCreateInfo
	ci.Stage.Stage = vk.ShaderStageCompute
	ci.Stage.Module = mod
	ci.Stage.PName = a.CString(entry)
	ci.Stage.PSpecializationInfo = specialization(a, spec)
	ci.Layout = p.layout
	ci.BasePipelineIndex = -1
	if err := check("vkCreateComputePipelines", vk.CallResult(d.fns.CreateComputePipelines, d.handle, 0, 1, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
		return nil, err
	}
	p.pipeline = *out
	return p, nil
}

// destroy destroys the pipeline's objects.
func (p *computePipeline) destroy() {
	d := p.dev
	if p.pipeline != 0 {
		vk.Call(d.fns.DestroyPipeline, d.handle, uintptr(p.pipeline), 0)
	}
	if p.layout != 0 {
		vk.Call(d.fns.DestroyPipelineLayout, d.handle, uintptr(p.layout), 0)
	}
	for _, l := range p.setLayouts {
		vk.Call(d.fns.DestroyDescriptorSetLayout, d.handle, uintptr(l), 0)
	}
	for _, m := range p.modules {
		vk.Call(d.fns.DestroyShaderModule, d.handle, uintptr(m), 0)
	}
	*p = computePipeline{dev: d}
}

// pipelineStats reads a pipeline's executables' statistics; none when the device lacks them.
func (d *logical) pipelineStats(pipeline uint64) (Stats, error) {
	st := Stats{}
	if !d.execStats {
		return st, nil
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	pi := vk.New[vk.PipelineInfoKHR](a)
	pi.SType = vk.StructureTypePipelineInfoKHR
	pi.Pipeline = pipeline
	n := vk.New[uint32](a)
	if err := check("vkGetPipelineExecutablePropertiesKHR", vk.CallResult(d.fns.GetPipelineExecutablePropertiesKHR, d.handle, vk.Addr(pi), vk.Addr(n), 0)); err != nil {
		return nil, err
	}
	props := vk.NewArray[vk.PipelineExecutablePropertiesKHR](a, int(*n))
	for i := range props {
		props[i].SType = vk.StructureTypePipelineExecutablePropertiesKHR
	}
	if r := vk.CallResult(d.fns.GetPipelineExecutablePropertiesKHR, d.handle, vk.Addr(pi), vk.Addr(n), vk.SliceAddr(props)); r < 0 {
		return nil, check("vkGetPipelineExecutablePropertiesKHR", r)
	}
	props = props[:*n]
	for i, pr := range props {
		prefix := ""
		if len(props) > 1 {
			prefix = vk.GoString(pr.Name[:]) + "/"
		}
		st[prefix+"Subgroup size"] = strconv.FormatUint(uint64(pr.SubgroupSize), 10)
		ei := vk.New[vk.PipelineExecutableInfoKHR](a)
		ei.SType = vk.StructureTypePipelineExecutableInfoKHR
		ei.Pipeline = pipeline
		ei.ExecutableIndex = uint32(i)
		if err := check("vkGetPipelineExecutableStatisticsKHR", vk.CallResult(d.fns.GetPipelineExecutableStatisticsKHR, d.handle, vk.Addr(ei), vk.Addr(n), 0)); err != nil {
			return nil, err
		}
		ss := vk.NewArray[vk.PipelineExecutableStatisticKHR](a, int(*n))
		for k := range ss {
			ss[k].SType = vk.StructureTypePipelineExecutableStatisticKHR
		}
		if r := vk.CallResult(d.fns.GetPipelineExecutableStatisticsKHR, d.handle, vk.Addr(ei), vk.Addr(n), vk.SliceAddr(ss)); r < 0 {
			return nil, check("vkGetPipelineExecutableStatisticsKHR", r)
		}
		for _, s := range ss[:*n] {
			st[prefix+strings.TrimSpace(vk.GoString(s.Name[:]))] = statValue(s.Format, s.Value)
		}
	}
	return st, nil
}

func statValue(format uint32, v uint64) string {
	switch format {
	case vk.StatisticFormatBool32:
		return strconv.FormatBool(uint32(v) != 0)
	case vk.StatisticFormatInt64:
		return strconv.FormatInt(int64(v), 10)
	case vk.StatisticFormatFloat64:
		return strconv.FormatFloat(math.Float64frombits(v), 'g', -1, 64)
	}
	return strconv.FormatUint(v, 10)
}

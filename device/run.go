package device

import (
	"context"
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Binding binds one descriptor of a pipeline: give exactly one of Buffer (a storage or
// uniform buffer descriptor, bound from Offset to the buffer's end), Texture (a SAMPLED_IMAGE
// descriptor, or with a storage texture a STORAGE_IMAGE one, whose OpTypeImage must match the
// texture's shape and numeric kind) or Sampler
// (a SAMPLER descriptor: the device's one sampler of the texture contract, NEAREST, clamped,
// LOD 0).
type Binding struct {
	Set, Binding uint32
	Buffer       *Buffer
	Offset       int64 // a multiple of Align
	Texture      *Texture
	Sampler      bool
	// SamplerSpec, with Sampler, binds a sampler of that state (sampler.go) instead of
	// the device's one.
	SamplerSpec *SamplerSpec
}

// Timing receives the GPU time of a Run, Draw or CaptureVertices: the start and end
// timestamps (nanoseconds of HostNanos's clock) of the command buffer that holds the work,
// written by Encoder.Split once it completes. Both are 0 on a device that cannot time
// (Facts.CanTime). The values are valid once the call returned nil.
type Timing struct {
	Start, End uint64
}

// Nanos is End-Start, or 0 when the device did not time the work.
func (t Timing) Nanos() uint64 {
	if t.End < t.Start {
		return 0
	}
	return t.End - t.Start
}

// split ends the open command buffer with Split, writing its times into t; a nil t splits
// nothing.
func (t *Timing) split(enc *Encoder) error {
	if t == nil {
		return nil
	}
	return enc.Split(&t.Start, &t.End)
}

// DispatchArgs are one direct dispatch: its grid, its threadgroup size, its buffers and its
// push constants.
type DispatchArgs struct {
	Groups   [3]uint32 // threadgroups per grid, each at least 1
	Threads  [3]uint32 // threads per threadgroup, each at least 1
	Bindings []Binding // one per descriptor the module declares
	Push     []byte    // push constants from offset 0, when the module has them
	// Specialization gives specialization constants their values (at most once per SpecId;
	// not the SpecIds of the workgroup size, which Threads sets). Constants it leaves out
	// keep the module's defaults; SpecIds the module does not declare are ignored.
	Specialization []SpecValue
	// Timing, when not nil, receives Run's GPU time (Run splits after the dispatch).
	// Encoder.Dispatch ignores it: a fill times its work with Encoder.Split.
	Timing *Timing
}

// checkDispatch validates a dispatch without touching the device.
func (d *Device) checkDispatch(fn string, p *Pipeline, x DispatchArgs) error {
	if !d.loaded(p) {
		return argErr(fn, -1, "pipeline is not loaded on this device")
	}
	for k := range 3 {
		if x.Groups[k] < 1 || x.Threads[k] < 1 {
			return argErr(fn, -1, "groups %v, threads %v: each must be at least 1", x.Groups, x.Threads)
		}
	}
	if len(x.Push) > int(d.dev.phys.facts.Limits.MaxPushConstantsSize) || len(x.Push)%4 != 0 {
		return argErr(fn, -1, "%d bytes of push constants: a multiple of 4 up to %d", len(x.Push), d.dev.phys.facts.Limits.MaxPushConstantsSize)
	}
	if len(x.Push) > 0 && !p.mod.pushConstants {
		return argErr(fn, -1, "push constants given to a module without them")
	}
	if err := d.checkBindings(fn, p.mod.bindings, x.Bindings); err != nil {
		return err
	}
	if err := checkSpec(fn, p.mod, x.Specialization, p.wgSpec); err != nil {
		return err
	}
	t := [3]int{int(x.Threads[0]), int(x.Threads[1]), int(x.Threads[2])}
	return d.checkThreads(t)
}

// descriptorNames name the descriptor types in errors.
var descriptorNames = map[uint32]string{
	vk.DescriptorTypeSampler: "SAMPLER", vk.DescriptorTypeCombinedImageSampler: "COMBINED_IMAGE_SAMPLER",
	vk.DescriptorTypeSampledImage: "SAMPLED_IMAGE", vk.DescriptorTypeStorageImage: "STORAGE_IMAGE",
	vk.DescriptorTypeUniformTexelBuffer: "UNIFORM_TEXEL_BUFFER", vk.DescriptorTypeStorageTexelBuffer: "STORAGE_TEXEL_BUFFER",
	vk.DescriptorTypeUniformBuffer: "UNIFORM_BUFFER", vk.DescriptorTypeStorageBuffer: "STORAGE_BUFFER",
	vk.DescriptorTypeInputAttachment: "INPUT_ATTACHMENT", vk.DescriptorTypeAccelerationStructure: "ACCELERATION_STRUCTURE",
}

func descriptorName(t uint32) string {
	if n, ok := descriptorNames[t]; ok {
		return n
	}
	return fmt.Sprintf("descriptor type %d", t)
}

// kindName says what a binding gives, for errors.
func (b Binding) kindName() string {
	switch {
	case b.Buffer != nil:
		return "a buffer"
	case b.Texture != nil && b.Texture.spec.Storage:
		return "a storage texture"
	case b.Texture != nil:
		return "a sampled texture"
	case b.Sampler:
		return "the sampler"
	}
	return "nothing"
}

// checkBindings validates what is given for a module's descriptors: every descriptor a
// single storage or uniform buffer, sampled image or sampler, bound to one of the matching
// kind; every buffer live on this device at an aligned offset inside it; every texture live
// and of the shape and numeric kind its OpTypeImage declares. It makes the device's sampler
// when a descriptor needs it.
func (d *Device) checkBindings(fn string, declared []spirvBinding, given []Binding) error {
	for i, b := range given {
		n := 0
		for _, set := range []bool{b.Buffer != nil, b.Texture != nil, b.Sampler} {
			if set {
				n++
			}
		}
		if n != 1 {
			return argErr(fn, i, "set %d binding %d: give exactly one of Buffer, Texture and Sampler (%d given)", b.Set, b.Binding, n)
		}
		switch {
		case b.Buffer != nil:
			if !d.live(b.Buffer) {
				return argErr(fn, i, "set %d binding %d: buffer is not a live buffer of this device", b.Set, b.Binding)
			}
			if b.Offset < 0 || b.Offset >= b.Buffer.size || b.Offset%d.Align() != 0 {
				return argErr(fn, i, "set %d binding %d: offset %d: must lie in the %d-byte buffer and be a multiple of %d", b.Set, b.Binding, b.Offset, b.Buffer.size, d.Align())
			}
		case b.Texture != nil:
			if !d.liveTexture(b.Texture) {
				return argErr(fn, i, "set %d binding %d: texture is not a live texture of this device", b.Set, b.Binding)
			}
		}
	}
	sampler := false
	for _, b := range declared {
		if b.Count != 1 {
			return argErr(fn, -1, "set %d binding %d: an array of %d %s descriptors is not supported; only single ones are", b.Set, b.Binding, b.Count, descriptorName(b.Type))
		}
		i := findBinding(given, b)
		if i < 0 {
			return argErr(fn, -1, "set %d binding %d (%s) is not bound", b.Set, b.Binding, descriptorName(b.Type))
		}
		g := given[i]
		var ok bool
		switch b.Type {
		case vk.DescriptorTypeStorageBuffer, vk.DescriptorTypeUniformBuffer:
			ok = g.Buffer != nil
		case vk.DescriptorTypeSampledImage:
			ok = g.Texture != nil && !g.Texture.spec.Storage
		case vk.DescriptorTypeStorageImage:
			ok = g.Texture != nil && g.Texture.spec.Storage
		case vk.DescriptorTypeSampler:
			ok, sampler = g.Sampler, true
		default:
			return argErr(fn, -1, "set %d binding %d: %s descriptors are not supported; only storage and uniform buffers, sampled and storage images and samplers are", b.Set, b.Binding, descriptorName(b.Type))
		}
		if !ok {
			return argErr(fn, i, "set %d binding %d is a %s descriptor, given %s", b.Set, b.Binding, descriptorName(b.Type), g.kindName())
		}
		if g.Texture != nil {
			if err := matchAliased(declared, b, g.Texture.spec); err != nil { // alias.go
				return argErr(fn, i, "set %d binding %d: %v", b.Set, b.Binding, err)
			}
		}
	}
	if sampler {
		if _, err := d.deviceSampler(); err != nil {
			return err
		}
	}
	return nil
}

// matchImage says whether a texture made from spec may be bound to an image descriptor of
// type img: the view's shape must be the image's Dim and Arrayed, and the format's numeric
// type its Sampled Type's (Vulkan leaves the results undefined otherwise).
func matchImage(img spirvImage, spec TextureSpec) error {
	sh := texShapes[spec.Dim]
	if err := matchSamples(img, spec); err != nil { // msimage.go
		return err
	}
	if img.Dim != sh.spvDim || img.Arrayed != sh.arrayed {
		return fmt.Errorf("the image has Dim %d Arrayed %v, the texture is %s", img.Dim, img.Arrayed, sh.name)
	}
	want := spec.Kind
	if want == 'd' {
		want = 'f'
	}
	if img.Kind != want {
		return fmt.Errorf("the image's sampled type is %q, the texture's kind %q", img.Kind, spec.Kind)
	}
	if spec.Storage && img.Format != 0 && img.Format != spirvFormats[spec.Kind] {
		return fmt.Errorf("the storage image's format is %d, neither Unknown nor the texture's (%d)", img.Format, spirvFormats[spec.Kind])
	}
	return nil
}

func findBinding(bs []Binding, b spirvBinding) int {
	for i, x := range bs {
		if x.Set == b.Set && x.Binding == b.Binding {
			return i
		}
	}
	return -1
}

// Dispatch records one dispatch of p into the encoder, after the commands before it have
// completed. Misuse is an *ArgumentError (which, returned by a fill, loses the device).
func (e *Encoder) Dispatch(p *Pipeline, x DispatchArgs) error {
	if err := e.check("Dispatch"); err != nil {
		return err
	}
	d := e.d
	if err := d.checkDispatch("Dispatch", p, x); err != nil {
		return err
	}
	v, err := p.variant(x.Threads, x.Specialization)
	if err != nil {
		return err
	}
	s := d.open
	ld := d.dev
	a := vk.GetArena()
	defer vk.PutArena(a)
	sets, err := d.writeSets(a, v.setLayouts, p.mod.bindings, x.Bindings)
	if err != nil {
		return err
	}
	computeBarrier(ld, s.cmd)
	vk.Call(ld.fns.CmdBindPipeline, s.cmd, vk.PipelineBindPointCompute, uintptr(v.pipeline))
	if len(v.setLayouts) > 0 {
		vk.Call(ld.fns.CmdBindDescriptorSets, s.cmd, vk.PipelineBindPointCompute, uintptr(v.layout), 0, uintptr(len(v.setLayouts)), vk.SliceAddr(sets), 0, 0)
	}
	if len(x.Push) > 0 {
		vk.Call(ld.fns.CmdPushConstants, s.cmd, uintptr(v.layout), vk.ShaderStageCompute, 0, uintptr(len(x.Push)), a.Bytes(x.Push))
	}
	vk.Call(ld.fns.CmdDispatch, s.cmd, uintptr(x.Groups[0]), uintptr(x.Groups[1]), uintptr(x.Groups[2]))
	d.mu.Lock()
	p.uses++ // until the command buffer completes (releaseLocked)
	s.keep = append(s.keep, p)
	d.mu.Unlock()
	return nil
}

// writeSets allocates one descriptor set per layout from the open slot and
// writes the given buffers, textures and sampler into the module's declared
// bindings, keeping the buffers and textures alive until the slot's work
// completes. The returned array has at
// least one element (for vk.SliceAddr); its first len(layouts) are the sets.
func (d *Device) writeSets(a *vk.Arena, layouts []uint64, declared []spirvBinding, given []Binding) ([]uint64, error) {
	s := d.open
	sets := vk.NewArray[uint64](a, max(len(layouts), 1))
	for i, l := range layouts {
		set, err := s.allocSet(l)
		if err != nil {
			return nil, err
		}
		sets[i] = set
	}
	for _, b := range declared {
		bb := given[findBinding(given, b)]
		switch {
		case bb.Buffer != nil:
			d.dev.writeBuffer(sets[b.Set], b.Binding, b.Type, bb.Buffer.buffer, uint64(bb.Offset))
			s.keep = append(s.keep, bb.Buffer)
		case bb.Texture != nil:
			if err := d.useTexture(bb.Texture); err != nil {
				return nil, err
			}
			d.dev.writeImage(sets[b.Set], b.Binding, b.Type, bb.Texture.view, 0)
		default:
			sampler, err := d.samplerFor(bb.SamplerSpec)
			if err != nil {
				return nil, err
			}
			d.dev.writeImage(sets[b.Set], b.Binding, b.Type, 0, sampler)
		}
	}
	return sets, nil
}

// allocSet allocates a descriptor set from the slot's pools, adding a pool when they are full.
func (s *slot) allocSet(layout uint64) (uint64, error) {
	ld := s.d.dev
	if n := len(s.pools); n > 0 {
		set, err := ld.allocSet(s.pools[n-1], layout)
		if err == nil {
			return set, nil
		}
		if de, ok := err.(*DriverError); !ok || (vk.Result(de.Result) != vk.ErrorOutOfPoolMemory && vk.Result(de.Result) != vk.ErrorFragmentedPool) {
			return 0, err
		}
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	sizes := vk.NewArray[vk.DescriptorPoolSize](a, 6)
	sizes[0] = vk.DescriptorPoolSize{Type: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1024}
	sizes[1] = vk.DescriptorPoolSize{Type: vk.DescriptorTypeUniformBuffer, DescriptorCount: 256}
	sizes[2] = vk.DescriptorPoolSize{Type: vk.DescriptorTypeSampledImage, DescriptorCount: 512}
	sizes[3] = vk.DescriptorPoolSize{Type: vk.DescriptorTypeSampler, DescriptorCount: 256}
	sizes[4] = vk.DescriptorPoolSize{Type: vk.DescriptorTypeStorageImage, DescriptorCount: 256}
	sizes[5] = vk.DescriptorPoolSize{Type: vk.DescriptorTypeInputAttachment, DescriptorCount: 64} // Draw's (inputattach.go)
	ci := vk.New[vk.DescriptorPoolCreateInfo](a)
	ci.SType = vk.StructureTypeDescriptorPoolCreateInfo
	ci.MaxSets = 256
	ci.PoolSizeCount = 6
	ci.PPoolSizes = vk.SliceAddr(sizes)
	out := vk.New[uint64](a)
	if err := check("vkCreateDescriptorPool", vk.CallResult(ld.fns.CreateDescriptorPool, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
		return 0, err
	}
	s.pools = append(s.pools, *out)
	return ld.allocSet(*out, layout)
}

// Run dispatches p once through the queue (a Submit whose fill is one Dispatch, then a Split
// when x.Timing asks for the GPU time) and waits for it: the execution helper of the emulator
// stage. Its arguments are checked before anything
// is submitted, so misuse is an *ArgumentError and does not lose the device. Results are in
// the buffers' Bytes when Run returns nil.
func (d *Device) Run(ctx context.Context, p *Pipeline, x DispatchArgs) error {
	if err := d.Err(); err != nil {
		return err
	}
	if err := d.checkDispatch("Run", p, x); err != nil {
		return err
	}
	if _, err := p.variant(x.Threads, x.Specialization); err != nil {
		if len(x.Specialization) > 0 {
			return fmt.Errorf("building %s for %v threads, specialization %v: %w", p.entry, x.Threads, x.Specialization, err)
		}
		return fmt.Errorf("building %s for %v threads: %w", p.entry, x.Threads, err)
	}
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error {
		if err := enc.Dispatch(p, x); err != nil {
			return err
		}
		return x.Timing.split(enc)
	}, nil)
	if err != nil {
		return err
	}
	return d.Wait(ctx, v)
}

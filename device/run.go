package device

import (
	"context"
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Binding binds a buffer, from Offset to its end, to one descriptor of a pipeline.
type Binding struct {
	Set, Binding uint32
	Buffer       *Buffer
	Offset       int64 // a multiple of Align
}

// DispatchArgs are one direct dispatch: its grid, its threadgroup size, its buffers and its
// push constants.
type DispatchArgs struct {
	Groups   [3]uint32 // threadgroups per grid, each at least 1
	Threads  [3]uint32 // threads per threadgroup, each at least 1
	Bindings []Binding // one per descriptor the module declares (storage or uniform buffers)
	Push     []byte    // push constants from offset 0, when the module has them
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
	t := [3]int{int(x.Threads[0]), int(x.Threads[1]), int(x.Threads[2])}
	return d.checkThreads(t)
}

// checkBindings validates the buffers given for a module's descriptors:
// every descriptor a single storage or uniform buffer, bound, and every
// buffer live on this device at an aligned offset inside it.
func (d *Device) checkBindings(fn string, declared []spirvBinding, given []Binding) error {
	for _, b := range declared {
		if b.Type != vk.DescriptorTypeStorageBuffer && b.Type != vk.DescriptorTypeUniformBuffer || b.Count != 1 {
			return argErr(fn, -1, "set %d binding %d: descriptor type %d (count %d) is not supported; only single storage and uniform buffers are", b.Set, b.Binding, b.Type, b.Count)
		}
		if findBinding(given, b) < 0 {
			return argErr(fn, -1, "set %d binding %d is not bound", b.Set, b.Binding)
		}
	}
	for i, b := range given {
		if !d.live(b.Buffer) {
			return argErr(fn, i, "buffer is not a live buffer of this device")
		}
		if b.Offset < 0 || b.Offset >= b.Buffer.size || b.Offset%d.Align() != 0 {
			return argErr(fn, i, "offset %d: must lie in the %d-byte buffer and be a multiple of %d", b.Offset, b.Buffer.size, d.Align())
		}
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
	v, err := p.variant(x.Threads)
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
	s.keep = append(s.keep, p)
	return nil
}

// writeSets allocates one descriptor set per layout from the open slot and
// writes the given buffers into the module's declared bindings, keeping the
// buffers alive until the slot's work completes. The returned array has at
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
		d.dev.writeBuffer(sets[b.Set], b.Binding, b.Type, bb.Buffer.buffer, uint64(bb.Offset))
		s.keep = append(s.keep, bb.Buffer)
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
	sizes := vk.NewArray[vk.DescriptorPoolSize](a, 2)
	sizes[0] = vk.DescriptorPoolSize{Type: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1024}
	sizes[1] = vk.DescriptorPoolSize{Type: vk.DescriptorTypeUniformBuffer, DescriptorCount: 256}
	ci := vk.New[vk.DescriptorPoolCreateInfo](a)
	ci.SType = vk.StructureTypeDescriptorPoolCreateInfo
	ci.MaxSets = 256
	ci.PoolSizeCount = 2
	ci.PPoolSizes = vk.SliceAddr(sizes)
	out := vk.New[uint64](a)
	if err := check("vkCreateDescriptorPool", vk.CallResult(ld.fns.CreateDescriptorPool, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
		return 0, err
	}
	s.pools = append(s.pools, *out)
	return ld.allocSet(*out, layout)
}

// Run dispatches p once through the queue (a Submit whose fill is one Dispatch) and waits for
// it: the execution helper of the emulator stage. Its arguments are checked before anything
// is submitted, so misuse is an *ArgumentError and does not lose the device. Results are in
// the buffers' Bytes when Run returns nil.
func (d *Device) Run(ctx context.Context, p *Pipeline, x DispatchArgs) error {
	if err := d.Err(); err != nil {
		return err
	}
	if err := d.checkDispatch("Run", p, x); err != nil {
		return err
	}
	if _, err := p.variant(x.Threads); err != nil {
		return fmt.Errorf("building %s for %v threads: %w", p.entry, x.Threads, err)
	}
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error { return enc.Dispatch(p, x) }, nil)
	if err != nil {
		return err
	}
	return d.Wait(ctx, v)
}

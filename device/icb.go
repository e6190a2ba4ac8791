package device

import (
	"errors"
	"runtime"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Dispatch is one dispatch of an indirect command buffer (seed 001's dispatch).
type Dispatch struct {
	Pipeline *Pipeline
	// Offset is where the dispatch's arguments start in the argument buffer, in bytes; the
	// buffer is bound there as the kernel's set 0 binding 0. It must be a multiple of Align.
	Offset  int64
	Groups  [3]int // threadgroups per grid, each at least 1
	Threads [3]int // threads per threadgroup, each at least 1
}

// ICB is an indirect command buffer: dispatches recorded once (a secondary command buffer)
// and run by every Encoder.Execute of it. It keeps its pipelines; it does not keep its
// argument buffer, which the caller keeps until the work that runs it is done. Its Vulkan
// objects are released when it is collected (or by Release), even after Stop.
type ICB struct {
	d       *Device
	h       *icbHandles
	keep    []*Pipeline
	len     int
	cleanup runtime.Cleanup
}

// icbHandles are an ICB's Vulkan objects; they do not point back to the ICB so that it can be
// collected.
type icbHandles struct {
	cmd  uintptr
	pool uint64
}

// Len is the number of dispatches.
func (ic *ICB) Len() int { return ic.len }

// ICB records one dispatch per element of ds, in order, each run after the one before it has
// completed, reading its arguments from args at its offset (seed 001's icb).
//
// It returns an *ArgumentError, having changed nothing, when args is not a live buffer of the
// device, a pipeline is not loaded on the device, an offset is negative, outside args or not a
// multiple of Align, or a size is less than 1. It returns another error when a dispatch asks
// for more threads per threadgroup than the device allows (*LimitError), when the driver
// fails (*DriverError), when a pipeline takes descriptors other than its argument buffer, or
// once the device is stopping (ErrStopped) or lost (*LostError).
func (d *Device) ICB(args *Buffer, ds []Dispatch) (*ICB, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	defer d.leave()
	if !d.live(args) {
		return nil, argErr("ICB", -1, "argument buffer is not a live buffer of this device")
	}
	align := d.Align()
	for i, x := range ds {
		switch {
		case !d.loaded(x.Pipeline):
			return nil, argErr("ICB", i, "pipeline is not loaded on this device")
		case x.Offset < 0:
			return nil, argErr("ICB", i, "offset %d is negative", x.Offset)
		case x.Offset >= args.size:
			return nil, argErr("ICB", i, "offset %d lies outside the %d-byte argument buffer", x.Offset, args.size)
		case x.Offset%align != 0:
			return nil, argErr("ICB", i, "offset %d is not a multiple of align %d", x.Offset, align)
		}
		for k := range 3 {
			if x.Groups[k] < 1 {
				return nil, argErr("ICB", i, "groups %v: each must be at least 1", x.Groups)
			}
			if x.Threads[k] < 1 {
				return nil, argErr("ICB", i, "threads %v: each must be at least 1", x.Threads)
			}
		}
	}
	vars := make([]*computePipeline, len(ds))
	for i, x := range ds {
		if err := d.checkThreads(x.Threads); err != nil {
			return nil, err
		}
		if !x.Pipeline.argsOnly {
			return nil, errors.New("device: ICB: pipeline " + x.Pipeline.entry + " takes descriptors other than its argument buffer (set 0 binding 0)")
		}
		v, err := x.Pipeline.variant([3]uint32{uint32(x.Threads[0]), uint32(x.Threads[1]), uint32(x.Threads[2])}, nil)
		if err != nil {
			return nil, err
		}
		vars[i] = v
	}
	d.icbMu.Lock()
	defer d.icbMu.Unlock()
	h, err := d.recordICB(args, ds, vars)
	if err != nil {
		return nil, err
	}
	ic := &ICB{d: d, h: h, len: len(ds)}
	for _, x := range ds {
		ic.keep = append(ic.keep, x.Pipeline)
	}
	d.mu.Lock()
	d.icbs[h] = struct{}{}
	for _, x := range ds {
		x.Pipeline.inICB = true
	}
	d.mu.Unlock()
	ic.cleanup = runtime.AddCleanup(ic, d.releaseICB, h)
	return ic, nil
}

// recordICB records the secondary command buffer; icbMu is held.
func (d *Device) recordICB(args *Buffer, ds []Dispatch, vars []*computePipeline) (_ *icbHandles, err error) {
	ld := d.dev
	a := vk.GetArena()
	defer vk.PutArena(a)
	h := &icbHandles{}
	defer func() {
		if err != nil {
			d.freeICB(h)
		}
	}()
	if h.cmd, err = ld.allocCommandBuffer(d.icbPool, vk.CommandBufferLevelSecondary); err != nil {
		return nil, err
	}
	sets := make([]uint64, len(ds))
	if len(ds) > 0 {
		size := vk.New[vk.DescriptorPoolSize](a)
		size.Type = vk.DescriptorTypeStorageBuffer
		size.DescriptorCount = uint32(len(ds))
		pci := vk.New[vk.DescriptorPoolCreateInfo](a)
		pci.SType = vk.StructureTypeDescriptorPoolCreateInfo
		pci.MaxSets = uint32(len(ds))
		pci.PoolSizeCount = 1
		pci.PPoolSizes = vk.Addr(size)
		out := vk.New[uint64](a)
		if err := check("vkCreateDescriptorPool", vk.CallResult(ld.fns.CreateDescriptorPool, ld.handle, vk.Addr(pci), 0, vk.Addr(out))); err != nil {
			return nil, err
		}
		h.pool = *out
		for i, x := range ds {
			set, err := ld.allocSet(h.pool, vars[i].setLayouts[0])
			if err != nil {
				return nil, err
			}
			sets[i] = set
			ld.writeBuffer(set, 0, vk.DescriptorTypeStorageBuffer, args.buffer, uint64(x.Offset))
		}
	}
	inh := vk.New[vk.CommandBufferInheritanceInfo](a)
	inh.SType = vk.StructureTypeCommandBufferInheritanceInfo
	bi := vk.New[vk.CommandBufferBeginInfo](a)
	bi.SType = vk.StructureTypeCommandBufferBeginInfo
	bi.Flags = vk.CommandBufferUsageSimultaneousUse
	bi.PInheritanceInfo = vk.Addr(inh)
	if err := check("vkBeginCommandBuffer", vk.CallResult(ld.fns.BeginCommandBuffer, h.cmd, vk.Addr(bi))); err != nil {
		return nil, err
	}
	set := vk.New[uint64](a)
	for i, x := range ds {
		if i > 0 {
			computeBarrier(ld, h.cmd)
		}
		vk.Call(ld.fns.CmdBindPipeline, h.cmd, vk.PipelineBindPointCompute, uintptr(vars[i].pipeline))
		*set = sets[i]
		vk.Call(ld.fns.CmdBindDescriptorSets, h.cmd, vk.PipelineBindPointCompute, uintptr(vars[i].layout), 0, 1, vk.Addr(set), 0, 0)
		vk.Call(ld.fns.CmdDispatch, h.cmd, uintptr(x.Groups[0]), uintptr(x.Groups[1]), uintptr(x.Groups[2]))
	}
	if err := check("vkEndCommandBuffer", vk.CallResult(ld.fns.EndCommandBuffer, h.cmd)); err != nil {
		return nil, err
	}
	return h, nil
}

// allocSet allocates one descriptor set of layout from pool.
func (ld *logical) allocSet(pool, layout uint64) (uint64, error) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	l := vk.New[uint64](a)
	*l = layout
	ai := vk.New[vk.DescriptorSetAllocateInfo](a)
	ai.SType = vk.StructureTypeDescriptorSetAllocateInfo
	ai.DescriptorPool = pool
	ai.DescriptorSetCount = 1
	ai.PSetLayouts = vk.Addr(l)
	out := vk.New[uint64](a)
	if err := check("vkAllocateDescriptorSets", vk.CallResult(ld.fns.AllocateDescriptorSets, ld.handle, vk.Addr(ai), vk.Addr(out))); err != nil {
		return 0, err
	}
	return *out, nil
}

// writeBuffer points binding of set at buffer from offset to its end.
func (ld *logical) writeBuffer(set uint64, binding, dtype uint32, buffer, offset uint64) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	bi := vk.New[vk.DescriptorBufferInfo](a)
	bi.Buffer = buffer
	bi.Offset = offset
	bi.Range = ^uint64(0) // VK_WHOLE_SIZE
	w := ld.descriptorWrite(a, set, binding, dtype)
	w.PBufferInfo = vk.Addr(bi)
	vk.Call(ld.fns.UpdateDescriptorSets, ld.handle, 1, vk.Addr(w), 0, 0)
}

// descriptorWrite is a VkWriteDescriptorSet of one descriptor, in a, for
// the caller to point at its buffer or image info.
func (ld *logical) descriptorWrite(a *vk.Arena, set uint64, binding, dtype uint32) *vk.WriteDescriptorSet {
	w := vk.New[vk.WriteDescriptorSet](a)
	w.SType = vk.StructureTypeWriteDescriptorSet
	w.DstSet = set
	w.DstBinding = binding
	w.DescriptorCount = 1
	w.DescriptorType = dtype
	return w
}

// Release releases the ICB's Vulkan objects now instead of when it is collected. Work that
// runs it must be done.
func (ic *ICB) Release() {
	ic.cleanup.Stop()
	ic.d.releaseICB(ic.h)
}

// releaseICB frees h once, unless the device has already been destroyed (which freed it).
func (d *Device) releaseICB(h *icbHandles) {
	d.icbMu.Lock()
	defer d.icbMu.Unlock()
	d.mu.Lock()
	_, ok := d.icbs[h]
	delete(d.icbs, h)
	d.mu.Unlock()
	if ok {
		d.freeICB(h)
	}
}

// freeICB frees h's objects; icbMu is held.
func (d *Device) freeICB(h *icbHandles) {
	ld := d.dev
	if h.cmd != 0 {
		a := vk.GetArena()
		defer vk.PutArena(a)
		cmd := vk.New[uintptr](a)
		*cmd = h.cmd
		vk.Call(ld.fns.FreeCommandBuffers, ld.handle, uintptr(d.icbPool), 1, vk.Addr(cmd))
		h.cmd = 0
	}
	if h.pool != 0 {
		vk.Call(ld.fns.DestroyDescriptorPool, ld.handle, uintptr(h.pool), 0)
		h.pool = 0
	}
}

// Execute runs ic's dispatches in the encoder, after the commands before it have completed
// (seed 001's executeCommandsInBuffer). The encoder keeps ic until its command buffer is done.
func (e *Encoder) Execute(ic *ICB) error {
	if err := e.check("Execute"); err != nil {
		return err
	}
	d := e.d
	if ic == nil || ic.d != d {
		return argErr("Execute", -1, "indirect command buffer is not of this device")
	}
	d.mu.Lock()
	_, ok := d.icbs[ic.h]
	d.mu.Unlock()
	if !ok {
		return argErr("Execute", -1, "indirect command buffer was released")
	}
	s := d.open
	computeBarrier(d.dev, s.cmd)
	if ic.len > 0 {
		a := vk.GetArena()
		defer vk.PutArena(a)
		cmd := vk.New[uintptr](a)
		*cmd = ic.h.cmd
		vk.Call(d.dev.fns.CmdExecuteCommands, s.cmd, 1, vk.Addr(cmd))
	}
	s.keep = append(s.keep, ic)
	return nil
}

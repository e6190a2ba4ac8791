package device

import (
	"fmt"
	"unsafe"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Buffer is a storage buffer of the device in host-visible, coherent memory, mapped for its
// whole life: the host reads and writes it through Bytes while no work that uses it runs.
type Buffer struct {
	d      *Device
	size   int64
	buffer uint64
	memory uint64
	ptr    unsafe.Pointer
	addr   uint64
	freed  bool // guarded by d.mu
}

// NewBuffer allocates a zeroed buffer of size bytes (size >= 1).
func (d *Device) NewBuffer(size int64) (*Buffer, error) {
	if size < 1 {
		return nil, argErr("NewBuffer", -1, "size %d < 1", size)
	}
	if err := d.enter(); err != nil {
		return nil, err
	}
	defer d.leave()
	b, err := d.newBuffer(size)
	if err != nil {
		return nil, err
	}
	clear(b.Bytes())
	d.mu.Lock()
	d.buffers[b] = struct{}{}
	d.mu.Unlock()
	return b, nil
}

func (d *Device) newBuffer(size int64) (_ *Buffer, err error) {
	ld := d.dev
	a := vk.GetArena()
	defer vk.PutArena(a)
	b := &Buffer{d: d, size: size}
	defer func() {
		if err != nil {
			b.destroy()
		}
	}()
	ci := vk.New[vk.BufferCreateInfo](a)
	ci.SType = vk.StructureTypeBufferCreateInfo
	ci.Size = uint64(size)
	ci.Usage = vk.BufferUsageStorageBuffer | vk.BufferUsageUniformBuffer | vk.BufferUsageTransferSrc | vk.BufferUsageTransferDst | vk.BufferUsageVertexBuffer
	if ld.xfb {
		ci.Usage |= vk.BufferUsageTransformFeedback
	}
	if ld.bda {
		ci.Usage |= vk.BufferUsageShaderDeviceAddress
	}
	out := vk.New[uint64](a)
	if err := check("vkCreateBuffer", vk.CallResult(ld.fns.CreateBuffer, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
		return nil, err
	}
	b.buffer = *out
	req := vk.New[vk.MemoryRequirements](a)
	vk.Call(ld.fns.GetBufferMemoryRequirements, ld.handle, uintptr(b.buffer), vk.Addr(req))
	mt, ok := ld.memoryType(req.MemoryTypeBits, vk.MemoryPropertyHostVisible|vk.MemoryPropertyHostCoherent)
	if !ok {
		return nil, fmt.Errorf("device: %s has no host-visible coherent memory for buffers", ld.phys.facts.Name)
	}
	ai := vk.New[vk.MemoryAllocateInfo](a)
	ai.SType = vk.StructureTypeMemoryAllocateInfo
	ai.AllocationSize = req.Size
	ai.MemoryTypeIndex = mt
	if ld.bda {
		fi := vk.New[vk.MemoryAllocateFlagsInfo](a)
		fi.SType = vk.StructureTypeMemoryAllocateFlagsInfo
		fi.Flags = vk.MemoryAllocateDeviceAddress
		ai.PNext = vk.Addr(fi)
	}
	if err := check("vkAllocateMemory", vk.CallResult(ld.fns.AllocateMemory, ld.handle, vk.Addr(ai), 0, vk.Addr(out))); err != nil {
		return nil, err
	}
	b.memory = *out
	if err := check("vkBindBufferMemory", vk.CallResult(ld.fns.BindBufferMemory, ld.handle, uintptr(b.buffer), uintptr(b.memory), 0)); err != nil {
		return nil, err
	}
	pp := vk.New[unsafe.Pointer](a)
	if err := check("vkMapMemory", vk.CallResult(ld.fns.MapMemory, ld.handle, uintptr(b.memory), 0, ^uintptr(0), 0, vk.Addr(pp))); err != nil {
		return nil, err
	}
	b.ptr = *pp
	if ld.bda && ld.fns.GetBufferDeviceAddress != 0 {
		ai := vk.New[vk.BufferDeviceAddressInfo](a)
		ai.SType = vk.StructureTypeBufferDeviceAddressInfo
		ai.Buffer = b.buffer
		b.addr = uint64(vk.Call(ld.fns.GetBufferDeviceAddress, ld.handle, vk.Addr(ai)))
	}
	return b, nil
}

// memoryType picks a memory type allowed by bits with all of props, preferring device-local.
func (ld *logical) memoryType(bits, props uint32) (uint32, bool) {
	m := &ld.phys.memory
	found, best := false, uint32(0)
	for i := range m.MemoryTypeCount {
		f := m.MemoryTypes[i].PropertyFlags
		if bits&(1<<i) == 0 || f&props != props {
			continue
		}
		if !found || f&vk.MemoryPropertyDeviceLocal != 0 && m.MemoryTypes[best].PropertyFlags&vk.MemoryPropertyDeviceLocal == 0 {
			found, best = true, i
		}
	}
	return best, found
}

// Size is the buffer's size in bytes.
func (b *Buffer) Size() int64 { return b.size }

// Bytes is the buffer's memory. It is valid until Free or Stop.
func (b *Buffer) Bytes() []byte {
	if b.ptr == nil {
		return nil
	}
	return unsafe.Slice((*byte)(b.ptr), b.size)
}

// Address is the buffer's GPU address (bufferDeviceAddress), or 0 when the device lacks it.
func (b *Buffer) Address() uint64 { return b.addr }

// Handle is the VkBuffer.
func (b *Buffer) Handle() uint64 { return b.buffer }

// holds evaluates live, which reads the device's object sets, under d.mu.
func (d *Device) holds(live func() bool) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return live()
}

// live reports whether b is a live buffer of d.
func (d *Device) live(b *Buffer) bool {
	if b == nil || b.d != d {
		return false
	}
	return d.holds(func() bool { _, ok := d.buffers[b]; return ok && !b.freed })
}

// Free releases the buffer. Work that uses it must be done; freeing twice is harmless.
func (b *Buffer) Free() {
	d := b.d
	d.mu.Lock()
	_, ok := d.buffers[b]
	if ok {
		delete(d.buffers, b)
		b.freed = true
	}
	d.mu.Unlock()
	if ok {
		b.destroy()
	}
}

func (b *Buffer) destroy() {
	ld := b.d.dev
	if b.buffer != 0 {
		vk.Call(ld.fns.DestroyBuffer, ld.handle, uintptr(b.buffer), 0)
	}
	if b.memory != 0 {
		vk.Call(ld.fns.FreeMemory, ld.handle, uintptr(b.memory), 0)
	}
	b.buffer, b.memory, b.ptr = 0, 0, nil
}

package device

import (
	"context"
	"fmt"
	"sync"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Options configure Open.
type Options struct {
	// QueueDepth is how many command buffers may be in flight at once (default 3). Split waits
	// while that many are.
	QueueDepth int
}

// Device is an open Vulkan device driven through the device agreement (seed 001): Align, ICB,
// Submit (fills), Split, timeline values, device loss and Stop. All methods are safe for
// concurrent use, except that a fill runs under the queue's lock and must not call Submit,
// Wait or Stop.
type Device struct {
	dev   *logical
	depth int

	mu        sync.Mutex
	cond      *sync.Cond
	stopping  bool
	stopped   bool
	calls     int   // calls in flight (enter/leave)
	lost      error // the *LostError, once lost
	submitted uint64
	processed uint64
	reached   uint64 // the timeline value reached
	pending   []pendingValue
	inflight  map[uint64]*slot // internal value -> slot, until processed
	buffers   map[*Buffer]struct{}
	pipelines map[*Pipeline]struct{}
	icbs      map[*icbHandles]struct{}
	textures  map[*Texture]struct{} // made and not yet destroyed (freed ones wait for their work)

	submitMu sync.Mutex // one fill at a time; guards the fields below
	next     uint64     // the last timeline value handed out
	slots    []*slot
	slotNext int
	open     *slot // the slot whose command buffer is being recorded

	icbMu   sync.Mutex // guards icbPool (command pools are externally synchronized)
	icbPool uint64

	samplerMu sync.Mutex             // guards sampler
	sampler   uint64                 // the device's one sampler (texture.go), made on first use
	samplers  map[SamplerSpec]uint64 // constexpr samplers (sampler.go), made on first use

	cmdPool    uint64
	internal   uint64 // timeline semaphore the GPU signals per command buffer
	timeline   uint64 // timeline semaphore of the agreement's values, signalled by the host
	queryPool  uint64 // two timestamps per slot, or 0 when the device cannot time
	tsOffset   float64
	tsUncert   float64
	reaperDone chan struct{}
}

// pendingValue is a timeline value whose work completes with internal value k.
type pendingValue struct {
	v, k uint64
	keep any // the work's argument, kept alive until v is reached
}

// Open opens the device that spec names (see OpenCompiler for the names; "auto" picks the best
// GPU, else lavapipe) for the agreement. It needs timeline semaphores.
func Open(spec string, opts Options) (*Device, error) {
	p, err := choose(spec)
	if err != nil {
		return nil, err
	}
	if !p.facts.TimelineSemaphores {
		return nil, fmt.Errorf("%w: %s has no timeline semaphores", ErrUnavailable, p.facts.Name)
	}
	if p.facts.RADVFamily != "" {
		return nil, fmt.Errorf("%w: %s compiles but cannot execute", ErrUnavailable, p.facts.Name)
	}
	ld, err := openLogical(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	d := &Device{
		dev:        ld,
		depth:      opts.QueueDepth,
		inflight:   map[uint64]*slot{},
		buffers:    map[*Buffer]struct{}{},
		pipelines:  map[*Pipeline]struct{}{},
		icbs:       map[*icbHandles]struct{}{},
		textures:   map[*Texture]struct{}{},
		reaperDone: make(chan struct{}),
	}
	if d.depth <= 0 {
		d.depth = 3
	}
	d.cond = sync.NewCond(&d.mu)
	if err := d.init(); err != nil {
		d.destroy()
		return nil, err
	}
	go d.reap()
	return d, nil
}

// init creates the command pools, semaphores, query pool and slots.
func (d *Device) init() error {
	a := vk.GetArena()
	defer vk.PutArena(a)
	ld := d.dev
	out := vk.New[uint64](a)
	for _, pool := range []*uint64{&d.cmdPool, &d.icbPool} {
		ci := vk.New[vk.CommandPoolCreateInfo](a)
		ci.SType = vk.StructureTypeCommandPoolCreateInfo
		ci.Flags = vk.CommandPoolCreateResetCommandBuffer
		ci.QueueFamilyIndex = ld.phys.queueFamily
		if err := check("vkCreateCommandPool", vk.CallResult(ld.fns.CreateCommandPool, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
			return err
		}
		*pool = *out
	}
	for _, sem := range []*uint64{&d.internal, &d.timeline} {
		ti := vk.New[vk.SemaphoreTypeCreateInfo](a)
		ti.SType = vk.StructureTypeSemaphoreTypeCreateInfo
		ti.SemaphoreType = vk.SemaphoreTypeTimeline
		ci := vk.New[vk.SemaphoreCreateInfo](a)
		ci.SType = vk.StructureTypeSemaphoreCreateInfo
		ci.PNext = vk.Addr(ti)
		if err := check("vkCreateSemaphore", vk.CallResult(ld.fns.CreateSemaphore, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
			return err
		}
		*sem = *out
	}
	if ld.phys.facts.CanTime() {
		ci := vk.New[vk.QueryPoolCreateInfo](a)
		ci.SType = vk.StructureTypeQueryPoolCreateInfo
		ci.QueryType = vk.QueryTypeTimestamp
		ci.QueryCount = uint32(2*d.depth + 1)
		if err := check("vkCreateQueryPool", vk.CallResult(ld.fns.CreateQueryPool, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
			return err
		}
		d.queryPool = *out
	}
	for i := range d.depth {
		s, err := d.newSlot(i)
		if err != nil {
			return err
		}
		d.slots = append(d.slots, s)
	}
	if d.queryPool != 0 {
		if err := d.calibrate(); err != nil {
			return err
		}
	}
	return nil
}

// Facts describe the device.
func (d *Device) Facts() Facts { return d.dev.phys.facts }

// Align is the agreement's align: the device's minimum offset alignment for buffers its
// kernels read, the larger of minUniformBufferOffsetAlignment and
// minStorageBufferOffsetAlignment, at least 1. ICB checks dispatch offsets against it.
func (d *Device) Align() int64 {
	l := d.dev.phys.facts.Limits
	return int64(max(l.MinUniformBufferOffsetAlignment, l.MinStorageBufferOffsetAlignment, 1))
}

// enter admits a call, or says why the device takes none.
func (d *Device) enter() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stopping {
		return ErrStopped
	}
	if d.lost != nil {
		return d.lost
	}
	d.calls++
	return nil
}

// leave ends a call that enter admitted.
func (d *Device) leave() {
	d.mu.Lock()
	d.calls--
	d.cond.Broadcast()
	d.mu.Unlock()
}

// lose marks the device lost with reason (the first reason wins) and returns the *LostError.
func (d *Device) lose(reason error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.loseLocked(reason)
}

func (d *Device) loseLocked(reason error) error {
	if d.lost == nil {
		d.lost = &LostError{Reason: reason}
		d.pending = nil
		d.cond.Broadcast()
	}
	return d.lost
}

// Err is the device's loss (a *LostError), ErrStopped once stopping, or nil.
func (d *Device) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lost != nil {
		return d.lost
	}
	if d.stopping {
		return ErrStopped
	}
	return nil
}

// Reached is the highest timeline value reached so far.
func (d *Device) Reached() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.reached
}

// TimelineSemaphore is the VkSemaphore (a timeline semaphore) that reaches each value once
// its work is done and its split times are written; other Vulkan work may wait on it.
func (d *Device) TimelineSemaphore() uint64 { return d.timeline }

// Wait blocks until timeline value v is reached, the device is lost (a *LostError), or ctx
// ends. v must have been handed out by Submit.
func (d *Device) Wait(ctx context.Context, v uint64) error {
	stop := context.AfterFunc(ctx, func() {
		d.mu.Lock()
		d.cond.Broadcast()
		d.mu.Unlock()
	})
	defer stop()
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.reached < v {
		if d.lost != nil {
			return d.lost
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.stopped {
			return ErrStopped
		}
		d.cond.Wait()
	}
	return nil
}

// Stop stops the device: later calls fail with ErrStopped; Stop waits for calls in flight and
// for submitted work, then destroys the device's objects. Stopping twice is harmless.
func (d *Device) Stop() error {
	d.mu.Lock()
	if d.stopping {
		for !d.stopped {
			d.cond.Wait()
		}
		d.mu.Unlock()
		return nil
	}
	d.stopping = true
	for d.calls > 0 {
		d.cond.Wait()
	}
	for d.processed < d.submitted && d.lost == nil {
		d.cond.Wait()
	}
	d.cond.Broadcast()
	d.mu.Unlock()
	<-d.reaperDone
	d.destroy()
	d.mu.Lock()
	d.stopped = true
	d.cond.Broadcast()
	d.mu.Unlock()
	return nil
}

// destroy destroys every object of the device; nothing may be in flight.
func (d *Device) destroy() {
	ld := d.dev
	if ld.handle == 0 {
		return
	}
	vk.Call(ld.fns.DeviceWaitIdle, ld.handle)
	// Free and collected ICBs may race with this: take the registries under their locks.
	d.icbMu.Lock()
	d.mu.Lock()
	icbs, pipelines, buffers, textures := d.icbs, d.pipelines, d.buffers, d.textures
	d.icbs, d.pipelines, d.buffers, d.textures = map[*icbHandles]struct{}{}, map[*Pipeline]struct{}{}, map[*Buffer]struct{}{}, map[*Texture]struct{}{}
	d.mu.Unlock()
	for h := range icbs {
		d.freeICB(h)
	}
	d.icbMu.Unlock()
	for p := range pipelines {
		p.destroy()
	}
	for b := range buffers {
		b.destroy()
	}
	for t := range textures {
		t.destroy()
	}
	if d.sampler != 0 {
		vk.Call(ld.tex.DestroySampler, ld.handle, uintptr(d.sampler), 0)
		d.sampler = 0
	}
	d.destroySamplers()
	for _, s := range d.slots {
		s.destroy()
	}
	for _, h := range []struct {
		fn uintptr
		h  uint64
	}{
		{ld.fns.DestroyQueryPool, d.queryPool},
		{ld.fns.DestroySemaphore, d.internal},
		{ld.fns.DestroySemaphore, d.timeline},
		{ld.fns.DestroyCommandPool, d.cmdPool},
		{ld.fns.DestroyCommandPool, d.icbPool},
	} {
		if h.h != 0 {
			vk.Call(h.fn, ld.handle, uintptr(h.h), 0)
		}
	}
	ld.destroy()
}

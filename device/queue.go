package device

import (
	"fmt"
	"math"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Fill is work for the device's queue (seed 001's fill). Submit calls it with the open encoder,
// the work's argument and the timeline value the work completes on. It encodes its commands
// into enc only, may call enc.Split as often as it needs, must stop at the first Split that
// fails and return that failure, and returns nil otherwise. A fill that returns an error (or
// panics) loses the device. It must not call Submit, Wait or Stop.
type Fill func(enc *Encoder, arg any, v uint64) error

// slot is one command buffer of the ring that bounds the queue.
type slot struct {
	d     *Device
	index int
	cmd   uintptr
	k     uint64  // internal timeline value of its last submission
	busy  bool    // submitted and not yet processed (guarded by Device.mu)
	start *uint64 // where Split wants its GPU times
	end   *uint64
	keep  []any    // objects its commands use, kept until it completes
	pools []uint64 // descriptor pools of Encoder.Dispatch
}

func (d *Device) newSlot(i int) (*slot, error) {
	cmd, err := d.dev.allocCommandBuffer(d.cmdPool, vk.CommandBufferLevelPrimary)
	if err != nil {
		return nil, err
	}
	return &slot{d: d, index: i, cmd: cmd}, nil
}

// allocCommandBuffer allocates one command buffer of level from pool.
func (ld *logical) allocCommandBuffer(pool uint64, level uint32) (uintptr, error) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	ai := vk.New[vk.CommandBufferAllocateInfo](a)
	ai.SType = vk.StructureTypeCommandBufferAllocateInfo
	ai.CommandPool = pool
	ai.Level = level
	ai.CommandBufferCount = 1
	out := vk.New[uintptr](a)
	if err := check("vkAllocateCommandBuffers", vk.CallResult(ld.fns.AllocateCommandBuffers, ld.handle, vk.Addr(ai), vk.Addr(out))); err != nil {
		return 0, err
	}
	return *out, nil
}

func (s *slot) destroy() {
	ld := s.d.dev
	for _, p := range s.pools {
		vk.Call(ld.fns.DestroyDescriptorPool, ld.handle, uintptr(p), 0)
	}
	s.pools = nil
}

// acquire waits until the next slot of the ring has completed, then begins its command
// buffer and makes it the open one. submitMu is held.
func (d *Device) acquire() error {
	s := d.slots[d.slotNext]
	d.slotNext = (d.slotNext + 1) % len(d.slots)
	d.mu.Lock()
	for s.busy && d.lost == nil {
		d.cond.Wait()
	}
	lost := d.lost
	d.mu.Unlock()
	if lost != nil {
		return lost
	}
	ld := d.dev
	s.keep, s.start, s.end = nil, nil, nil
	for _, p := range s.pools {
		vk.Call(ld.fns.ResetDescriptorPool, ld.handle, uintptr(p), 0)
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	bi := vk.New[vk.CommandBufferBeginInfo](a)
	bi.SType = vk.StructureTypeCommandBufferBeginInfo
	bi.Flags = vk.CommandBufferUsageOneTimeSubmit
	if err := check("vkBeginCommandBuffer", vk.CallResult(ld.fns.BeginCommandBuffer, s.cmd, vk.Addr(bi))); err != nil {
		return err
	}
	if d.queryPool != 0 {
		vk.Call(ld.fns.CmdResetQueryPool, s.cmd, uintptr(d.queryPool), uintptr(2*s.index), 2)
		vk.Call(ld.fns.CmdWriteTimestamp, s.cmd, vk.PipelineStageTopOfPipe, uintptr(d.queryPool), uintptr(2*s.index))
	}
	d.open = s
	return nil
}

// commit ends the open command buffer and submits it; its completion signals the next
// internal value. pv, when not nil, is the timeline value that completes with it. submitMu is
// held.
func (d *Device) commit(pv *pendingValue) error {
	s := d.open
	d.open = nil
	ld := d.dev
	barrier(ld, s.cmd, vk.PipelineStageComputeShader|vk.PipelineStageTransfer, vk.PipelineStageHost,
		vk.AccessShaderWrite|vk.AccessMemoryWrite, vk.AccessHostRead|vk.AccessMemoryRead)
	if d.queryPool != 0 {
		vk.Call(ld.fns.CmdWriteTimestamp, s.cmd, vk.PipelineStageBottomOfPipe, uintptr(d.queryPool), uintptr(2*s.index+1))
	}
	if err := check("vkEndCommandBuffer", vk.CallResult(ld.fns.EndCommandBuffer, s.cmd)); err != nil {
		return err
	}
	d.mu.Lock()
	k := d.submitted + 1
	d.mu.Unlock()

	a := vk.GetArena()
	defer vk.PutArena(a)
	val := vk.New[uint64](a)
	*val = k
	sem := vk.New[uint64](a)
	*sem = d.internal
	cmd := vk.New[uintptr](a)
	*cmd = s.cmd
	ts := vk.New[vk.TimelineSemaphoreSubmitInfo](a)
	ts.SType = vk.StructureTypeTimelineSemaphoreSubmitInfo
	ts.SignalSemaphoreValueCount = 1
	ts.PSignalSemaphoreValues = vk.Addr(val)
	si := vk.New[vk.SubmitInfo](a)
	si.SType = vk.StructureTypeSubmitInfo
	si.PNext = vk.Addr(ts)
	si.CommandBufferCount = 1
	si.PCommandBuffers = vk.Addr(cmd)
	si.SignalSemaphoreCount = 1
	si.PSignalSemaphores = vk.Addr(sem)
	ld.queueMu.Lock()
	r := vk.CallResult(ld.fns.QueueSubmit, ld.queue, 1, vk.Addr(si), 0)
	ld.queueMu.Unlock()
	if err := check("vkQueueSubmit", r); err != nil {
		return err
	}
	d.mu.Lock()
	d.submitted = k
	s.k, s.busy = k, true
	d.inflight[k] = s
	if pv != nil {
		pv.k = k
		d.pending = append(d.pending, *pv)
	}
	d.cond.Broadcast()
	d.mu.Unlock()
	return nil
}

// Submit runs fill with the open encoder and arg, and returns the timeline value the work
// completes on (Wait for it). The work is ordered after all earlier work. A fill that fails
// loses the device: Submit then returns the *LostError, as does every later call.
func (d *Device) Submit(fill Fill, arg any) (uint64, error) {
	if fill == nil {
		return 0, argErr("Submit", -1, "nil fill")
	}
	if err := d.enter(); err != nil {
		return 0, err
	}
	defer d.leave()
	d.submitMu.Lock()
	defer d.submitMu.Unlock()
	if err := d.Err(); err != nil {
		return 0, err
	}
	if err := d.acquire(); err != nil {
		return 0, d.lose(err)
	}
	d.next++
	v := d.next
	enc := &Encoder{d: d, active: true}
	err := runFill(fill, enc, arg, v)
	enc.active = false
	if err == nil && enc.splitErr != nil {
		err = fmt.Errorf("fill returned success after a failed split: %w", enc.splitErr)
	}
	if err != nil {
		return v, d.lose(fmt.Errorf("fill of timeline value %d: %w", v, err))
	}
	if err := d.commit(&pendingValue{v: v, keep: arg}); err != nil {
		return v, d.lose(err)
	}
	return v, nil
}

// runFill calls fill, turning a panic into an error.
func runFill(fill Fill, enc *Encoder, arg any, v uint64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fill panicked: %v", r)
		}
	}()
	return fill(enc, arg, v)
}

// Encoder is the open command buffer a fill encodes into, valid only during the fill's call.
// Its commands run in order, each after the one before has completed.
type Encoder struct {
	d        *Device
	active   bool
	splitErr error
}

func (e *Encoder) check(fn string) error {
	if e == nil || !e.active {
		return argErr(fn, -1, "encoder used outside its fill's call")
	}
	return nil
}

// CommandBuffer is the open VkCommandBuffer, for callers that record their own commands (they
// must leave it recording).
func (e *Encoder) CommandBuffer() (uintptr, error) {
	if err := e.check("CommandBuffer"); err != nil {
		return 0, err
	}
	return e.d.open.cmd, nil
}

// Split ends the open command buffer, submits it and opens a new one (seed 001's split).
// While the queue holds Options.QueueDepth command buffers it waits until one completes. Once
// the submitted command buffer completes, and before the fill's value is reached, it writes
// the buffer's GPU start and end times (nanoseconds of HostNanos's clock) at start and end
// unless they are nil; a device that cannot time (Facts.CanTime) writes 0. The times cover
// every command in that buffer.
func (e *Encoder) Split(start, end *uint64) error {
	if err := e.check("Split"); err != nil {
		return err
	}
	if e.splitErr != nil {
		return e.splitErr
	}
	d := e.d
	d.open.start, d.open.end = start, end
	if start != nil {
		*start = 0
	}
	if end != nil {
		*end = 0
	}
	if err := d.commit(nil); err != nil {
		e.splitErr = err
		return err
	}
	if err := d.acquire(); err != nil {
		e.splitErr = err
		return err
	}
	return nil
}

// reap processes completed command buffers in order: it writes their split times, reaches the
// timeline values whose work they end, and loses the device when one fails.
func (d *Device) reap() {
	defer close(d.reaperDone)
	for {
		d.mu.Lock()
		for d.processed == d.submitted && !d.stopping && d.lost == nil {
			d.cond.Wait()
		}
		if d.lost != nil || (d.stopping && d.processed == d.submitted && d.calls == 0) {
			d.mu.Unlock()
			return
		}
		if d.processed == d.submitted {
			// Stopping, but calls in flight may still submit.
			d.cond.Wait()
			d.mu.Unlock()
			continue
		}
		k := d.processed + 1
		s := d.inflight[k]
		d.mu.Unlock()

		err := d.waitInternal(k)
		var t0, t1 uint64
		if err == nil && d.queryPool != 0 && (s.start != nil || s.end != nil) {
			t0, t1, err = d.readTimes(s.index)
		}
		d.mu.Lock()
		if err != nil {
			d.loseLocked(fmt.Errorf("command buffer %d: %w", k, err))
			d.mu.Unlock()
			return
		}
		if s.start != nil {
			*s.start = t0
		}
		if s.end != nil {
			*s.end = t1
		}
		dead := d.releaseLocked(s.keep)
		s.busy, s.keep = false, nil
		delete(d.inflight, k)
		d.processed = k
		n := 0
		for n < len(d.pending) && d.pending[n].k <= k {
			d.reached = d.pending[n].v
			n++
		}
		if n > 0 {
			d.pending = append(d.pending[:0], d.pending[n:]...)
			d.signal(d.reached)
		}
		d.cond.Broadcast()
		d.mu.Unlock()
		for _, t := range dead {
			t.destroy()
		}
	}
}

// waitInternal waits until the GPU signals internal value k.
func (d *Device) waitInternal(k uint64) error {
	a := vk.GetArena()
	defer vk.PutArena(a)
	sem := vk.New[uint64](a)
	*sem = d.internal
	val := vk.New[uint64](a)
	*val = k
	wi := vk.New[vk.SemaphoreWaitInfo](a)
	wi.SType = vk.StructureTypeSemaphoreWaitInfo
	wi.SemaphoreCount = 1
	wi.PSemaphores = vk.Addr(sem)
	wi.PValues = vk.Addr(val)
	for {
		r := vk.CallResult(d.dev.fns.WaitSemaphores, d.dev.handle, vk.Addr(wi), uintptr(1e9))
		if r == vk.Timeout {
			continue
		}
		return check("vkWaitSemaphores", r)
	}
}

// signal sets the agreement's timeline semaphore to v from the host.
func (d *Device) signal(v uint64) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	si := vk.New[vk.SemaphoreSignalInfo](a)
	si.SType = vk.StructureTypeSemaphoreSignalInfo
	si.Semaphore = d.timeline
	si.Value = v
	vk.CallResult(d.dev.fns.SignalSemaphore, d.dev.handle, vk.Addr(si))
}

// readTimes reads slot i's two timestamps and converts them to host nanoseconds.
func (d *Device) readTimes(i int) (start, end uint64, err error) {
	t, err := d.readTicks(uint32(2*i), 2)
	if err != nil {
		return 0, 0, err
	}
	return d.hostTime(t[0]), d.hostTime(t[1]), nil
}

func (d *Device) readTicks(first, n uint32) ([]uint64, error) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	data := vk.NewArray[uint64](a, int(n))
	r := vk.CallResult(d.dev.fns.GetQueryPoolResults, d.dev.handle, uintptr(d.queryPool), uintptr(first), uintptr(n),
		uintptr(8*n), vk.SliceAddr(data), 8, vk.QueryResult64|vk.QueryResultWait)
	if err := check("vkGetQueryPoolResults", r); err != nil {
		return nil, err
	}
	bits := d.dev.phys.facts.TimestampValidBits
	out := make([]uint64, n)
	for i, t := range data {
		if bits < 64 {
			t &= 1<<bits - 1
		}
		out[i] = t
	}
	return out, nil
}

func (d *Device) hostTime(ticks uint64) uint64 {
	ns := float64(ticks)*d.dev.phys.facts.Limits.TimestampPeriod + d.tsOffset
	if ns < 0 || math.IsNaN(ns) {
		return 0
	}
	return uint64(ns)
}

// barrier records a global memory barrier.
func barrier(ld *logical, cmd uintptr, srcStage, dstStage, srcAccess, dstAccess uint32) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	mb := vk.New[vk.MemoryBarrier](a)
	mb.SType = vk.StructureTypeMemoryBarrier
	mb.SrcAccessMask = srcAccess
	mb.DstAccessMask = dstAccess
	vk.Call(ld.fns.CmdPipelineBarrier, cmd, uintptr(srcStage), uintptr(dstStage), 0, 1, vk.Addr(mb), 0, 0, 0, 0)
}

// computeBarrier orders a command after the compute and transfer work before it.
func computeBarrier(ld *logical, cmd uintptr) {
	barrier(ld, cmd, vk.PipelineStageComputeShader|vk.PipelineStageTransfer, vk.PipelineStageComputeShader|vk.PipelineStageTransfer,
		vk.AccessShaderWrite|vk.AccessMemoryWrite, vk.AccessShaderRead|vk.AccessShaderWrite|vk.AccessMemoryRead|vk.AccessMemoryWrite)
}

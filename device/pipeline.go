package device

import (
	"fmt"
	"sync"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Pipeline is the code of one compute entry point loaded on a device (seed 001's pipeline).
// Vulkan fixes a kernel's threads per threadgroup and its specialization constants when it
// builds the pipeline, so a Pipeline builds one VkPipeline per distinct threadgroup size and
// specialization (DispatchArgs.Specialization) it is dispatched with, on first use.
type Pipeline struct {
	d        *Device
	mod      *spirvModule
	entry    string
	entryID  uint32
	argsOnly bool            // its only descriptor is the argument buffer, set 0 binding 0
	wgSpec   map[uint32]bool // SpecIds that carry the workgroup size (the device's own)

	mu       sync.Mutex
	variants map[variantKey]*computePipeline
	// Guarded by d.mu: unloaded once Unload ran; uses counts the submitted command buffers
	// that dispatch it and have not completed; inICB is set once an ICB was recorded with it
	// (an ICB may run for as long as it lives, so its pipelines are kept until Stop).
	unloaded bool
	uses     int
	inICB    bool
}

// LoadPipeline loads spirv's GLCompute entry point entry. It builds the pipeline once with the
// module's own workgroup size, so a driver refusal shows here as a *DriverError.
func (d *Device) LoadPipeline(spirv []byte, entry string) (*Pipeline, error) {
	if err := d.enter(); err != nil {
		return nil, err
	}
	defer d.leave()
	m, err := parseSPIRV(spirv)
	if err != nil {
		return nil, err
	}
	id, ok := m.entries[entry]
	if !ok {
		return nil, argErr("LoadPipeline", -1, "module has no GLCompute entry point %q", entry)
	}
	p := &Pipeline{d: d, mod: m, entry: entry, entryID: id, wgSpec: m.workgroupSpecIDs(id), variants: map[variantKey]*computePipeline{}}
	p.argsOnly = len(m.bindings) == 1 && m.bindings[0] == spirvBinding{Set: 0, Binding: 0, Type: vk.DescriptorTypeStorageBuffer, Count: 1} && !m.pushConstants
	if _, err := p.variant([3]uint32{}, nil); err != nil {
		p.destroy()
		return nil, err
	}
	d.mu.Lock()
	d.pipelines[p] = struct{}{}
	d.mu.Unlock()
	return p, nil
}

// LimitError is a dispatch that asks for more threads per threadgroup than the device allows.
type LimitError struct {
	Threads [3]int
	Max     [3]uint32 // per dimension
	MaxAll  uint32    // in all
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("device: %d×%d×%d threads per threadgroup exceed the limit (%v per dimension, %d in all)",
		e.Threads[0], e.Threads[1], e.Threads[2], e.Max, e.MaxAll)
}

// checkThreads says whether threads fit the device's limits.
func (d *Device) checkThreads(t [3]int) error {
	l := d.dev.phys.facts.Limits
	all := int64(1)
	for k := range 3 {
		all *= int64(t[k])
		if int64(t[k]) > int64(l.MaxComputeWorkGroupSize[k]) {
			return &LimitError{Threads: t, Max: l.MaxComputeWorkGroupSize, MaxAll: l.MaxComputeWorkGroupInvocations}
		}
	}
	if all > int64(l.MaxComputeWorkGroupInvocations) {
		return &LimitError{Threads: t, Max: l.MaxComputeWorkGroupSize, MaxAll: l.MaxComputeWorkGroupInvocations}
	}
	return nil
}

// variantKey names one VkPipeline of a Pipeline: its threads per threadgroup and its
// specialization (specKey's canonical form).
type variantKey struct {
	threads [3]uint32
	spec    string
}

// variant returns the VkPipeline for threads per threadgroup (all zero: the module's own) and
// the specialization vs (checked by checkSpec), merged with the workgroup-size constants.
func (p *Pipeline) variant(threads [3]uint32, vs []SpecValue) (*computePipeline, error) {
	key := variantKey{threads, specKey(vs)}
	p.mu.Lock()
	defer p.mu.Unlock()
	if v, ok := p.variants[key]; ok {
		return v, nil
	}
	words, spec := p.mod.words, map[uint32]uint32(nil)
	if threads != [3]uint32{} {
		words, spec = p.mod.withLocalSize(p.entryID, threads)
	}
	v, err := p.d.dev.newComputePipeline(words, p.entry, p.mod.bindings, p.mod.pushConstants, mergeSpec(spec, vs), false, false)
	if err != nil {
		return nil, err
	}
	p.variants[key] = v
	return v, nil
}

// loaded reports whether p is a pipeline loaded on d.
func (d *Device) loaded(p *Pipeline) bool {
	if p == nil || p.d != d {
		return false
	}
	return d.holds(func() bool { _, ok := d.pipelines[p]; return ok && !p.unloaded })
}

// Unload removes the pipeline from the device: later calls that name it are invalid. Its
// Vulkan objects are destroyed once the work submitted with it completes, so a long-lived
// device that loads and unloads a pipeline per kernel keeps only the pipelines in use. A
// pipeline an ICB was made with is kept until the device stops (the ICB keeps working).
// Unloading twice is harmless.
func (p *Pipeline) Unload() {
	d := p.d
	if d.enter() != nil {
		// Stopping or lost: Stop destroys it with the device.
		d.mu.Lock()
		p.unloaded = true
		d.mu.Unlock()
		return
	}
	defer d.leave()
	d.mu.Lock()
	p.unloaded = true
	dead := d.unusedLocked(p)
	d.mu.Unlock()
	if dead {
		p.destroy()
	}
}

// unusedLocked reports whether p is unloaded and unused and, if so, takes it off the
// device's list for the caller to destroy once it drops d.mu; d.mu is held.
func (d *Device) unusedLocked(p *Pipeline) bool {
	if _, ok := d.pipelines[p]; !ok || !p.unloaded || p.uses > 0 || p.inICB {
		return false
	}
	delete(d.pipelines, p)
	return true
}

func (p *Pipeline) destroy() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, v := range p.variants {
		v.destroy()
	}
	p.variants = map[variantKey]*computePipeline{}
}

package device

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// This file holds what Draw and CaptureVertices share: the device checks, the check of the
// module and its arguments, the start of the recorded draw and the submit-and-wait of it.

// renderingFns checks that the device is usable and can draw, and gives its
// vkCmdBeginRendering and vkCmdEndRendering (the KHR ones where the core ones are missing;
// either may be 0, for the caller to refuse).
func (d *Device) renderingFns() (begin, end uintptr, err error) {
	if err := d.Err(); err != nil {
		return 0, 0, err
	}
	ld := d.dev
	begin, end = ld.draw.CmdBeginRendering, ld.draw.CmdEndRendering
	if begin == 0 || end == 0 {
		begin, end = ld.draw.CmdBeginRenderingKHR, ld.draw.CmdEndRenderingKHR
	}
	if !ld.phys.graphics {
		return 0, 0, fmt.Errorf("%w: %s: the queue family airpipe uses cannot draw", ErrUnavailable, ld.phys.facts.Name)
	}
	return begin, end, nil
}

// stageModule parses spirv and finds its entry point entry of model (stage names it: "Vertex"
// or "Fragment"), and checks that it has no push constants (op does not give them) and that
// bindings and spec fit it. Misuse is an *ArgumentError naming op.
func (d *Device) stageModule(op string, spirv []byte, model uint32, stage, entry string, bindings []Binding, spec []SpecValue) (*spirvModule, spirvEntry, error) {
	m, err := parseSPIRV(spirv)
	if err != nil {
		return nil, spirvEntry{}, err
	}
	e, ok := m.entry(model, entry)
	if !ok {
		return nil, spirvEntry{}, argErr(op, -1, "module has no %s entry point %q", stage, entry)
	}
	if m.pushConstants {
		return nil, spirvEntry{}, argErr(op, -1, "the %s shader has push constants, which %s does not give", strings.ToLower(stage), op)
	}
	if err := d.checkBindings(op, withoutInputAttachments(m.bindings), bindings); err != nil { // Draw binds input attachments (inputattach.go)
		return nil, spirvEntry{}, err
	}
	if err := checkSpec(op, m, spec, nil); err != nil {
		return nil, spirvEntry{}, err
	}
	return m, e, nil
}

// submitWait records record, then timing's split, into one command buffer, submits it and
// waits for it. On failure it calls release, unless the context ended first or the device
// is lost: the device may then still use what release would free.
func (d *Device) submitWait(ctx context.Context, timing *Timing, record func(enc *Encoder) error, release func()) error {
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error {
		if err := record(enc); err != nil {
			return err
		}
		return timing.split(enc)
	}, nil)
	if err == nil {
		err = d.Wait(ctx, v)
	}
	if err != nil && ctx.Err() == nil && !errors.Is(err, ErrLost) {
		release()
	}
	return err
}

// graphicsPrologue gives the open command buffer of enc and p's descriptor sets, written from
// given for the bindings the module declares, and records the barrier that orders earlier
// compute writes before the draw.
func (d *Device) graphicsPrologue(enc *Encoder, a *vk.Arena, p *computePipeline, declared []spirvBinding, given []Binding) (cmd uintptr, sets []uint64, err error) {
	if cmd, err = enc.CommandBuffer(); err != nil {
		return 0, nil, err
	}
	if sets, err = d.writeSets(a, p.setLayouts, declared, given); err != nil {
		return 0, nil, err
	}
	computeBarrier(d.dev, cmd)
	return cmd, sets, nil
}

// bindGraphics records, inside the rendering, the binding of the graphics pipeline p and its
// descriptor sets and a viewport (depth range [0, 1]) and scissor over area.
func bindGraphics(ld *logical, a *vk.Arena, cmd uintptr, p *computePipeline, sets []uint64, area vk.Rect2D) {
	vk.Call(ld.fns.CmdBindPipeline, cmd, vk.PipelineBindPointGraphics, uintptr(p.pipeline))
	if len(p.setLayouts) > 0 {
		vk.Call(ld.fns.CmdBindDescriptorSets, cmd, vk.PipelineBindPointGraphics, uintptr(p.layout), 0, uintptr(len(p.setLayouts)), vk.SliceAddr(sets), 0, 0)
	}
	vp := vk.New[vk.Viewport](a)
	*vp = vk.Viewport{Width: float32(area.Width), Height: float32(area.Height), MaxDepth: 1}
	vk.Call(ld.draw.CmdSetViewport, cmd, 0, 1, vk.Addr(vp))
	sc := vk.New[vk.Rect2D](a)
	*sc = area
	vk.Call(ld.draw.CmdSetScissor, cmd, 0, 1, vk.Addr(sc))
}

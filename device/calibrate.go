package device

import (
	"github.com/airpipe/airpipe/device/internal/vk"
)

// calibrate relates the device's timestamp ticks to HostNanos. With
// VK_EXT_calibrated_timestamps it asks the driver; otherwise it runs a command buffer that
// writes one timestamp between two readings of the host clock, keeps the tightest of several
// rounds and takes the middle of the window (its half-width is the uncertainty).
func (d *Device) calibrate() error {
	ld := d.dev
	period := ld.phys.facts.Limits.TimestampPeriod
	a := vk.GetArena()
	defer vk.PutArena(a)
	if ld.calibrated {
		infos := vk.NewArray[vk.CalibratedTimestampInfo](a, 2)
		infos[0] = vk.CalibratedTimestampInfo{SType: vk.StructureTypeCalibratedTimestampInfo, TimeDomain: vk.TimeDomainDevice}
		infos[1] = vk.CalibratedTimestampInfo{SType: vk.StructureTypeCalibratedTimestampInfo, TimeDomain: vk.TimeDomainClockMonotonic}
		ts := vk.NewArray[uint64](a, 2)
		dev := vk.New[uint64](a)
		r := vk.CallResult(ld.fns.GetCalibratedTimestampsEXT, ld.handle, 2, vk.SliceAddr(infos), vk.SliceAddr(ts), vk.Addr(dev))
		if r == vk.Success {
			d.tsOffset = float64(ts[1]) - float64(ts[0])*period
			d.tsUncert = float64(*dev)
			return nil
		}
	}
	s := d.slots[0]
	q := uint32(2 * d.depth) // the query pool's spare query
	best := -1.0
	for range 5 {
		bi := vk.New[vk.CommandBufferBeginInfo](a)
		bi.SType = vk.StructureTypeCommandBufferBeginInfo
		bi.Flags = vk.CommandBufferUsageOneTimeSubmit
		if err := check("vkBeginCommandBuffer", vk.CallResult(ld.fns.BeginCommandBuffer, s.cmd, vk.Addr(bi))); err != nil {
			return err
		}
		vk.Call(ld.fns.CmdResetQueryPool, s.cmd, uintptr(d.queryPool), uintptr(q), 1)
		vk.Call(ld.fns.CmdWriteTimestamp, s.cmd, vk.PipelineStageTopOfPipe, uintptr(d.queryPool), uintptr(q))
		if err := check("vkEndCommandBuffer", vk.CallResult(ld.fns.EndCommandBuffer, s.cmd)); err != nil {
			return err
		}
		cmd := vk.New[uintptr](a)
		*cmd = s.cmd
		si := vk.New[vk.SubmitInfo](a)
		si.SType = vk.StructureTypeSubmitInfo
		si.CommandBufferCount = 1
		si.PCommandBuffers = vk.Addr(cmd)
		t0 := HostNanos()
		if err := check("vkQueueSubmit", vk.CallResult(ld.fns.QueueSubmit, ld.queue, 1, vk.Addr(si), 0)); err != nil {
			return err
		}
		if err := check("vkQueueWaitIdle", vk.CallResult(ld.fns.QueueWaitIdle, ld.queue)); err != nil {
			return err
		}
		t1 := HostNanos()
		ticks, err := d.readTicks(q, 1)
		if err != nil {
			return err
		}
		if w := float64(t1-t0) / 2; best < 0 || w < best {
			best = w
			d.tsOffset = (float64(t0)+float64(t1))/2 - float64(ticks[0])*period
			d.tsUncert = w
		}
	}
	return nil
}

// ClockCalibration says how GPU timestamps map to HostNanos: host = ticks*period + offset,
// within ± uncertainty nanoseconds. Both are 0 when the device cannot time.
func (d *Device) ClockCalibration() (offsetNs, uncertaintyNs float64) {
	return d.tsOffset, d.tsUncert
}

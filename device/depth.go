package device

import (
	"fmt"
	"math"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// The depth attachment of a draw (DrawArgs.Depth): D32_SFLOAT, cleared to 1.0, tested with
// compare op ALWAYS and written, so that after the draw every covered pixel holds the depth
// its fragment wrote (FragDepth) or, without one, the rasterised depth (0.5 for Draw's
// full-screen triangle); the viewport's depth range is [0, 1] and depth clamping is off.

// depthFormat is the format of a draw's depth attachment.
const depthFormat = vk.FormatD32Sfloat

// depthClear is the depth attachment's value before the draw (1.0).
const depthClear = 1.0

// depthState is the pipeline's depth state: test on with ALWAYS, writes on, no bounds, no
// stencil.
func depthState(a *vk.Arena) *vk.PipelineDepthStencilStateCreateInfo {
	s := vk.New[vk.PipelineDepthStencilStateCreateInfo](a)
	s.SType = vk.StructureTypePipelineDepthStencilStateCreateInfo
	s.DepthTestEnable = 1
	s.DepthWriteEnable = 1
	s.DepthCompareOp = vk.CompareOpAlways
	s.MaxDepthBounds = 1
	return s
}

// depthRange is the depth aspect of the attachment's one level and layer.
func depthRange() vk.ImageSubresourceRange {
	return vk.ImageSubresourceRange{AspectMask: vk.ImageAspectDepth, LevelCount: 1, LayerCount: 1}
}

// checkDepthFormat says whether the device can make an optimally tiled D32_SFLOAT depth
// attachment and copy it out.
func (ld *logical) checkDepthFormat() error {
	p := ld.phys
	name := fmt.Sprintf("%s (%d)", formatNames[depthFormat], depthFormat)
	if p.in.fns.GetPhysicalDeviceFormatProperties == 0 {
		return fmt.Errorf("%w: %s: no vkGetPhysicalDeviceFormatProperties for the depth format %s", ErrUnavailable, p.facts.Name, name)
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	fp := vk.New[vk.FormatProperties](a)
	vk.Call(p.in.fns.GetPhysicalDeviceFormatProperties, p.handle, uintptr(depthFormat), vk.Addr(fp))
	return depthFeatures(p.facts.Name, name, fp.OptimalTilingFeatures)
}

// depthFeatures checks a depth format's optimal-tiling features: a depth attachment that
// can be copied out.
func depthFeatures(device, name string, have uint32) error {
	const need = vk.FormatFeatureDepthStencilAttach | vk.FormatFeatureTransferSrc
	if have&need != need {
		return fmt.Errorf("%w: %s: depth format %s with optimal tiling has features %#x, lacking some of %#x (depth-stencil attachment, transfer source)",
			ErrUnavailable, device, name, have, need)
	}
	return nil
}

// newDepthImage makes the w×h depth attachment, its view and its readback buffer. On
// failure it returns what it made so far (for destroyImage).
func (d *Device) newDepthImage(w, h uint32) (*drawImage, error) {
	return d.newAttachment(depthFormat, 4, vk.ImageUsageDepthStencilAttach, depthRange(), w, h)
}

// depthAttachment is the rendering attachment of im: cleared to depthClear, stored.
func depthAttachment(a *vk.Arena, im *drawImage) *vk.RenderingAttachmentInfo {
	at := vk.New[vk.RenderingAttachmentInfo](a)
	at.SType = vk.StructureTypeRenderingAttachmentInfo
	at.ImageView = im.view
	at.ImageLayout = vk.ImageLayoutDepthStencilAttach
	at.LoadOp = vk.AttachmentLoadOpClear
	at.StoreOp = vk.AttachmentStoreOpStore
	at.ClearValue = [4]uint32{math.Float32bits(depthClear)} // VkClearDepthStencilValue{1.0, 0}
	return at
}

// depthBarrier records im's layout transition from → to.
func depthBarrier(ld *logical, cmd uintptr, im *drawImage, srcStage, dstStage, srcAccess, dstAccess, from, to uint32) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	b := vk.New[vk.ImageMemoryBarrier](a)
	*b = layoutBarrier(im.image, depthRange(), srcAccess, dstAccess, from, to)
	vk.Call(ld.fns.CmdPipelineBarrier, cmd, uintptr(srcStage), uintptr(dstStage), 0, 0, 0, 0, 0, 1, vk.Addr(b))
}

// recordDepthCopy records, after the rendering, the depth attachment's move to TRANSFER_SRC
// and its copy (depth aspect) into its readback buffer.
func recordDepthCopy(ld *logical, cmd uintptr, im *drawImage, w, h uint32) {
	depthBarrier(ld, cmd, im, vk.PipelineStageEarlyFragmentTests|vk.PipelineStageLateFragmentTests, vk.PipelineStageTransfer,
		vk.AccessDepthStencilAttachmentWrite, vk.AccessTransferRead, vk.ImageLayoutDepthStencilAttach, vk.ImageLayoutTransferSrc)
	a := vk.GetArena()
	defer vk.PutArena(a)
	r := vk.New[vk.BufferImageCopy](a)
	r.ImageSubresource = [4]uint32{vk.ImageAspectDepth, 0, 0, 1}
	r.ImageExtent = vk.Extent3D{Width: w, Height: h, Depth: 1}
	vk.Call(ld.draw.CmdCopyImageToBuffer, cmd, uintptr(im.image), vk.ImageLayoutTransferSrc, uintptr(im.readback.buffer), 1, vk.Addr(r))
}

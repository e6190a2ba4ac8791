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
//
// With a stencil aspect (DrawArgs.Stencil) the attachment is D32_SFLOAT_S8_UINT, one image
// of both aspects (a draw has one depth-stencil image): the stencil cleared to
// DrawArgs.StencilClear, tested with compare op ALWAYS and, on pass, REPLACEd by the
// fragment's stencil reference with all 8 bits written, so every covered pixel holds the
// low 8 bits of the FragStencilRefEXT its fragment exported; the depth test is on only
// when DrawArgs.Depth is set. The readback buffer holds the depth words, then the stencil
// bytes (stencilOffset).

// depthFormat is the format of a draw's depth attachment without stencil.
const depthFormat = vk.FormatD32Sfloat

// depthStencilFormat is the format of a draw's attachment with a stencil aspect.
const depthStencilFormat = vk.FormatD32SfloatS8Uint

// depthClear is the depth attachment's value before the draw (1.0).
const depthClear = 1.0

// depthFormatFor is the attachment's format, with a stencil aspect or without.
func depthFormatFor(stencil bool) uint32 {
	if stencil {
		return depthStencilFormat
	}
	return depthFormat
}

// depthState is the pipeline's depth state: the depth test (when depth) on with ALWAYS,
// writes on, no bounds; the stencil test (when stencil) on with ALWAYS, REPLACE on pass,
// compare and write masks 0xff, reference 0.
func depthState(a *vk.Arena, depth, stencil bool) *vk.PipelineDepthStencilStateCreateInfo {
	s := vk.New[vk.PipelineDepthStencilStateCreateInfo](a)
	s.SType = vk.StructureTypePipelineDepthStencilStateCreateInfo
	if depth {
		s.DepthTestEnable = 1
		s.DepthWriteEnable = 1
	}
	s.DepthCompareOp = vk.CompareOpAlways
	s.MaxDepthBounds = 1
	if stencil {
		s.StencilTestEnable = 1
		op := vk.StencilOpState{FailOp: vk.StencilOpKeep, PassOp: vk.StencilOpReplace, DepthFailOp: vk.StencilOpReplace,
			CompareOp: vk.CompareOpAlways, CompareMask: 0xff, WriteMask: 0xff}
		s.Front, s.Back = op, op
	}
	return s
}

// depthRange is the aspects of the attachment's one level and layer.
func depthRange(aspect uint32) vk.ImageSubresourceRange {
	return vk.ImageSubresourceRange{AspectMask: aspect, LevelCount: 1, LayerCount: 1}
}

// stencilOffset is where the stencil bytes start in a w×h attachment's readback buffer:
// after the depth words (a multiple of 4, as a copy's buffer offset must be).
func stencilOffset(w, h uint32) int { return int(w) * int(h) * 4 }

// checkDepthFormat says whether the device can make an optimally tiled depth attachment of
// format and copy it out.
func (ld *logical) checkDepthFormat(format uint32) error {
	p := ld.phys
	name := fmt.Sprintf("%s (%d)", formatNames[format], format)
	if p.in.fns.GetPhysicalDeviceFormatProperties == 0 {
		return fmt.Errorf("%w: %s: no vkGetPhysicalDeviceFormatProperties for the depth format %s", ErrUnavailable, p.facts.Name, name)
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	fp := vk.New[vk.FormatProperties](a)
	vk.Call(p.in.fns.GetPhysicalDeviceFormatProperties, p.handle, uintptr(format), vk.Addr(fp))
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

// newDepthImage makes the w×h depth attachment (with a stencil aspect when stencil), its
// view and its readback buffer. On failure it returns what it made so far (for
// destroyImage).
func (d *Device) newDepthImage(w, h uint32, stencil bool) (*drawImage, error) {
	if stencil {
		return d.newAttachment(depthStencilFormat, 5, vk.ImageUsageDepthStencilAttach, depthRange(vk.ImageAspectDepth|vk.ImageAspectStencil), w, h)
	}
	return d.newAttachment(depthFormat, 4, vk.ImageUsageDepthStencilAttach, depthRange(vk.ImageAspectDepth), w, h)
}

// depthAttachment is the rendering attachment of im: cleared to depthClear (and its
// stencil to stencilClear), stored.
func depthAttachment(a *vk.Arena, im *drawImage, stencilClear uint8) *vk.RenderingAttachmentInfo {
	at := vk.New[vk.RenderingAttachmentInfo](a)
	at.SType = vk.StructureTypeRenderingAttachmentInfo
	at.ImageView = im.view
	at.ImageLayout = vk.ImageLayoutDepthStencilAttach
	at.LoadOp = vk.AttachmentLoadOpClear
	at.StoreOp = vk.AttachmentStoreOpStore
	at.ClearValue = [4]uint32{math.Float32bits(depthClear), uint32(stencilClear)} // VkClearDepthStencilValue
	return at
}

// depthBarrier records im's layout transition from → to.
func depthBarrier(ld *logical, cmd uintptr, im *drawImage, srcStage, dstStage, srcAccess, dstAccess, from, to uint32) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	b := vk.New[vk.ImageMemoryBarrier](a)
	*b = layoutBarrier(im.image, depthRange(im.aspect), srcAccess, dstAccess, from, to)
	vk.Call(ld.fns.CmdPipelineBarrier, cmd, uintptr(srcStage), uintptr(dstStage), 0, 0, 0, 0, 0, 1, vk.Addr(b))
}

// recordDepthCopy records, after the rendering, the depth attachment's move to TRANSFER_SRC
// and its copies into its readback buffer: the depth aspect, then any stencil aspect at
// stencilOffset.
func recordDepthCopy(ld *logical, cmd uintptr, im *drawImage, w, h uint32) {
	depthBarrier(ld, cmd, im, vk.PipelineStageEarlyFragmentTests|vk.PipelineStageLateFragmentTests, vk.PipelineStageTransfer,
		vk.AccessDepthStencilAttachmentWrite, vk.AccessTransferRead, vk.ImageLayoutDepthStencilAttach, vk.ImageLayoutTransferSrc)
	a := vk.GetArena()
	defer vk.PutArena(a)
	n := 1
	if im.aspect&vk.ImageAspectStencil != 0 {
		n = 2
	}
	rs := vk.NewArray[vk.BufferImageCopy](a, n)
	rs[0].ImageSubresource = [4]uint32{vk.ImageAspectDepth, 0, 0, 1}
	rs[0].ImageExtent = vk.Extent3D{Width: w, Height: h, Depth: 1}
	if n == 2 {
		rs[1] = rs[0]
		rs[1].ImageSubresource[0] = vk.ImageAspectStencil
		rs[1].BufferOffset = uint64(stencilOffset(w, h))
	}
	vk.Call(ld.draw.CmdCopyImageToBuffer, cmd, uintptr(im.image), vk.ImageLayoutTransferSrc, uintptr(im.readback.buffer), uintptr(n), vk.SliceAddr(rs))
}

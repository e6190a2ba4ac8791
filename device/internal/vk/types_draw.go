package vk

// Structures, constants and functions of drawing into images (draw.go in package device).

// ImageCreateInfo is VkImageCreateInfo.
type ImageCreateInfo struct {
	SType                 uint32
	PNext                 uintptr
	Flags                 uint32
	ImageType             uint32
	Format                uint32
	Extent                Extent3D
	MipLevels             uint32
	ArrayLayers           uint32
	Samples               uint32
	Tiling                uint32
	Usage                 uint32
	SharingMode           uint32
	QueueFamilyIndexCount uint32
	PQueueFamilyIndices   uintptr
	InitialLayout         uint32
}

// Extent3D is VkExtent3D.
type Extent3D struct{ Width, Height, Depth uint32 }

// ImageSubresourceRange is VkImageSubresourceRange.
type ImageSubresourceRange struct {
	AspectMask, BaseMipLevel, LevelCount, BaseArrayLayer, LayerCount uint32
}

// ImageViewCreateInfo is VkImageViewCreateInfo.
type ImageViewCreateInfo struct {
	SType            uint32
	PNext            uintptr
	Flags            uint32
	Image            uint64
	ViewType         uint32
	Format           uint32
	Components       [4]uint32
	SubresourceRange ImageSubresourceRange
}

// ImageMemoryBarrier is VkImageMemoryBarrier.
type ImageMemoryBarrier struct {
	SType               uint32
	PNext               uintptr
	SrcAccessMask       uint32
	DstAccessMask       uint32
	OldLayout           uint32
	NewLayout           uint32
	SrcQueueFamilyIndex uint32
	DstQueueFamilyIndex uint32
	Image               uint64
	SubresourceRange    ImageSubresourceRange
}

// RenderingAttachmentInfo is VkRenderingAttachmentInfo. ClearValue is the
// VkClearValue union's 16 bytes.
type RenderingAttachmentInfo struct {
	SType              uint32
	PNext              uintptr
	ImageView          uint64
	ImageLayout        uint32
	ResolveMode        uint32
	ResolveImageView   uint64
	ResolveImageLayout uint32
	LoadOp             uint32
	StoreOp            uint32
	ClearValue         [4]uint32
}

// Rect2D is VkRect2D.
type Rect2D struct {
	X, Y          int32
	Width, Height uint32
}

// RenderingInfo is VkRenderingInfo.
type RenderingInfo struct {
	SType                uint32
	PNext                uintptr
	Flags                uint32
	RenderArea           Rect2D
	LayerCount           uint32
	ViewMask             uint32
	ColorAttachmentCount uint32
	PColorAttachments    uintptr
	PDepthAttachment     uintptr
	PStencilAttachment   uintptr
}

// Viewport is VkViewport.
type Viewport struct{ X, Y, Width, Height, MinDepth, MaxDepth float32 }

// BufferImageCopy is VkBufferImageCopy.
type BufferImageCopy struct {
	BufferOffset      uint64
	BufferRowLength   uint32
	BufferImageHeight uint32
	// ImageSubresource is VkImageSubresourceLayers: aspect, mip level, base layer, layer count.
	ImageSubresource [4]uint32
	ImageOffset      [3]int32
	ImageExtent      Extent3D
}

// DrawFns are the device-level functions of drawing; CmdBeginRendering and
// CmdEndRendering are core in Vulkan 1.3, the KHR names serve older devices.
type DrawFns struct {
	CreateImage                uintptr
	DestroyImage               uintptr
	GetImageMemoryRequirements uintptr
	BindImageMemory            uintptr
	CreateImageView            uintptr
	DestroyImageView           uintptr
	CmdBeginRendering          uintptr
	CmdEndRendering            uintptr
	CmdBeginRenderingKHR       uintptr
	CmdEndRenderingKHR         uintptr
	CmdDraw                    uintptr
	CmdSetViewport             uintptr
	CmdSetScissor              uintptr
	CmdCopyImageToBuffer       uintptr
	CmdBindVertexBuffers       uintptr
	// VK_EXT_transform_feedback (vertex capture); 0 without the extension.
	CmdBindTransformFeedbackBuffersEXT uintptr
	CmdBeginTransformFeedbackEXT       uintptr
	CmdEndTransformFeedbackEXT         uintptr
}

// Values of drawing.
const (
	StructureTypeImageCreateInfo         = 14
	StructureTypeImageViewCreateInfo     = 15
	StructureTypeImageMemoryBarrier      = 45
	StructureTypeRenderingInfo           = 1000044000
	StructureTypeRenderingAttachmentInfo = 1000044001

	ImageType2D               = 1
	ImageViewType2D           = 1
	ImageTilingOptimal        = 0
	ImageUsageTransferSrc     = 0x1
	ImageUsageColorAttach     = 0x10
	ImageAspectColor          = 0x1
	ImageLayoutUndefined      = 0
	ImageLayoutColorAttach    = 2
	ImageLayoutTransferSrc    = 6
	AttachmentLoadOpClear     = 1
	AttachmentStoreOpStore    = 0
	QueueFamilyIgnored        = ^uint32(0)
	QueueGraphicsBit          = 0x1
	PipelineBindPointGraphics = 0

	PipelineStageColorAttachmentOutput = 0x400
	PipelineStageFragmentShader        = 0x80
	AccessColorAttachmentWrite         = 0x100
	AccessTransferRead                 = 0x800
	AccessTransferWrite                = 0x1000

	BufferUsageVertexBuffer        = 0x80
	BufferUsageTransformFeedback   = 0x800
	PipelineStageVertexInput       = 0x4
	PipelineStageVertexShader      = 0x8
	PipelineStageTransformFeedback = 0x01000000
	AccessTransformFeedbackWrite   = 0x02000000
)

package vk

// Structures, constants and functions of render passes: a draw whose fragment shader reads
// colour attachments as input attachments (inputattach.go in package device) needs one, as
// dynamic rendering reads no input attachments without VK_KHR_dynamic_rendering_local_read.

// AttachmentDescription is VkAttachmentDescription.
type AttachmentDescription struct {
	Flags          uint32
	Format         uint32
	Samples        uint32
	LoadOp         uint32
	StoreOp        uint32
	StencilLoadOp  uint32
	StencilStoreOp uint32
	InitialLayout  uint32
	FinalLayout    uint32
}

// AttachmentReference is VkAttachmentReference.
type AttachmentReference struct {
	Attachment uint32
	Layout     uint32
}

// SubpassDescription is VkSubpassDescription.
type SubpassDescription struct {
	Flags                   uint32
	PipelineBindPoint       uint32
	InputAttachmentCount    uint32
	PInputAttachments       uintptr
	ColorAttachmentCount    uint32
	PColorAttachments       uintptr
	PResolveAttachments     uintptr
	PDepthStencilAttachment uintptr
	PreserveAttachmentCount uint32
	PPreserveAttachments    uintptr
}

// SubpassDependency is VkSubpassDependency.
type SubpassDependency struct {
	SrcSubpass      uint32
	DstSubpass      uint32
	SrcStageMask    uint32
	DstStageMask    uint32
	SrcAccessMask   uint32
	DstAccessMask   uint32
	DependencyFlags uint32
}

// RenderPassCreateInfo is VkRenderPassCreateInfo.
type RenderPassCreateInfo struct {
	SType           uint32
	PNext           uintptr
	Flags           uint32
	AttachmentCount uint32
	PAttachments    uintptr
	SubpassCount    uint32
	PSubpasses      uintptr
	DependencyCount uint32
	PDependencies   uintptr
}

// FramebufferCreateInfo is VkFramebufferCreateInfo.
type FramebufferCreateInfo struct {
	SType           uint32
	PNext           uintptr
	Flags           uint32
	RenderPass      uint64
	AttachmentCount uint32
	PAttachments    uintptr
	Width           uint32
	Height          uint32
	Layers          uint32
}

// RenderPassBeginInfo is VkRenderPassBeginInfo. PClearValues points at 16-byte VkClearValues.
type RenderPassBeginInfo struct {
	SType           uint32
	PNext           uintptr
	RenderPass      uint64
	Framebuffer     uint64
	RenderArea      Rect2D
	ClearValueCount uint32
	PClearValues    uintptr
}

// RenderPassFns are the device-level functions of render passes (core in Vulkan 1.0).
type RenderPassFns struct {
	CreateRenderPass   uintptr
	DestroyRenderPass  uintptr
	CreateFramebuffer  uintptr
	DestroyFramebuffer uintptr
	CmdBeginRenderPass uintptr
	CmdEndRenderPass   uintptr
}

// Values of render passes.
const (
	StructureTypeFramebufferCreateInfo = 37
	StructureTypeRenderPassCreateInfo  = 38
	StructureTypeRenderPassBeginInfo   = 43

	ImageUsageInputAttachment = 0x80
	AttachmentLoadOpLoad      = 0
	AttachmentLoadOpDontCare  = 2
	AttachmentStoreOpDontCare = 1
	AttachmentUnused          = ^uint32(0)
	SubpassContentsInline     = 0
	DependencyByRegion        = 0x1

	AccessInputAttachmentRead = 0x10
	AccessColorAttachmentRead = 0x80
)

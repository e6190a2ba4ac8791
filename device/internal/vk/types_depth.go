package vk

// Structures and constants of a draw's depth attachment (depth.go in package device).

// StencilOpState is VkStencilOpState.
type StencilOpState struct {
	FailOp, PassOp, DepthFailOp, CompareOp, CompareMask, WriteMask, Reference uint32
}

// PipelineDepthStencilStateCreateInfo is VkPipelineDepthStencilStateCreateInfo.
type PipelineDepthStencilStateCreateInfo struct {
	SType                 uint32
	PNext                 uintptr
	Flags                 uint32
	DepthTestEnable       uint32
	DepthWriteEnable      uint32
	DepthCompareOp        uint32
	DepthBoundsTestEnable uint32
	StencilTestEnable     uint32
	Front                 StencilOpState
	Back                  StencilOpState
	MinDepthBounds        float32
	MaxDepthBounds        float32
}

// Values of depth attachments.
const (
	StructureTypePipelineDepthStencilStateCreateInfo = 25

	CompareOpAlways                   = 7
	StencilOpKeep                     = 0
	StencilOpReplace                  = 2
	FormatD32SfloatS8Uint             = 130
	ImageAspectStencil                = 0x4
	ImageUsageDepthStencilAttach      = 0x20
	FormatFeatureDepthStencilAttach   = 0x200
	ImageLayoutDepthStencilAttach     = 3
	PipelineStageEarlyFragmentTests   = 0x100
	PipelineStageLateFragmentTests    = 0x200
	AccessDepthStencilAttachmentRead  = 0x200
	AccessDepthStencilAttachmentWrite = 0x400
)

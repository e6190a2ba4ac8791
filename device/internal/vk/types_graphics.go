package vk

// GraphicsPipelineCreateInfo is VkGraphicsPipelineCreateInfo.
type GraphicsPipelineCreateInfo struct {
	SType               uint32
	PNext               uintptr
	Flags               uint32
	StageCount          uint32
	PStages             uintptr
	PVertexInputState   uintptr
	PInputAssemblyState uintptr
	PTessellationState  uintptr
	PViewportState      uintptr
	PRasterizationState uintptr
	PMultisampleState   uintptr
	PDepthStencilState  uintptr
	PColorBlendState    uintptr
	PDynamicState       uintptr
	Layout              uint64
	RenderPass          uint64
	Subpass             uint32
	BasePipelineHandle  uint64
	BasePipelineIndex   int32
}

// PipelineVertexInputStateCreateInfo is VkPipelineVertexInputStateCreateInfo.
type PipelineVertexInputStateCreateInfo struct {
	SType                           uint32
	PNext                           uintptr
	Flags                           uint32
	VertexBindingDescriptionCount   uint32
	PVertexBindingDescriptions      uintptr
	VertexAttributeDescriptionCount uint32
	PVertexAttributeDescriptions    uintptr
}

// VertexInputBindingDescription is VkVertexInputBindingDescription.
type VertexInputBindingDescription struct {
	Binding   uint32
	Stride    uint32
	InputRate uint32
}

// VertexInputAttributeDescription is VkVertexInputAttributeDescription.
type VertexInputAttributeDescription struct {
	Location uint32
	Binding  uint32
	Format   uint32
	Offset   uint32
}

// PipelineInputAssemblyStateCreateInfo is VkPipelineInputAssemblyStateCreateInfo.
type PipelineInputAssemblyStateCreateInfo struct {
	SType                  uint32
	PNext                  uintptr
	Flags                  uint32
	Topology               uint32
	PrimitiveRestartEnable uint32
}

// PipelineViewportStateCreateInfo is VkPipelineViewportStateCreateInfo.
type PipelineViewportStateCreateInfo struct {
	SType         uint32
	PNext         uintptr
	Flags         uint32
	ViewportCount uint32
	PViewports    uintptr
	ScissorCount  uint32
	PScissors     uintptr
}

// PipelineRasterizationStateCreateInfo is VkPipelineRasterizationStateCreateInfo.
type PipelineRasterizationStateCreateInfo struct {
	SType                   uint32
	PNext                   uintptr
	Flags                   uint32
	DepthClampEnable        uint32
	RasterizerDiscardEnable uint32
	PolygonMode             uint32
	CullMode                uint32
	FrontFace               uint32
	DepthBiasEnable         uint32
	DepthBiasConstantFactor float32
	DepthBiasClamp          float32
	DepthBiasSlopeFactor    float32
	LineWidth               float32
}

// PipelineMultisampleStateCreateInfo is VkPipelineMultisampleStateCreateInfo.
type PipelineMultisampleStateCreateInfo struct {
	SType                 uint32
	PNext                 uintptr
	Flags                 uint32
	RasterizationSamples  uint32
	SampleShadingEnable   uint32
	MinSampleShading      float32
	PSampleMask           uintptr
	AlphaToCoverageEnable uint32
	AlphaToOneEnable      uint32
}

// PipelineColorBlendAttachmentState is VkPipelineColorBlendAttachmentState.
type PipelineColorBlendAttachmentState struct {
	BlendEnable         uint32
	SrcColorBlendFactor uint32
	DstColorBlendFactor uint32
	ColorBlendOp        uint32
	SrcAlphaBlendFactor uint32
	DstAlphaBlendFactor uint32
	AlphaBlendOp        uint32
	ColorWriteMask      uint32
}

// PipelineColorBlendStateCreateInfo is VkPipelineColorBlendStateCreateInfo.
type PipelineColorBlendStateCreateInfo struct {
	SType           uint32
	PNext           uintptr
	Flags           uint32
	LogicOpEnable   uint32
	LogicOp         uint32
	AttachmentCount uint32
	PAttachments    uintptr
	BlendConstants  [4]float32
}

// PipelineDynamicStateCreateInfo is VkPipelineDynamicStateCreateInfo.
type PipelineDynamicStateCreateInfo struct {
	SType             uint32
	PNext             uintptr
	Flags             uint32
	DynamicStateCount uint32
	PDynamicStates    uintptr
}

// PipelineRenderingCreateInfo is VkPipelineRenderingCreateInfo (dynamic rendering).
type PipelineRenderingCreateInfo struct {
	SType                   uint32
	PNext                   uintptr
	ViewMask                uint32
	ColorAttachmentCount    uint32
	PColorAttachmentFormats uintptr
	DepthAttachmentFormat   uint32
	StencilAttachmentFormat uint32
}

// Graphics pipeline enumerants.
const (
	StructureTypePipelineVertexInputStateCreateInfo   = 19
	StructureTypePipelineInputAssemblyStateCreateInfo = 20
	StructureTypePipelineViewportStateCreateInfo      = 22
	StructureTypePipelineRasterizationStateCreateInfo = 23
	StructureTypePipelineMultisampleStateCreateInfo   = 24
	StructureTypePipelineColorBlendStateCreateInfo    = 26
	StructureTypePipelineDynamicStateCreateInfo       = 27
	StructureTypeGraphicsPipelineCreateInfo           = 28
	StructureTypePipelineRenderingCreateInfo          = 1000044002

	ShaderStageVertex      = 0x1
	ShaderStageFragment    = 0x10
	ShaderStageAllGraphics = 0x1f

	PrimitiveTopologyTriangleList = 3
	PolygonModeFill               = 0
	SampleCount1                  = 1
	ColorComponentAll             = 0xf
	DynamicStateViewport          = 0
	DynamicStateScissor           = 1
	VertexInputRateVertex         = 0
)

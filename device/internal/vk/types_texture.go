package vk

// Structures, constants and functions of sampled textures (texture.go in package device).

// SamplerCreateInfo is VkSamplerCreateInfo.
type SamplerCreateInfo struct {
	SType                   uint32
	PNext                   uintptr
	Flags                   uint32
	MagFilter               uint32
	MinFilter               uint32
	MipmapMode              uint32
	AddressModeU            uint32
	AddressModeV            uint32
	AddressModeW            uint32
	MipLodBias              float32
	AnisotropyEnable        uint32
	MaxAnisotropy           float32
	CompareEnable           uint32
	CompareOp               uint32
	MinLod                  float32
	MaxLod                  float32
	BorderColor             uint32
	UnnormalizedCoordinates uint32
}

// DescriptorImageInfo is VkDescriptorImageInfo.
type DescriptorImageInfo struct {
	Sampler     uint64
	ImageView   uint64
	ImageLayout uint32
}

// ClearDepthStencilValue is VkClearDepthStencilValue.
type ClearDepthStencilValue struct {
	Depth   float32
	Stencil uint32
}

// FormatProperties is VkFormatProperties.
type FormatProperties struct {
	LinearTilingFeatures  uint32
	OptimalTilingFeatures uint32
	BufferFeatures        uint32
}

// ImageFormatProperties is VkImageFormatProperties.
type ImageFormatProperties struct {
	MaxExtent       Extent3D
	MaxMipLevels    uint32
	MaxArrayLayers  uint32
	SampleCounts    uint32
	MaxResourceSize uint64
}

// TextureFns are the device-level functions of sampled textures.
type TextureFns struct {
	CreateSampler             uintptr
	DestroySampler            uintptr
	CmdClearColorImage        uintptr
	CmdClearDepthStencilImage uintptr
}

// Values of sampled textures.
const (
	StructureTypeSamplerCreateInfo = 31

	ImageType1D = 0
	ImageType3D = 2

	ImageViewType1D        = 0
	ImageViewType3D        = 2
	ImageViewTypeCube      = 3
	ImageViewType1DArray   = 4
	ImageViewType2DArray   = 5
	ImageViewTypeCubeArray = 6

	ImageCreateCubeCompatible = 0x10
	ImageUsageTransferDst     = 0x2
	ImageUsageSampled         = 0x4
	ImageAspectDepth          = 0x2
	ImageLayoutShaderReadOnly = 5
	ImageLayoutTransferDst    = 7

	FormatR32G32B32A32Uint   = 107
	FormatR32G32B32A32Sint   = 108
	FormatR32G32B32A32Sfloat = 109
	FormatD32Sfloat          = 126

	FormatFeatureSampledImage = 0x1
	FormatFeatureTransferDst  = 0x8000

	FilterNearest                 = 0
	SamplerMipmapModeNearest      = 0
	SamplerAddressModeClampToEdge = 2
	CompareOpNever                = 0
	BorderColorFloatTransparent   = 0
)

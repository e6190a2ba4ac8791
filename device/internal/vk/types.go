package vk

// The C structures below follow vulkan_core.h field for field on 64-bit hosts: pointers are
// uintptr, non-dispatchable handles uint64, VkBool32 uint32. sizes_test.go pins their sizes.

// ApplicationInfo is VkApplicationInfo.
type ApplicationInfo struct {
	SType              uint32
	PNext              uintptr
	PApplicationName   uintptr
	ApplicationVersion uint32
	PEngineName        uintptr
	EngineVersion      uint32
	APIVersion         uint32
}

// InstanceCreateInfo is VkInstanceCreateInfo.
type InstanceCreateInfo struct {
	SType                   uint32
	PNext                   uintptr
	Flags                   uint32
	PApplicationInfo        uintptr
	EnabledLayerCount       uint32
	PPEnabledLayerNames     uintptr
	EnabledExtensionCount   uint32
	PPEnabledExtensionNames uintptr
}

// PhysicalDeviceLimits is VkPhysicalDeviceLimits.
type PhysicalDeviceLimits struct {
	MaxImageDimension1D                             uint32
	MaxImageDimension2D                             uint32
	MaxImageDimension3D                             uint32
	MaxImageDimensionCube                           uint32
	MaxImageArrayLayers                             uint32
	MaxTexelBufferElements                          uint32
	MaxUniformBufferRange                           uint32
	MaxStorageBufferRange                           uint32
	MaxPushConstantsSize                            uint32
	MaxMemoryAllocationCount                        uint32
	MaxSamplerAllocationCount                       uint32
	BufferImageGranularity                          uint64
	SparseAddressSpaceSize                          uint64
	MaxBoundDescriptorSets                          uint32
	MaxPerStageDescriptorSamplers                   uint32
	MaxPerStageDescriptorUniformBuffers             uint32
	MaxPerStageDescriptorStorageBuffers             uint32
	MaxPerStageDescriptorSampledImages              uint32
	MaxPerStageDescriptorStorageImages              uint32
	MaxPerStageDescriptorInputAttachments           uint32
	MaxPerStageResources                            uint32
	MaxDescriptorSetSamplers                        uint32
	MaxDescriptorSetUniformBuffers                  uint32
	MaxDescriptorSetUniformBuffersDynamic           uint32
	MaxDescriptorSetStorageBuffers                  uint32
	MaxDescriptorSetStorageBuffersDynamic           uint32
	MaxDescriptorSetSampledImages                   uint32
	MaxDescriptorSetStorageImages                   uint32
	MaxDescriptorSetInputAttachments                uint32
	MaxVertexInputAttributes                        uint32
	MaxVertexInputBindings                          uint32
	MaxVertexInputAttributeOffset                   uint32
	MaxVertexInputBindingStride                     uint32
	MaxVertexOutputComponents                       uint32
	MaxTessellationGenerationLevel                  uint32
	MaxTessellationPatchSize                        uint32
	MaxTessellationControlPerVertexInputComponents  uint32
	MaxTessellationControlPerVertexOutputComponents uint32
	MaxTessellationControlPerPatchOutputComponents  uint32
	MaxTessellationControlTotalOutputComponents     uint32
	MaxTessellationEvaluationInputComponents        uint32
	MaxTessellationEvaluationOutputComponents       uint32
	MaxGeometryShaderInvocations                    uint32
	MaxGeometryInputComponents                      uint32
	MaxGeometryOutputComponents                     uint32
	MaxGeometryOutputVertices                       uint32
	MaxGeometryTotalOutputComponents                uint32
	MaxFragmentInputComponents                      uint32
	MaxFragmentOutputAttachments                    uint32
	MaxFragmentDualSrcAttachments                   uint32
	MaxFragmentCombinedOutputResources              uint32
	MaxComputeSharedMemorySize                      uint32
	MaxComputeWorkGroupCount                        [3]uint32
	MaxComputeWorkGroupInvocations                  uint32
	MaxComputeWorkGroupSize                         [3]uint32
	SubPixelPrecisionBits                           uint32
	SubTexelPrecisionBits                           uint32
	MipmapPrecisionBits                             uint32
	MaxDrawIndexedIndexValue                        uint32
	MaxDrawIndirectCount                            uint32
	MaxSamplerLodBias                               float32
	MaxSamplerAnisotropy                            float32
	MaxViewports                                    uint32
	MaxViewportDimensions                           [2]uint32
	ViewportBoundsRange                             [2]float32
	ViewportSubPixelBits                            uint32
	MinMemoryMapAlignment                           uintptr
	MinTexelBufferOffsetAlignment                   uint64
	MinUniformBufferOffsetAlignment                 uint64
	MinStorageBufferOffsetAlignment                 uint64
	MinTexelOffset                                  int32
	MaxTexelOffset                                  uint32
	MinTexelGatherOffset                            int32
	MaxTexelGatherOffset                            uint32
	MinInterpolationOffset                          float32
	MaxInterpolationOffset                          float32
	SubPixelInterpolationOffsetBits                 uint32
	MaxFramebufferWidth                             uint32
	MaxFramebufferHeight                            uint32
	MaxFramebufferLayers                            uint32
	FramebufferColorSampleCounts                    uint32
	FramebufferDepthSampleCounts                    uint32
	FramebufferStencilSampleCounts                  uint32
	FramebufferNoAttachmentsSampleCounts            uint32
	MaxColorAttachments                             uint32
	SampledImageColorSampleCounts                   uint32
	SampledImageIntegerSampleCounts                 uint32
	SampledImageDepthSampleCounts                   uint32
	SampledImageStencilSampleCounts                 uint32
	StorageImageSampleCounts                        uint32
	MaxSampleMaskWords                              uint32
	TimestampComputeAndGraphics                     uint32
	TimestampPeriod                                 float32
	MaxClipDistances                                uint32
	MaxCullDistances                                uint32
	MaxCombinedClipAndCullDistances                 uint32
	DiscreteQueuePriorities                         uint32
	PointSizeRange                                  [2]float32
	LineWidthRange                                  [2]float32
	PointSizeGranularity                            float32
	LineWidthGranularity                            float32
	StrictLines                                     uint32
	StandardSampleLocations                         uint32
	OptimalBufferCopyOffsetAlignment                uint64
	OptimalBufferCopyRowPitchAlignment              uint64
	NonCoherentAtomSize                             uint64
}

// PhysicalDeviceProperties is VkPhysicalDeviceProperties.
type PhysicalDeviceProperties struct {
	APIVersion        uint32
	DriverVersion     uint32
	VendorID          uint32
	DeviceID          uint32
	DeviceType        uint32
	DeviceName        [256]byte
	PipelineCacheUUID [16]byte
	Limits            PhysicalDeviceLimits
	SparseProperties  [5]uint32
}

// PhysicalDeviceProperties2 is VkPhysicalDeviceProperties2.
type PhysicalDeviceProperties2 struct {
	SType      uint32
	PNext      uintptr
	Properties PhysicalDeviceProperties
}

// PhysicalDeviceDriverProperties is VkPhysicalDeviceDriverProperties.
type PhysicalDeviceDriverProperties struct {
	SType              uint32
	PNext              uintptr
	DriverID           uint32
	DriverName         [256]byte
	DriverInfo         [256]byte
	ConformanceVersion [4]uint8
}

// PhysicalDeviceSubgroupProperties is VkPhysicalDeviceSubgroupProperties.
type PhysicalDeviceSubgroupProperties struct {
	SType                     uint32
	PNext                     uintptr
	SubgroupSize              uint32
	SupportedStages           uint32
	SupportedOperations       uint32
	QuadOperationsInAllStages uint32
}

// FeaturesHeader is the start of every VkPhysicalDevice*Features structure.
type FeaturesHeader struct {
	SType uint32
	PNext uintptr
}

// QueueFamilyProperties is VkQueueFamilyProperties.
type QueueFamilyProperties struct {
	QueueFlags                  uint32
	QueueCount                  uint32
	TimestampValidBits          uint32
	MinImageTransferGranularity [3]uint32
}

// MemoryType is VkMemoryType.
type MemoryType struct {
	PropertyFlags uint32
	HeapIndex     uint32
}

// MemoryHeap is VkMemoryHeap.
type MemoryHeap struct {
	Size  uint64
	Flags uint32
}

// PhysicalDeviceMemoryProperties is VkPhysicalDeviceMemoryProperties.
type PhysicalDeviceMemoryProperties struct {
	MemoryTypeCount uint32
	MemoryTypes     [32]MemoryType
	MemoryHeapCount uint32
	MemoryHeaps     [16]MemoryHeap
}

// ExtensionProperties is VkExtensionProperties.
type ExtensionProperties struct {
	ExtensionName [256]byte
	SpecVersion   uint32
}

// DeviceQueueCreateInfo is VkDeviceQueueCreateInfo.
type DeviceQueueCreateInfo struct {
	SType            uint32
	PNext            uintptr
	Flags            uint32
	QueueFamilyIndex uint32
	QueueCount       uint32
	PQueuePriorities uintptr
}

// DeviceCreateInfo is VkDeviceCreateInfo.
type DeviceCreateInfo struct {
	SType                   uint32
	PNext                   uintptr
	Flags                   uint32
	QueueCreateInfoCount    uint32
	PQueueCreateInfos       uintptr
	EnabledLayerCount       uint32
	PPEnabledLayerNames     uintptr
	EnabledExtensionCount   uint32
	PPEnabledExtensionNames uintptr
	PEnabledFeatures        uintptr
}

// ShaderModuleCreateInfo is VkShaderModuleCreateInfo.
type ShaderModuleCreateInfo struct {
	SType    uint32
	PNext    uintptr
	Flags    uint32
	CodeSize uintptr
	PCode    uintptr
}

// DescriptorSetLayoutBinding is VkDescriptorSetLayoutBinding.
type DescriptorSetLayoutBinding struct {
	Binding            uint32
	DescriptorType     uint32
	DescriptorCount    uint32
	StageFlags         uint32
	PImmutableSamplers uintptr
}

// DescriptorSetLayoutCreateInfo is VkDescriptorSetLayoutCreateInfo.
type DescriptorSetLayoutCreateInfo struct {
	SType        uint32
	PNext        uintptr
	Flags        uint32
	BindingCount uint32
	PBindings    uintptr
}

// PushConstantRange is VkPushConstantRange.
type PushConstantRange struct {
	StageFlags uint32
	Offset     uint32
	Size       uint32
}

// PipelineLayoutCreateInfo is VkPipelineLayoutCreateInfo.
type PipelineLayoutCreateInfo struct {
	SType                  uint32
	PNext                  uintptr
	Flags                  uint32
	SetLayoutCount         uint32
	PSetLayouts            uintptr
	PushConstantRangeCount uint32
	PPushConstantRanges    uintptr
}

// SpecializationMapEntry is VkSpecializationMapEntry.
type SpecializationMapEntry struct {
	ConstantID uint32
	Offset     uint32
	Size       uintptr
}

// SpecializationInfo is VkSpecializationInfo.
type SpecializationInfo struct {
	MapEntryCount uint32
	PMapEntries   uintptr
	DataSize      uintptr
	PData         uintptr
}

// PipelineShaderStageCreateInfo is VkPipelineShaderStageCreateInfo.
type PipelineShaderStageCreateInfo struct {
	SType               uint32
	PNext               uintptr
	Flags               uint32
	Stage               uint32
	Module              uint64
	PName               uintptr
	PSpecializationInfo uintptr
}

// ComputePipelineCreateInfo is VkComputePipelineCreateInfo.
type ComputePipelineCreateInfo struct {
	SType              uint32
	PNext              uintptr
	Flags              uint32
	Stage              PipelineShaderStageCreateInfo
	Layout             uint64
	BasePipelineHandle uint64
	BasePipelineIndex  int32
}

// PipelineInfoKHR is VkPipelineInfoKHR.
type PipelineInfoKHR struct {
	SType    uint32
	PNext    uintptr
	Pipeline uint64
}

// PipelineExecutablePropertiesKHR is VkPipelineExecutablePropertiesKHR.
type PipelineExecutablePropertiesKHR struct {
	SType        uint32
	PNext        uintptr
	Stages       uint32
	Name         [256]byte
	Description  [256]byte
	SubgroupSize uint32
}

// PipelineExecutableInfoKHR is VkPipelineExecutableInfoKHR.
type PipelineExecutableInfoKHR struct {
	SType           uint32
	PNext           uintptr
	Pipeline        uint64
	ExecutableIndex uint32
}

// PipelineExecutableStatisticKHR is VkPipelineExecutableStatisticKHR; Value holds the union's
// eight bytes.
type PipelineExecutableStatisticKHR struct {
	SType       uint32
	PNext       uintptr
	Name        [256]byte
	Description [256]byte
	Format      uint32
	Value       uint64
}

// BufferCreateInfo is VkBufferCreateInfo.
type BufferCreateInfo struct {
	SType                 uint32
	PNext                 uintptr
	Flags                 uint32
	Size                  uint64
	Usage                 uint32
	SharingMode           uint32
	QueueFamilyIndexCount uint32
	PQueueFamilyIndices   uintptr
}

// MemoryRequirements is VkMemoryRequirements.
type MemoryRequirements struct {
	Size           uint64
	Alignment      uint64
	MemoryTypeBits uint32
}

// MemoryAllocateInfo is VkMemoryAllocateInfo.
type MemoryAllocateInfo struct {
	SType           uint32
	PNext           uintptr
	AllocationSize  uint64
	MemoryTypeIndex uint32
}

// MemoryAllocateFlagsInfo is VkMemoryAllocateFlagsInfo.
type MemoryAllocateFlagsInfo struct {
	SType      uint32
	PNext      uintptr
	Flags      uint32
	DeviceMask uint32
}

// DescriptorPoolSize is VkDescriptorPoolSize.
type DescriptorPoolSize struct {
	Type            uint32
	DescriptorCount uint32
}

// DescriptorPoolCreateInfo is VkDescriptorPoolCreateInfo.
type DescriptorPoolCreateInfo struct {
	SType         uint32
	PNext         uintptr
	Flags         uint32
	MaxSets       uint32
	PoolSizeCount uint32
	PPoolSizes    uintptr
}

// DescriptorSetAllocateInfo is VkDescriptorSetAllocateInfo.
type DescriptorSetAllocateInfo struct {
	SType              uint32
	PNext              uintptr
	DescriptorPool     uint64
	DescriptorSetCount uint32
	PSetLayouts        uintptr
}

// DescriptorBufferInfo is VkDescriptorBufferInfo.
type DescriptorBufferInfo struct {
	Buffer uint64
	Offset uint64
	Range  uint64
}

// WriteDescriptorSet is VkWriteDescriptorSet.
type WriteDescriptorSet struct {
	SType            uint32
	PNext            uintptr
	DstSet           uint64
	DstBinding       uint32
	DstArrayElement  uint32
	DescriptorCount  uint32
	DescriptorType   uint32
	PImageInfo       uintptr
	PBufferInfo      uintptr
	PTexelBufferView uintptr
}

// CommandPoolCreateInfo is VkCommandPoolCreateInfo.
type CommandPoolCreateInfo struct {
	SType            uint32
	PNext            uintptr
	Flags            uint32
	QueueFamilyIndex uint32
}

// CommandBufferAllocateInfo is VkCommandBufferAllocateInfo.
type CommandBufferAllocateInfo struct {
	SType              uint32
	PNext              uintptr
	CommandPool        uint64
	Level              uint32
	CommandBufferCount uint32
}

// CommandBufferInheritanceInfo is VkCommandBufferInheritanceInfo.
type CommandBufferInheritanceInfo struct {
	SType                uint32
	PNext                uintptr
	RenderPass           uint64
	Subpass              uint32
	Framebuffer          uint64
	OcclusionQueryEnable uint32
	QueryFlags           uint32
	PipelineStatistics   uint32
}

// CommandBufferBeginInfo is VkCommandBufferBeginInfo.
type CommandBufferBeginInfo struct {
	SType            uint32
	PNext            uintptr
	Flags            uint32
	PInheritanceInfo uintptr
}

// MemoryBarrier is VkMemoryBarrier.
type MemoryBarrier struct {
	SType         uint32
	PNext         uintptr
	SrcAccessMask uint32
	DstAccessMask uint32
}

// SubmitInfo is VkSubmitInfo.
type SubmitInfo struct {
	SType                uint32
	PNext                uintptr
	WaitSemaphoreCount   uint32
	PWaitSemaphores      uintptr
	PWaitDstStageMask    uintptr
	CommandBufferCount   uint32
	PCommandBuffers      uintptr
	SignalSemaphoreCount uint32
	PSignalSemaphores    uintptr
}

// TimelineSemaphoreSubmitInfo is VkTimelineSemaphoreSubmitInfo.
type TimelineSemaphoreSubmitInfo struct {
	SType                     uint32
	PNext                     uintptr
	WaitSemaphoreValueCount   uint32
	PWaitSemaphoreValues      uintptr
	SignalSemaphoreValueCount uint32
	PSignalSemaphoreValues    uintptr
}

// SemaphoreTypeCreateInfo is VkSemaphoreTypeCreateInfo.
type SemaphoreTypeCreateInfo struct {
	SType         uint32
	PNext         uintptr
	SemaphoreType uint32
	InitialValue  uint64
}

// SemaphoreCreateInfo is VkSemaphoreCreateInfo.
type SemaphoreCreateInfo struct {
	SType uint32
	PNext uintptr
	Flags uint32
}

// SemaphoreWaitInfo is VkSemaphoreWaitInfo.
type SemaphoreWaitInfo struct {
	SType          uint32
	PNext          uintptr
	Flags          uint32
	SemaphoreCount uint32
	PSemaphores    uintptr
	PValues        uintptr
}

// SemaphoreSignalInfo is VkSemaphoreSignalInfo.
type SemaphoreSignalInfo struct {
	SType     uint32
	PNext     uintptr
	Semaphore uint64
	Value     uint64
}

// QueryPoolCreateInfo is VkQueryPoolCreateInfo.
type QueryPoolCreateInfo struct {
	SType              uint32
	PNext              uintptr
	Flags              uint32
	QueryType          uint32
	QueryCount         uint32
	PipelineStatistics uint32
}

// CalibratedTimestampInfo is VkCalibratedTimestampInfoKHR.
type CalibratedTimestampInfo struct {
	SType      uint32
	PNext      uintptr
	TimeDomain uint32
}

// BufferDeviceAddressInfo is VkBufferDeviceAddressInfo.
type BufferDeviceAddressInfo struct {
	SType  uint32
	PNext  uintptr
	Buffer uint64
}

// DebugReportCallbackCreateInfo is VkDebugReportCallbackCreateInfoEXT.
type DebugReportCallbackCreateInfo struct {
	SType       uint32
	PNext       uintptr
	Flags       uint32
	PfnCallback uintptr
	PUserData   uintptr
}

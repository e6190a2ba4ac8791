package vk

import "fmt"

// Result is a VkResult.
type Result int32

// VkResult values airpipe names.
const (
	Success                   Result = 0
	NotReady                  Result = 1
	Timeout                   Result = 2
	Incomplete                Result = 5
	ErrorOutOfHostMemory      Result = -1
	ErrorOutOfDeviceMemory    Result = -2
	ErrorInitializationFailed Result = -3
	ErrorDeviceLost           Result = -4
	ErrorMemoryMapFailed      Result = -5
	ErrorLayerNotPresent      Result = -6
	ErrorExtensionNotPresent  Result = -7
	ErrorFeatureNotPresent    Result = -8
	ErrorIncompatibleDriver   Result = -9
	ErrorTooManyObjects       Result = -10
	ErrorFormatNotSupported   Result = -11
	ErrorFragmentedPool       Result = -12
	ErrorUnknown              Result = -13
	ErrorOutOfPoolMemory      Result = -1000069000
	ErrorInvalidShaderNV      Result = -1000012000
	PipelineCompileRequired   Result = 1000297000
)

var resultNames = map[Result]string{
	Success: "VK_SUCCESS", NotReady: "VK_NOT_READY", Timeout: "VK_TIMEOUT",
	Incomplete: "VK_INCOMPLETE", ErrorOutOfHostMemory: "VK_ERROR_OUT_OF_HOST_MEMORY",
	ErrorOutOfDeviceMemory: "VK_ERROR_OUT_OF_DEVICE_MEMORY", ErrorInitializationFailed: "VK_ERROR_INITIALIZATION_FAILED",
	ErrorDeviceLost: "VK_ERROR_DEVICE_LOST", ErrorMemoryMapFailed: "VK_ERROR_MEMORY_MAP_FAILED",
	ErrorLayerNotPresent: "VK_ERROR_LAYER_NOT_PRESENT", ErrorExtensionNotPresent: "VK_ERROR_EXTENSION_NOT_PRESENT",
	ErrorFeatureNotPresent: "VK_ERROR_FEATURE_NOT_PRESENT", ErrorIncompatibleDriver: "VK_ERROR_INCOMPATIBLE_DRIVER",
	ErrorTooManyObjects: "VK_ERROR_TOO_MANY_OBJECTS", ErrorFormatNotSupported: "VK_ERROR_FORMAT_NOT_SUPPORTED",
	ErrorFragmentedPool: "VK_ERROR_FRAGMENTED_POOL", ErrorUnknown: "VK_ERROR_UNKNOWN",
	ErrorOutOfPoolMemory: "VK_ERROR_OUT_OF_POOL_MEMORY", ErrorInvalidShaderNV: "VK_ERROR_INVALID_SHADER_NV",
	PipelineCompileRequired: "VK_PIPELINE_COMPILE_REQUIRED",
}

// String is the VkResult's name from vulkan_core.h, or its number.
func (r Result) String() string {
	if s, ok := resultNames[r]; ok {
		return s
	}
	return fmt.Sprintf("VkResult(%d)", int32(r))
}

// VkStructureType values.
const (
	StructureTypeApplicationInfo                                    = 0
	StructureTypeInstanceCreateInfo                                 = 1
	StructureTypeDeviceQueueCreateInfo                              = 2
	StructureTypeDeviceCreateInfo                                   = 3
	StructureTypeSubmitInfo                                         = 4
	StructureTypeMemoryAllocateInfo                                 = 5
	StructureTypeSemaphoreCreateInfo                                = 9
	StructureTypeQueryPoolCreateInfo                                = 11
	StructureTypeBufferDeviceAddressInfo                            = 1000244001
	StructureTypeBufferCreateInfo                                   = 12
	StructureTypeShaderModuleCreateInfo                             = 16
	StructureTypePipelineShaderStageCreateInfo                      = 18
	StructureTypeComputePipelineCreateInfo                          = 29
	StructureTypePipelineLayoutCreateInfo                           = 30
	StructureTypeDescriptorSetLayoutCreateInfo                      = 32
	StructureTypeDescriptorPoolCreateInfo                           = 33
	StructureTypeDescriptorSetAllocateInfo                          = 34
	StructureTypeWriteDescriptorSet                                 = 35
	StructureTypeCommandPoolCreateInfo                              = 39
	StructureTypeCommandBufferAllocateInfo                          = 40
	StructureTypeCommandBufferInheritanceInfo                       = 41
	StructureTypeCommandBufferBeginInfo                             = 42
	StructureTypeMemoryBarrier                                      = 46
	StructureTypePhysicalDeviceVulkan11Features                     = 49
	StructureTypePhysicalDeviceVulkan12Features                     = 51
	StructureTypePhysicalDeviceVulkan13Features                     = 53
	StructureTypePhysicalDeviceFeatures2                            = 1000059000
	StructureTypePhysicalDeviceProperties2                          = 1000059001
	StructureTypeMemoryAllocateFlagsInfo                            = 1000060000
	StructureTypeDebugReportCallbackCreateInfo                      = 1000011000
	StructureTypeCalibratedTimestampInfo                            = 1000184000
	StructureTypePhysicalDeviceDriverProperties                     = 1000196000
	StructureTypePhysicalDeviceSubgroupProperties                   = 1000094000
	StructureTypeSemaphoreTypeCreateInfo                            = 1000207002
	StructureTypeTimelineSemaphoreSubmitInfo                        = 1000207003
	StructureTypeSemaphoreWaitInfo                                  = 1000207004
	StructureTypeSemaphoreSignalInfo                                = 1000207005
	StructureTypePhysicalDevicePipelineExecutablePropertiesFeatures = 1000269000
	StructureTypePipelineInfoKHR                                    = 1000269001
	StructureTypePipelineExecutablePropertiesKHR                    = 1000269002
	StructureTypePipelineExecutableInfoKHR                          = 1000269003
	StructureTypePipelineExecutableStatisticKHR                     = 1000269004
)

// Sizes of the feature structures airpipe chains whole (from vulkan_core.h on 64-bit hosts).
const (
	SizeofPhysicalDeviceFeatures2        = 240
	SizeofPhysicalDeviceVulkan11Features = 64
	SizeofPhysicalDeviceVulkan12Features = 208
	SizeofPhysicalDeviceVulkan13Features = 80
	SizeofPipelineExecutableFeatures     = 24
)

// Other enumerants and flags.
const (
	QueueComputeBit = 0x2

	DebugReportWarning            = 0x2
	DebugReportPerformanceWarning = 0x4
	DebugReportError              = 0x8

	ShaderStageCompute = 0x20

	DescriptorTypeSampler               = 0
	DescriptorTypeCombinedImageSampler  = 1
	DescriptorTypeSampledImage          = 2
	DescriptorTypeStorageImage          = 3
	DescriptorTypeUniformTexelBuffer    = 4
	DescriptorTypeStorageTexelBuffer    = 5
	DescriptorTypeUniformBuffer         = 6
	DescriptorTypeStorageBuffer         = 7
	DescriptorTypeUniformBufferDynamic  = 8
	DescriptorTypeStorageBufferDynamic  = 9
	DescriptorTypeInputAttachment       = 10
	DescriptorTypeAccelerationStructure = 1000150000

	PipelineCreateCaptureStatistics = 0x40
	PipelineBindPointCompute        = 1

	StatisticFormatBool32  = 0
	StatisticFormatInt64   = 1
	StatisticFormatUint64  = 2
	StatisticFormatFloat64 = 3

	BufferUsageTransferSrc         = 0x1
	BufferUsageTransferDst         = 0x2
	BufferUsageUniformBuffer       = 0x10
	BufferUsageStorageBuffer       = 0x20
	BufferUsageShaderDeviceAddress = 0x20000

	MemoryPropertyDeviceLocal  = 0x1
	MemoryPropertyHostVisible  = 0x2
	MemoryPropertyHostCoherent = 0x4

	MemoryAllocateDeviceAddress = 0x2

	DescriptorPoolCreateFreeDescriptorSet = 0x1

	CommandPoolCreateResetCommandBuffer = 0x2
	CommandBufferLevelPrimary           = 0
	CommandBufferLevelSecondary         = 1
	CommandBufferUsageOneTimeSubmit     = 0x1
	CommandBufferUsageSimultaneousUse   = 0x4

	PipelineStageTopOfPipe     = 0x1
	PipelineStageComputeShader = 0x800
	PipelineStageTransfer      = 0x1000
	PipelineStageBottomOfPipe  = 0x2000
	PipelineStageHost          = 0x4000
	PipelineStageAllCommands   = 0x10000

	AccessShaderRead  = 0x20
	AccessShaderWrite = 0x40
	AccessHostRead    = 0x2000
	AccessHostWrite   = 0x4000
	AccessMemoryRead  = 0x8000
	AccessMemoryWrite = 0x10000

	SemaphoreTypeTimeline   = 1
	QueryTypeTimestamp      = 2
	QueryResult64           = 0x1
	QueryResultWait         = 0x2
	QueryResultAvailability = 0x4

	TimeDomainDevice         = 0
	TimeDomainClockMonotonic = 1

	PhysicalDeviceTypeOther         = 0
	PhysicalDeviceTypeIntegratedGPU = 1
	PhysicalDeviceTypeDiscreteGPU   = 2
	PhysicalDeviceTypeVirtualGPU    = 3
	PhysicalDeviceTypeCPU           = 4
)

// MakeAPIVersion is VK_MAKE_API_VERSION(0, major, minor, patch).
func MakeAPIVersion(major, minor, patch uint32) uint32 { return major<<22 | minor<<12 | patch }

// APIVersionString formats a packed Vulkan version as major.minor.patch.
func APIVersionString(v uint32) string {
	return fmt.Sprintf("%d.%d.%d", v>>22&0x7f, v>>12&0x3ff, v&0xfff)
}

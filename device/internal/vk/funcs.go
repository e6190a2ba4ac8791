package vk

// GlobalFns are the functions vkGetInstanceProcAddr gives without an instance.
type GlobalFns struct {
	CreateInstance                       uintptr
	EnumerateInstanceVersion             uintptr
	EnumerateInstanceExtensionProperties uintptr
}

// InstanceFns are the instance-level functions airpipe uses.
type InstanceFns struct {
	DestroyInstance                              uintptr
	EnumeratePhysicalDevices                     uintptr
	GetPhysicalDeviceProperties2                 uintptr
	GetPhysicalDeviceFeatures2                   uintptr
	GetPhysicalDeviceQueueFamilyProperties       uintptr
	GetPhysicalDeviceMemoryProperties            uintptr
	GetPhysicalDeviceFormatProperties            uintptr
	GetPhysicalDeviceImageFormatProperties       uintptr
	EnumerateDeviceExtensionProperties           uintptr
	CreateDevice                                 uintptr
	GetDeviceProcAddr                            uintptr
	GetPhysicalDeviceCalibrateableTimeDomainsEXT uintptr
	CreateDebugReportCallbackEXT                 uintptr
}

// DeviceFns are the device-level functions airpipe uses. Extension functions may be 0.
type DeviceFns struct {
	DestroyDevice                      uintptr
	GetDeviceQueue                     uintptr
	DeviceWaitIdle                     uintptr
	CreateShaderModule                 uintptr
	DestroyShaderModule                uintptr
	CreateDescriptorSetLayout          uintptr
	DestroyDescriptorSetLayout         uintptr
	CreatePipelineLayout               uintptr
	DestroyPipelineLayout              uintptr
	CreateComputePipelines             uintptr
	CreateGraphicsPipelines            uintptr
	DestroyPipeline                    uintptr
	GetPipelineExecutablePropertiesKHR uintptr
	GetPipelineExecutableStatisticsKHR uintptr
	CreateBuffer                       uintptr
	DestroyBuffer                      uintptr
	GetBufferMemoryRequirements        uintptr
	AllocateMemory                     uintptr
	FreeMemory                         uintptr
	BindBufferMemory                   uintptr
	MapMemory                          uintptr
	UnmapMemory                        uintptr
	CreateDescriptorPool               uintptr
	DestroyDescriptorPool              uintptr
	AllocateDescriptorSets             uintptr
	FreeDescriptorSets                 uintptr
	ResetDescriptorPool                uintptr
	UpdateDescriptorSets               uintptr
	CreateCommandPool                  uintptr
	DestroyCommandPool                 uintptr
	AllocateCommandBuffers             uintptr
	FreeCommandBuffers                 uintptr
	BeginCommandBuffer                 uintptr
	EndCommandBuffer                   uintptr
	ResetCommandBuffer                 uintptr
	CmdBindPipeline                    uintptr
	CmdBindDescriptorSets              uintptr
	CmdPushConstants                   uintptr
	CmdDispatch                        uintptr
	CmdPipelineBarrier                 uintptr
	CmdWriteTimestamp                  uintptr
	CmdResetQueryPool                  uintptr
	CmdExecuteCommands                 uintptr
	QueueSubmit                        uintptr
	QueueWaitIdle                      uintptr
	CreateSemaphore                    uintptr
	DestroySemaphore                   uintptr
	WaitSemaphores                     uintptr
	SignalSemaphore                    uintptr
	GetSemaphoreCounterValue           uintptr
	CreateQueryPool                    uintptr
	DestroyQueryPool                   uintptr
	GetQueryPoolResults                uintptr
	GetCalibratedTimestampsEXT         uintptr
	GetBufferDeviceAddress             uintptr
}

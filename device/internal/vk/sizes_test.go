//go:build amd64 || arm64

package vk

import (
	"testing"
	"unsafe"
)

// TestSizes pins each structure's size to sizeof of its C counterpart in vulkan_core.h
// (Vulkan-Headers 1.4.359, measured with gcc on x86-64), so a dropped or mistyped field fails.
func TestSizes(t *testing.T) {
	for _, c := range []struct {
		name string
		got  uintptr
		want uintptr
	}{
		{"ApplicationInfo", unsafe.Sizeof(ApplicationInfo{}), 48},
		{"ImageCreateInfo", unsafe.Sizeof(ImageCreateInfo{}), 88},
		{"ImageViewCreateInfo", unsafe.Sizeof(ImageViewCreateInfo{}), 80},
		{"ImageMemoryBarrier", unsafe.Sizeof(ImageMemoryBarrier{}), 72},
		{"SamplerCreateInfo", unsafe.Sizeof(SamplerCreateInfo{}), 80},
		{"DescriptorImageInfo", unsafe.Sizeof(DescriptorImageInfo{}), 24},
		{"ClearDepthStencilValue", unsafe.Sizeof(ClearDepthStencilValue{}), 8},
		{"FormatProperties", unsafe.Sizeof(FormatProperties{}), 12},
		{"ImageFormatProperties", unsafe.Sizeof(ImageFormatProperties{}), 32},
		{"RenderingAttachmentInfo", unsafe.Sizeof(RenderingAttachmentInfo{}), 72},
		{"RenderingInfo", unsafe.Sizeof(RenderingInfo{}), 72},
		{"Viewport", unsafe.Sizeof(Viewport{}), 24},
		{"BufferImageCopy", unsafe.Sizeof(BufferImageCopy{}), 56},
		{"Rect2D", unsafe.Sizeof(Rect2D{}), 16},
		{"InstanceCreateInfo", unsafe.Sizeof(InstanceCreateInfo{}), 64},
		{"PhysicalDeviceLimits", unsafe.Sizeof(PhysicalDeviceLimits{}), 504},
		{"PhysicalDeviceProperties", unsafe.Sizeof(PhysicalDeviceProperties{}), 824},
		{"PhysicalDeviceProperties2", unsafe.Sizeof(PhysicalDeviceProperties2{}), 840},
		{"PhysicalDeviceDriverProperties", unsafe.Sizeof(PhysicalDeviceDriverProperties{}), 536},
		{"PhysicalDeviceSubgroupProperties", unsafe.Sizeof(PhysicalDeviceSubgroupProperties{}), 32},
		{"QueueFamilyProperties", unsafe.Sizeof(QueueFamilyProperties{}), 24},
		{"PhysicalDeviceMemoryProperties", unsafe.Sizeof(PhysicalDeviceMemoryProperties{}), 520},
		{"ExtensionProperties", unsafe.Sizeof(ExtensionProperties{}), 260},
		{"DeviceQueueCreateInfo", unsafe.Sizeof(DeviceQueueCreateInfo{}), 40},
		{"DeviceCreateInfo", unsafe.Sizeof(DeviceCreateInfo{}), 72},
		{"ShaderModuleCreateInfo", unsafe.Sizeof(ShaderModuleCreateInfo{}), 40},
		{"DescriptorSetLayoutBinding", unsafe.Sizeof(DescriptorSetLayoutBinding{}), 24},
		{"DescriptorSetLayoutCreateInfo", unsafe.Sizeof(DescriptorSetLayoutCreateInfo{}), 32},
		{"PushConstantRange", unsafe.Sizeof(PushConstantRange{}), 12},
		{"PipelineLayoutCreateInfo", unsafe.Sizeof(PipelineLayoutCreateInfo{}), 48},
		{"SpecializationMapEntry", unsafe.Sizeof(SpecializationMapEntry{}), 16},
		{"SpecializationInfo", unsafe.Sizeof(SpecializationInfo{}), 32},
		{"PipelineShaderStageCreateInfo", unsafe.Sizeof(PipelineShaderStageCreateInfo{}), 48},
		{"ComputePipelineCreateInfo", unsafe.Sizeof(ComputePipelineCreateInfo{}), 96},
		{"PipelineInfoKHR", unsafe.Sizeof(PipelineInfoKHR{}), 24},
		{"PipelineExecutablePropertiesKHR", unsafe.Sizeof(PipelineExecutablePropertiesKHR{}), 536},
		{"PipelineExecutableInfoKHR", unsafe.Sizeof(PipelineExecutableInfoKHR{}), 32},
		{"PipelineExecutableStatisticKHR", unsafe.Sizeof(PipelineExecutableStatisticKHR{}), 544},
		{"BufferCreateInfo", unsafe.Sizeof(BufferCreateInfo{}), 56},
		{"MemoryRequirements", unsafe.Sizeof(MemoryRequirements{}), 24},
		{"MemoryAllocateInfo", unsafe.Sizeof(MemoryAllocateInfo{}), 32},
		{"MemoryAllocateFlagsInfo", unsafe.Sizeof(MemoryAllocateFlagsInfo{}), 24},
		{"DescriptorPoolSize", unsafe.Sizeof(DescriptorPoolSize{}), 8},
		{"DescriptorPoolCreateInfo", unsafe.Sizeof(DescriptorPoolCreateInfo{}), 40},
		{"DescriptorSetAllocateInfo", unsafe.Sizeof(DescriptorSetAllocateInfo{}), 40},
		{"DescriptorBufferInfo", unsafe.Sizeof(DescriptorBufferInfo{}), 24},
		{"WriteDescriptorSet", unsafe.Sizeof(WriteDescriptorSet{}), 64},
		{"CommandPoolCreateInfo", unsafe.Sizeof(CommandPoolCreateInfo{}), 24},
		{"CommandBufferAllocateInfo", unsafe.Sizeof(CommandBufferAllocateInfo{}), 32},
		{"CommandBufferInheritanceInfo", unsafe.Sizeof(CommandBufferInheritanceInfo{}), 56},
		{"CommandBufferBeginInfo", unsafe.Sizeof(CommandBufferBeginInfo{}), 32},
		{"MemoryBarrier", unsafe.Sizeof(MemoryBarrier{}), 24},
		{"SubmitInfo", unsafe.Sizeof(SubmitInfo{}), 72},
		{"TimelineSemaphoreSubmitInfo", unsafe.Sizeof(TimelineSemaphoreSubmitInfo{}), 48},
		{"SemaphoreTypeCreateInfo", unsafe.Sizeof(SemaphoreTypeCreateInfo{}), 32},
		{"SemaphoreCreateInfo", unsafe.Sizeof(SemaphoreCreateInfo{}), 24},
		{"SemaphoreWaitInfo", unsafe.Sizeof(SemaphoreWaitInfo{}), 40},
		{"SemaphoreSignalInfo", unsafe.Sizeof(SemaphoreSignalInfo{}), 32},
		{"QueryPoolCreateInfo", unsafe.Sizeof(QueryPoolCreateInfo{}), 32},
		{"CalibratedTimestampInfo", unsafe.Sizeof(CalibratedTimestampInfo{}), 24},
		{"DebugReportCallbackCreateInfo", unsafe.Sizeof(DebugReportCallbackCreateInfo{}), 40},
		{"GraphicsPipelineCreateInfo", unsafe.Sizeof(GraphicsPipelineCreateInfo{}), 144},
		{"StencilOpState", unsafe.Sizeof(StencilOpState{}), 28},
		{"PipelineDepthStencilStateCreateInfo", unsafe.Sizeof(PipelineDepthStencilStateCreateInfo{}), 104},
		{"PipelineVertexInputStateCreateInfo", unsafe.Sizeof(PipelineVertexInputStateCreateInfo{}), 48},
		{"VertexInputBindingDescription", unsafe.Sizeof(VertexInputBindingDescription{}), 12},
		{"VertexInputAttributeDescription", unsafe.Sizeof(VertexInputAttributeDescription{}), 16},
		{"PipelineInputAssemblyStateCreateInfo", unsafe.Sizeof(PipelineInputAssemblyStateCreateInfo{}), 32},
		{"PipelineViewportStateCreateInfo", unsafe.Sizeof(PipelineViewportStateCreateInfo{}), 48},
		{"PipelineRasterizationStateCreateInfo", unsafe.Sizeof(PipelineRasterizationStateCreateInfo{}), 64},
		{"PipelineMultisampleStateCreateInfo", unsafe.Sizeof(PipelineMultisampleStateCreateInfo{}), 48},
		{"PipelineColorBlendAttachmentState", unsafe.Sizeof(PipelineColorBlendAttachmentState{}), 32},
		{"PipelineColorBlendStateCreateInfo", unsafe.Sizeof(PipelineColorBlendStateCreateInfo{}), 56},
		{"PipelineDynamicStateCreateInfo", unsafe.Sizeof(PipelineDynamicStateCreateInfo{}), 32},
		{"PipelineRenderingCreateInfo", unsafe.Sizeof(PipelineRenderingCreateInfo{}), 40},
		{"BufferDeviceAddressInfo", unsafe.Sizeof(BufferDeviceAddressInfo{}), 24},
	} {
		if c.got != c.want {
			t.Errorf("%s: Go size %d, C size %d", c.name, c.got, c.want)
		}
	}
	var l PhysicalDeviceLimits
	if off := unsafe.Offsetof(l.TimestampPeriod); off != 424 {
		t.Errorf("PhysicalDeviceLimits.TimestampPeriod at %d, C at 424", off)
	}
	if off := unsafe.Offsetof(l.MinStorageBufferOffsetAlignment); off != 328 {
		t.Errorf("PhysicalDeviceLimits.MinStorageBufferOffsetAlignment at %d, C at 328", off)
	}
	var sc SamplerCreateInfo
	if off := unsafe.Offsetof(sc.MaxLod); off != 68 {
		t.Errorf("SamplerCreateInfo.MaxLod at %d, C at 68", off)
	}
	if off := unsafe.Offsetof(sc.UnnormalizedCoordinates); off != 76 {
		t.Errorf("SamplerCreateInfo.UnnormalizedCoordinates at %d, C at 76", off)
	}
	var ip ImageFormatProperties
	if off := unsafe.Offsetof(ip.MaxResourceSize); off != 24 {
		t.Errorf("ImageFormatProperties.MaxResourceSize at %d, C at 24", off)
	}
}

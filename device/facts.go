package device

import (
	"fmt"
	"math"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Facts describe one physical device.
type Facts struct {
	Index         int    // position in the loader's enumeration
	Name          string // e.g. "llvmpipe (LLVM 15.0.6, 256 bits)", "AMD RADV NAVI21"
	Kind          string // "discrete-gpu", "integrated-gpu", "virtual-gpu", "cpu" or "other"
	Driver        string // the driver's name, e.g. "llvmpipe", "radv"
	DriverInfo    string // e.g. "Mesa 22.3.6"
	DriverID      uint32 // VkDriverId
	VendorID      uint32
	DeviceID      uint32
	APIVersion    string // e.g. "1.3.230"
	DriverVersion string // the packed driver version as major.minor.patch
	RADVFamily    string // the forced RADV family of a null device, or ""
	Limits        Limits

	TimelineSemaphores   bool // Vulkan 1.2 timeline semaphores
	ExecutableStatistics bool // VK_KHR_pipeline_executable_properties
	CalibratedTimestamps bool // VK_EXT_calibrated_timestamps
	TimestampValidBits   uint32

	// SubgroupSize is VkPhysicalDeviceSubgroupProperties.subgroupSize: the
	// width of the device's subgroups, a Metal SIMD-group's width on it
	// (lavapipe 8, NVIDIA 32). airpipe asks for no required subgroup size
	// and no full subgroups (VK_EXT_subgroup_size_control), so a compute
	// pipeline runs at this width.
	SubgroupSize uint32
	// SubgroupStages and SubgroupOperations are its supportedStages
	// (VkShaderStageFlags) and supportedOperations (VkSubgroupFeatureFlags:
	// basic 0x1, vote 0x2, arithmetic 0x4, ballot 0x8, shuffle 0x10,
	// shuffle_relative 0x20, clustered 0x40, quad 0x80).
	SubgroupStages     uint32
	SubgroupOperations uint32
}

// Limits are the device limits airpipe uses.
type Limits struct {
	MinStorageBufferOffsetAlignment uint64
	MinUniformBufferOffsetAlignment uint64
	TimestampPeriod                 float64 // nanoseconds per timestamp tick; +Inf when it has none
	TimestampComputeAndGraphics     bool
	MaxComputeWorkGroupInvocations  uint32
	MaxComputeWorkGroupSize         [3]uint32
	MaxComputeWorkGroupCount        [3]uint32
	MaxComputeSharedMemorySize      uint32
	MaxStorageBufferRange           uint32
	MaxUniformBufferRange           uint32
	MaxPushConstantsSize            uint32
	MaxBoundDescriptorSets          uint32
}

// CanTime says whether the device's compute queue writes usable timestamps.
func (f Facts) CanTime() bool {
	p := f.Limits.TimestampPeriod
	return f.TimestampValidBits > 0 && p > 0 && !math.IsInf(p, 0) && !math.IsNaN(p)
}

func (f Facts) String() string {
	return fmt.Sprintf("%d: %s (%s, driver %s %s, Vulkan %s)", f.Index, f.Name, f.Kind, f.Driver, f.DriverInfo, f.APIVersion)
}

var kindNames = map[uint32]string{
	vk.PhysicalDeviceTypeOther:         "other",
	vk.PhysicalDeviceTypeIntegratedGPU: "integrated-gpu",
	vk.PhysicalDeviceTypeDiscreteGPU:   "discrete-gpu",
	vk.PhysicalDeviceTypeVirtualGPU:    "virtual-gpu",
	vk.PhysicalDeviceTypeCPU:           "cpu",
}

// physical is one VkPhysicalDevice with what airpipe needs to open it.
type physical struct {
	in          *instance
	handle      uintptr
	facts       Facts
	api         uint32
	extensions  map[string]bool
	queueFamily uint32
	graphics    bool // the queue family also draws
	memory      vk.PhysicalDeviceMemoryProperties
}

func newPhysical(in *instance, h uintptr, index int) (*physical, error) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	p := &physical{in: in, handle: h}

	props := vk.New[vk.PhysicalDeviceProperties2](a)
	props.SType = vk.StructureTypePhysicalDeviceProperties2
	drv := vk.New[vk.PhysicalDeviceDriverProperties](a)
	drv.SType = vk.StructureTypePhysicalDeviceDriverProperties
	props.PNext = vk.Addr(drv)
	sub := vk.New[vk.PhysicalDeviceSubgroupProperties](a)
	sub.SType = vk.StructureTypePhysicalDeviceSubgroupProperties
	drv.PNext = vk.Addr(sub)
	vk.Call(in.fns.GetPhysicalDeviceProperties2, h, vk.Addr(props))
	pp := &props.Properties
	l := &pp.Limits
	p.api = pp.APIVersion
	p.facts = Facts{
		Index:              index,
		Name:               vk.GoString(pp.DeviceName[:]),
		Kind:               kindNames[pp.DeviceType],
		Driver:             vk.GoString(drv.DriverName[:]),
		DriverInfo:         vk.GoString(drv.DriverInfo[:]),
		DriverID:           drv.DriverID,
		VendorID:           pp.VendorID,
		DeviceID:           pp.DeviceID,
		APIVersion:         vk.APIVersionString(pp.APIVersion),
		DriverVersion:      vk.APIVersionString(pp.DriverVersion),
		RADVFamily:         in.radv,
		SubgroupSize:       sub.SubgroupSize,
		SubgroupStages:     sub.SupportedStages,
		SubgroupOperations: sub.SupportedOperations,
		Limits: Limits{
			MinStorageBufferOffsetAlignment: l.MinStorageBufferOffsetAlignment,
			MinUniformBufferOffsetAlignment: l.MinUniformBufferOffsetAlignment,
			TimestampPeriod:                 float64(l.TimestampPeriod),
			TimestampComputeAndGraphics:     l.TimestampComputeAndGraphics != 0,
			MaxComputeWorkGroupInvocations:  l.MaxComputeWorkGroupInvocations,
			MaxComputeWorkGroupSize:         l.MaxComputeWorkGroupSize,
			MaxComputeWorkGroupCount:        l.MaxComputeWorkGroupCount,
			MaxComputeSharedMemorySize:      l.MaxComputeSharedMemorySize,
			MaxStorageBufferRange:           l.MaxStorageBufferRange,
			MaxUniformBufferRange:           l.MaxUniformBufferRange,
			MaxPushConstantsSize:            l.MaxPushConstantsSize,
			MaxBoundDescriptorSets:          l.MaxBoundDescriptorSets,
		},
	}
	if p.facts.Kind == "" {
		p.facts.Kind = "other"
	}

	n := vk.New[uint32](a)
	if err := check("vkEnumerateDeviceExtensionProperties", vk.CallResult(in.fns.EnumerateDeviceExtensionProperties, h, 0, vk.Addr(n), 0)); err != nil {
		return nil, err
	}
	exts := vk.NewArray[vk.ExtensionProperties](a, int(*n))
	if r := vk.CallResult(in.fns.EnumerateDeviceExtensionProperties, h, 0, vk.Addr(n), vk.SliceAddr(exts)); r < 0 {
		return nil, check("vkEnumerateDeviceExtensionProperties", r)
	}
	p.extensions = map[string]bool{}
	for _, e := range exts[:*n] {
		p.extensions[vk.GoString(e.ExtensionName[:])] = true
	}
	p.facts.TimelineSemaphores = pp.APIVersion >= vk.MakeAPIVersion(1, 2, 0) || p.extensions["VK_KHR_timeline_semaphore"]
	p.facts.ExecutableStatistics = p.extensions["VK_KHR_pipeline_executable_properties"]
	p.facts.CalibratedTimestamps = p.extensions["VK_EXT_calibrated_timestamps"]

	vk.Call(in.fns.GetPhysicalDeviceQueueFamilyProperties, h, vk.Addr(n), 0)
	qs := vk.NewArray[vk.QueueFamilyProperties](a, int(*n))
	vk.Call(in.fns.GetPhysicalDeviceQueueFamilyProperties, h, vk.Addr(n), vk.SliceAddr(qs))
	found := false
	for i, q := range qs[:*n] {
		if q.QueueFlags&vk.QueueComputeBit != 0 && q.QueueCount > 0 {
			p.queueFamily = uint32(i)
			p.graphics = q.QueueFlags&vk.QueueGraphicsBit != 0
			p.facts.TimestampValidBits = q.TimestampValidBits
			found = true
			break
		}
	}
	if !found {
		p.queueFamily = ^uint32(0)
	}
	mem := vk.New[vk.PhysicalDeviceMemoryProperties](a)
	vk.Call(in.fns.GetPhysicalDeviceMemoryProperties, h, vk.Addr(mem))
	p.memory = *mem
	return p, nil
}

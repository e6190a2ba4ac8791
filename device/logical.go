package device

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// logical is a VkDevice with one compute queue. Creation functions are safe for concurrent use
// (Vulkan synchronizes them); queue submission goes through queueMu.
type logical struct {
	phys    *physical
	handle  uintptr
	fns     vk.DeviceFns
	draw    vk.DrawFns       // image and drawing functions (draw.go)
	tex     vk.TextureFns    // sampler and image-clearing functions (texture.go)
	rp      vk.RenderPassFns // render passes, for draws reading input attachments (inputattach.go)
	queue   uintptr
	queueMu sync.Mutex

	execStats  bool // VK_KHR_pipeline_executable_properties enabled
	calibrated bool // VK_EXT_calibrated_timestamps enabled
	bda        bool // bufferDeviceAddress enabled
	xfb        bool // VK_EXT_transform_feedback and its transformFeedback feature enabled (vertex.go)
	cubeArray  bool // the imageCubeArray feature enabled (texture.go)
	// storageReadNoFormat and storageWriteNoFormat: the shaderStorageImageReadWithoutFormat
	// and shaderStorageImageWriteWithoutFormat features enabled (storage.go).
	storageReadNoFormat, storageWriteNoFormat bool
	extensions                                map[string]bool // the device extensions enabled
}

// Offsets inside feature structures (vulkan_core.h, 64-bit hosts).
const (
	offRobustBufferAccess  = 16  // VkPhysicalDeviceFeatures2.features.robustBufferAccess
	offImageCubeArray      = 24  // VkPhysicalDeviceFeatures2.features.imageCubeArray
	offTimelineSemaphore   = 164 // VkPhysicalDeviceVulkan12Features.timelineSemaphore
	offBufferDeviceAddress = 168 // VkPhysicalDeviceVulkan12Features.bufferDeviceAddress
	offExecutableInfo      = 16  // VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR.pipelineExecutableInfo
	offTransformFeedback   = 16  // VkPhysicalDeviceTransformFeedbackFeaturesEXT.transformFeedback

	structureTypeTransformFeedbackFeatures = 1000028000
	sizeofTransformFeedbackFeatures        = 24
)

// optionalExtensions are enabled where the device has them: timestamps for Split, and
// extensions translated shaders may declare (a driver may refuse SPIR-V that uses an extension
// the device was not created with).
var optionalExtensions = []string{
	"VK_EXT_calibrated_timestamps",
	"VK_EXT_shader_atomic_float",
	"VK_EXT_shader_atomic_float2",
	"VK_KHR_shader_subgroup_uniform_control_flow",
	"VK_KHR_workgroup_memory_explicit_layout",
	"VK_KHR_shader_clock",
	"VK_EXT_shader_image_atomic_int64",
	"VK_KHR_fragment_shader_barycentric",
	"VK_EXT_fragment_shader_interlock",
	"VK_EXT_shader_stencil_export",
}

// openLogical creates a device on p with every feature p supports enabled except
// robustBufferAccess (Metal does not bounds-check, and robustness changes the generated code).
func openLogical(p *physical) (*logical, error) {
	if p.queueFamily == ^uint32(0) {
		return nil, fmt.Errorf("%w: %s has no compute queue", ErrUnavailable, p.facts.Name)
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	in := p.in

	// The feature chain, queried whole and passed back whole.
	type feat struct {
		ptr  unsafe.Pointer
		size int
	}
	mk := func(sType uint32, size int) feat {
		f := feat{a.Alloc(size, 8), size}
		(*vk.FeaturesHeader)(f.ptr).SType = sType
		return f
	}
	f2 := mk(vk.StructureTypePhysicalDeviceFeatures2, vk.SizeofPhysicalDeviceFeatures2)
	chain := []feat{f2, mk(vk.StructureTypePhysicalDeviceVulkan11Features, vk.SizeofPhysicalDeviceVulkan11Features)}
	v12 := mk(vk.StructureTypePhysicalDeviceVulkan12Features, vk.SizeofPhysicalDeviceVulkan12Features)
	chain = append(chain, v12)
	if p.api >= vk.MakeAPIVersion(1, 3, 0) {
		chain = append(chain, mk(vk.StructureTypePhysicalDeviceVulkan13Features, vk.SizeofPhysicalDeviceVulkan13Features))
	}
	var execF feat
	var exts []string
	if p.extensions["VK_KHR_pipeline_executable_properties"] {
		execF = mk(vk.StructureTypePhysicalDevicePipelineExecutablePropertiesFeatures, vk.SizeofPipelineExecutableFeatures)
		chain = append(chain, execF)
		exts = append(exts, "VK_KHR_pipeline_executable_properties")
	}
	var xfbF feat
	if p.extensions["VK_EXT_transform_feedback"] {
		xfbF = mk(structureTypeTransformFeedbackFeatures, sizeofTransformFeedbackFeatures)
		chain = append(chain, xfbF)
		exts = append(exts, "VK_EXT_transform_feedback")
	}
	for _, e := range optionalExtensions {
		if p.extensions[e] {
			exts = append(exts, e)
		}
	}
	for i := 0; i+1 < len(chain); i++ {
		(*vk.FeaturesHeader)(chain[i].ptr).PNext = uintptr(chain[i+1].ptr)
	}
	vk.Call(in.fns.GetPhysicalDeviceFeatures2, p.handle, uintptr(f2.ptr))
	u32 := func(f feat, off int) *uint32 { return (*uint32)(unsafe.Add(f.ptr, off)) }
	*u32(f2, offRobustBufferAccess) = 0

	prio := vk.New[float32](a)
	*prio = 1
	q := vk.New[vk.DeviceQueueCreateInfo](a)
	q.SType = vk.StructureTypeDeviceQueueCreateInfo
	q.QueueFamilyIndex = p.queueFamily
	q.QueueCount = 1
	q.PQueuePriorities = vk.Addr(prio)
	names := vk.NewArray[uintptr](a, len(exts))
	for i, e := range exts {
		names[i] = a.CString(e)
	}
	ci := vk.New[vk.DeviceCreateInfo](a)
	ci.SType = vk.StructureTypeDeviceCreateInfo
	ci.PNext = uintptr(f2.ptr)
	ci.QueueCreateInfoCount = 1
	ci.PQueueCreateInfos = vk.Addr(q)
	ci.EnabledExtensionCount = uint32(len(exts))
	ci.PPEnabledExtensionNames = vk.SliceAddr(names)
	h := vk.New[uintptr](a)
	if err := check("vkCreateDevice", vk.CallResult(in.fns.CreateDevice, p.handle, vk.Addr(ci), 0, vk.Addr(h))); err != nil {
		return nil, fmt.Errorf("%s: %w", p.facts.Name, err)
	}
	d := &logical{phys: p, handle: *h, extensions: map[string]bool{}}
	for _, e := range exts {
		d.extensions[e] = true
	}
	vk.LoadFns(&d.fns, func(name string) uintptr {
		return vk.Call(in.fns.GetDeviceProcAddr, d.handle, a.CString(name))
	})
	vk.LoadFns(&d.draw, func(name string) uintptr {
		return vk.Call(in.fns.GetDeviceProcAddr, d.handle, a.CString(name))
	})
	vk.LoadFns(&d.tex, func(name string) uintptr {
		return vk.Call(in.fns.GetDeviceProcAddr, d.handle, a.CString(name))
	})
	vk.LoadFns(&d.rp, func(name string) uintptr {
		return vk.Call(in.fns.GetDeviceProcAddr, d.handle, a.CString(name))
	})
	d.cubeArray = *u32(f2, offImageCubeArray) != 0
	d.storageReadNoFormat = *u32(f2, offStorageImageReadWithoutFormat) != 0
	d.storageWriteNoFormat = *u32(f2, offStorageImageWriteWithoutFormat) != 0
	d.execStats = execF.ptr != nil && *u32(execF, offExecutableInfo) != 0 && d.fns.GetPipelineExecutableStatisticsKHR != 0
	d.calibrated = p.extensions["VK_EXT_calibrated_timestamps"] && d.fns.GetCalibratedTimestampsEXT != 0
	d.bda = *u32(v12, offBufferDeviceAddress) != 0
	d.xfb = xfbF.ptr != nil && *u32(xfbF, offTransformFeedback) != 0 && d.draw.CmdBeginTransformFeedbackEXT != 0
	qh := vk.New[uintptr](a)
	vk.Call(d.fns.GetDeviceQueue, d.handle, uintptr(p.queueFamily), 0, vk.Addr(qh))
	d.queue = *qh
	return d, nil
}

var nullDevices struct {
	sync.Mutex
	m map[*physical]*logical
}

// openShared is openLogical, except that RADV null devices are made once per process and
// shared, since they cannot be destroyed.
func openShared(p *physical) (*logical, error) {
	if p.facts.RADVFamily == "" {
		return openLogical(p)
	}
	nullDevices.Lock()
	defer nullDevices.Unlock()
	if d, ok := nullDevices.m[p]; ok {
		return d, nil
	}
	d, err := openLogical(p)
	if err != nil {
		return nil, err
	}
	if nullDevices.m == nil {
		nullDevices.m = map[*physical]*logical{}
	}
	nullDevices.m[p] = d
	return d, nil
}

// flushDestroyed makes an empty queue submission and waits for it. Mesa's lavapipe (22.3)
// does not free a destroyed VkPipeline in vkDestroyPipeline: it hands it to its queue, which
// frees it at the next submission; a compiler, which never submits, kept every pipeline it
// ever built (~70 KiB each) without this. RADV null devices are left alone (their queue is
// not to be touched; see destroy), as are devices that are being destroyed.
func (d *logical) flushDestroyed() {
	if d.handle == 0 || d.phys.facts.RADVFamily != "" {
		return
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	si := vk.New[vk.SubmitInfo](a)
	si.SType = vk.StructureTypeSubmitInfo
	d.queueMu.Lock()
	defer d.queueMu.Unlock()
	if vk.CallResult(d.fns.QueueSubmit, d.queue, 1, vk.Addr(si), 0) == 0 {
		vk.Call(d.fns.QueueWaitIdle, d.queue)
	}
}

// destroy waits for the device to be idle and destroys it.
func (d *logical) destroy() {
	if d.handle == 0 {
		return
	}
	if d.phys.facts.RADVFamily != "" {
		// RADV's null winsys (Mesa 22.3) jumps to address 0 in vkDeviceWaitIdle and
		// vkDestroyDevice, so its devices are shared (nullDevice) and never destroyed.
		return
	}
	vk.Call(d.fns.DeviceWaitIdle, d.handle)
	vk.Call(d.fns.DestroyDevice, d.handle, 0)
	d.handle = 0
}

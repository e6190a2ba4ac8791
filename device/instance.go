package device

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// instance is a VkInstance and its physical devices. Instances live as long as the process.
type instance struct {
	ld       *vk.Loader
	handle   uintptr
	fns      vk.InstanceFns
	api      uint32
	radv     string // the RADV family forced when it was made, or ""
	physical []*physical
}

var instances struct {
	sync.Mutex
	m map[string]*instance
}

// icdSearchDirs are where Vulkan loaders look for driver manifests on Linux.
var icdSearchDirs = []string{"/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"}

// radeonICD finds the manifest of Mesa's RADV driver.
func radeonICD() (string, error) {
	for _, d := range icdSearchDirs {
		m, _ := filepath.Glob(filepath.Join(d, "radeon_icd.*.json"))
		sort.Strings(m)
		if len(m) > 0 {
			return m[0], nil
		}
	}
	return "", fmt.Errorf("%w: RADV driver manifest radeon_icd.*.json not found in %v (Debian: mesa-vulkan-drivers)", ErrUnavailable, icdSearchDirs)
}

// getInstance returns the process's instance for radvFamily ("" for the plain system view; a
// family such as "navi21" for RADV's null device, made with RADV_FORCE_FAMILY=family,
// NODEVICE_SELECT=1 and the loader limited to the RADV manifest).
func getInstance(radvFamily string) (*instance, error) {
	instances.Lock()
	defer instances.Unlock()
	if in, ok := instances.m[radvFamily]; ok {
		return in, nil
	}
	ld, err := vk.Load()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoVulkan, err)
	}
	if radvFamily != "" {
		icd, err := radeonICD()
		if err != nil {
			return nil, err
		}
		restore := setenvs(map[string]string{
			"RADV_FORCE_FAMILY": radvFamily,
			"NODEVICE_SELECT":   "1",
			"VK_ICD_FILENAMES":  icd,
			"VK_DRIVER_FILES":   icd,
		})
		defer restore()
	}
	in, err := newInstance(ld, radvFamily)
	if err != nil {
		return nil, err
	}
	if instances.m == nil {
		instances.m = map[string]*instance{}
	}
	instances.m[radvFamily] = in
	return in, nil
}

// setenvs sets environment variables (seen by C code too: purego's runtime forwards os.Setenv
// to libc) and returns a function that restores the old values.
func setenvs(vars map[string]string) (restore func()) {
	type old struct {
		v  string
		ok bool
	}
	saved := map[string]old{}
	for k, v := range vars {
		ov, ok := os.LookupEnv(k)
		saved[k] = old{ov, ok}
		os.Setenv(k, v)
	}
	return func() {
		for k, o := range saved {
			if o.ok {
				os.Setenv(k, o.v)
			} else {
				os.Unsetenv(k)
			}
		}
	}
}

func newInstance(ld *vk.Loader, radvFamily string) (*instance, error) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	api := vk.MakeAPIVersion(1, 0, 0)
	if ld.Global.EnumerateInstanceVersion != 0 {
		p := vk.New[uint32](a)
		if r := vk.CallResult(ld.Global.EnumerateInstanceVersion, vk.Addr(p)); r == vk.Success {
			api = *p
		}
	}
	if api < vk.MakeAPIVersion(1, 2, 0) {
		return nil, fmt.Errorf("%w: Vulkan loader %s offers API %s; airpipe needs 1.2", ErrUnavailable, ld.Path, vk.APIVersionString(api))
	}
	if api > vk.MakeAPIVersion(1, 3, 0) {
		api = vk.MakeAPIVersion(1, 3, 0)
	}
	app := vk.New[vk.ApplicationInfo](a)
	app.SType = vk.StructureTypeApplicationInfo
	app.PApplicationName = a.CString("airpipe")
	app.PEngineName = a.CString("airpipe")
	app.APIVersion = api
	ci := vk.New[vk.InstanceCreateInfo](a)
	ci.SType = vk.StructureTypeInstanceCreateInfo
	ci.PApplicationInfo = vk.Addr(app)
	report := debugCallback() != 0 && hasInstanceExtension(ld, a, "VK_EXT_debug_report")
	if report {
		names := vk.NewArray[uintptr](a, 1)
		names[0] = a.CString("VK_EXT_debug_report")
		ci.EnabledExtensionCount = 1
		ci.PPEnabledExtensionNames = vk.SliceAddr(names)
	}
	h := vk.New[uintptr](a)
	if err := check("vkCreateInstance", vk.CallResult(ld.Global.CreateInstance, vk.Addr(ci), 0, vk.Addr(h))); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	in := &instance{ld: ld, handle: *h, api: api, radv: radvFamily}
	vk.LoadFns(&in.fns, func(name string) uintptr {
		return vk.Call(ld.GetInstanceProcAddr, in.handle, a.CString(name))
	})
	if report && in.fns.CreateDebugReportCallbackEXT != 0 {
		rci := vk.New[vk.DebugReportCallbackCreateInfo](a)
		rci.SType = vk.StructureTypeDebugReportCallbackCreateInfo
		rci.Flags = vk.DebugReportError | vk.DebugReportWarning | vk.DebugReportPerformanceWarning
		rci.PfnCallback = debugCallback()
		cb := vk.New[uint64](a)
		vk.CallResult(in.fns.CreateDebugReportCallbackEXT, in.handle, vk.Addr(rci), 0, vk.Addr(cb))
	}
	if err := in.enumerate(a); err != nil {
		return nil, err
	}
	return in, nil
}

func (in *instance) enumerate(a *vk.Arena) error {
	n := vk.New[uint32](a)
	if err := check("vkEnumeratePhysicalDevices", vk.CallResult(in.fns.EnumeratePhysicalDevices, in.handle, vk.Addr(n), 0)); err != nil {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if *n == 0 {
		return nil
	}
	hs := vk.NewArray[uintptr](a, int(*n))
	r := vk.CallResult(in.fns.EnumeratePhysicalDevices, in.handle, vk.Addr(n), vk.SliceAddr(hs))
	if r < 0 {
		return fmt.Errorf("%w: %w", ErrUnavailable, check("vkEnumeratePhysicalDevices", r))
	}
	for i, h := range hs[:*n] {
		p, err := newPhysical(in, h, i)
		if err != nil {
			return err
		}
		in.physical = append(in.physical, p)
	}
	return nil
}

// hasInstanceExtension reports whether the loader offers the instance extension name.
func hasInstanceExtension(ld *vk.Loader, a *vk.Arena, name string) bool {
	if ld.Global.EnumerateInstanceExtensionProperties == 0 {
		return false
	}
	n := vk.New[uint32](a)
	if vk.CallResult(ld.Global.EnumerateInstanceExtensionProperties, 0, vk.Addr(n), 0) < 0 {
		return false
	}
	exts := vk.NewArray[vk.ExtensionProperties](a, int(*n))
	if vk.CallResult(ld.Global.EnumerateInstanceExtensionProperties, 0, vk.Addr(n), vk.SliceAddr(exts)) < 0 {
		return false
	}
	for _, e := range exts[:*n] {
		if vk.GoString(e.ExtensionName[:]) == name {
			return true
		}
	}
	return false
}

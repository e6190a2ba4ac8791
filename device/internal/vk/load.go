package vk

import (
	"fmt"
	"os"
	"reflect"
	"sync"

	"github.com/ebitengine/purego"
)

// DefaultLibrary is the system Vulkan loader that Load opens unless AIRPIPE_VULKAN_LIBRARY
// names another file.
const DefaultLibrary = "libvulkan.so.1"

// Loader is the opened Vulkan loader library.
type Loader struct {
	Path                string
	GetInstanceProcAddr uintptr
	Global              GlobalFns
}

var loaders struct {
	sync.Mutex
	m map[string]*Loader
}

// LibraryPath is the loader library Load opens: $AIRPIPE_VULKAN_LIBRARY or DefaultLibrary.
func LibraryPath() string {
	if p := os.Getenv("AIRPIPE_VULKAN_LIBRARY"); p != "" {
		return p
	}
	return DefaultLibrary
}

// Load opens the Vulkan loader at LibraryPath once per path and resolves its global functions.
// Its error carries the dynamic linker's message.
func Load() (*Loader, error) {
	path := LibraryPath()
	loaders.Lock()
	defer loaders.Unlock()
	if l, ok := loaders.m[path]; ok {
		return l, nil
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("dlopen %s: %w", path, err)
	}
	gipa, err := purego.Dlsym(h, "vkGetInstanceProcAddr")
	if err != nil {
		return nil, fmt.Errorf("dlsym vkGetInstanceProcAddr in %s: %w", path, err)
	}
	l := &Loader{Path: path, GetInstanceProcAddr: gipa}
	a := GetArena()
	defer PutArena(a)
	LoadFns(&l.Global, func(name string) uintptr {
		return Call(gipa, 0, a.CString(name))
	})
	if l.Global.CreateInstance == 0 {
		return nil, fmt.Errorf("%s: vkGetInstanceProcAddr gives no vkCreateInstance", path)
	}
	if loaders.m == nil {
		loaders.m = map[string]*Loader{}
	}
	loaders.m[path] = l
	return l, nil
}

// Call calls the C function at fn with integer and pointer arguments and returns its result
// register. fn must not be 0.
func Call(fn uintptr, args ...uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, args...)
	return r
}

// CallResult calls fn and returns its VkResult.
func CallResult(fn uintptr, args ...uintptr) Result {
	return Result(int32(Call(fn, args...)))
}

// LoadFns fills every uintptr field F of the struct that dst points to with get("vk"+F) and
// returns the names that resolved to 0.
func LoadFns(dst any, get func(name string) uintptr) (missing []string) {
	v := reflect.ValueOf(dst).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name := "vk" + t.Field(i).Name
		p := get(name)
		if p == 0 {
			missing = append(missing, name)
		}
		v.Field(i).SetUint(uint64(p))
	}
	return missing
}

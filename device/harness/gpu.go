package harness

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/device"
)

// ChooseGPU picks the real GPU named by want: "auto" (the first device that
// is not a CPU or a null device) or a substring of its name. No match, or
// a match that is a CPU or null device, is an error saying so.
func ChooseGPU(want string) (device.Facts, error) {
	if want == "" {
		return device.Facts{}, fmt.Errorf("no GPU chosen: pass --device NAME|auto to run the device stage")
	}
	facts, err := device.Devices()
	if err != nil {
		return device.Facts{}, fmt.Errorf("no Vulkan devices: %w", err)
	}
	for _, f := range facts {
		gpu := f.Kind != "cpu" && f.RADVFamily == ""
		if (want == "auto" && gpu) || (want != "auto" && strings.Contains(f.Name, want)) {
			if !gpu {
				return device.Facts{}, fmt.Errorf("device %q is %s, not a real GPU", f.Name, map[bool]string{true: "a null device", false: "a CPU"}[f.RADVFamily != ""])
			}
			return f, nil
		}
	}
	var names []string
	for _, f := range facts {
		names = append(names, f.Name)
	}
	return device.Facts{}, fmt.Errorf("no GPU matches %q among: %s", want, strings.Join(names, "; "))
}

package stages

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/pipeline"
)

// Options are the choices that change what the built-in stages do.
type Options struct {
	// Oracle names the reader's oracle: "" (none) or "llvm-dis".
	Oracle string
	// ReaderMemory is the reader's memory budget per module in bytes (0:
	// DefaultReaderMemory): a module whose bitcode.AllocationBound exceeds
	// it is refused as reader/over-budget before it is read.
	ReaderMemory int64
	// Compile configures the compile stage.
	Compile CompileOptions
	// Emulator configures the emulator stage.
	Emulator EmulatorOptions
	// Device configures the device stage.
	Device DeviceOptions
}

// Default returns airpipe's stages in their fixed order. A stage exists in
// this list only once it does real work; later stages join as they land.
func Default(o Options) []pipeline.Stage[*Module] {
	return []pipeline.Stage[*Module]{
		Container(),
		Reader(o.Oracle == "llvm-dis", o.ReaderMemory),
		Translate(),
		Compile(o.Compile),
		Emulator(o.Emulator),
		DeviceRun(o.Device),
	}
}

// Select keeps the stages named in names (comma-separated names, or "all").
// Stages depend on the ones before them, so the selection must be a prefix
// of the list; a name not in the list is an error naming it, and so is a
// selected stage whose Needs no stage before it provides (a built-in stage
// after the exec stage that replaced its input's maker).
func Select(all []pipeline.Stage[*Module], names string) ([]pipeline.Stage[*Module], error) {
	out, err := selectPrefix(all, names)
	if err != nil {
		return nil, err
	}
	if err := pipeline.CheckNeeds(out); err != nil {
		return nil, err
	}
	return out, nil
}

func selectPrefix(all []pipeline.Stage[*Module], names string) ([]pipeline.Stage[*Module], error) {
	if names == "" || names == "all" {
		return all, nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, s := range all {
			found = found || s.Name == n
		}
		if !found {
			return nil, fmt.Errorf("unknown stage %q (stages: %s)", n, strings.Join(Names(all), ", "))
		}
		want[n] = true
	}
	var out []pipeline.Stage[*Module]
	for i, s := range all {
		if !want[s.Name] {
			for _, later := range all[i+1:] {
				if want[later.Name] {
					return nil, fmt.Errorf("stage %q needs %q before it: --stages must name a prefix of %s", later.Name, s.Name, strings.Join(Names(all), ","))
				}
			}
			break
		}
		out = append(out, s)
	}
	return out, nil
}

// Names lists the stages' names in order.
func Names(list []pipeline.Stage[*Module]) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.Name
	}
	return out
}

package stages

import (
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

// Select keeps the stages named in names (pipeline.Select: comma-separated
// names or "all", a prefix of the list, every Needs provided): a built-in
// stage after the exec stage that replaced its input's maker is refused.
func Select(all []pipeline.Stage[*Module], names string) ([]pipeline.Stage[*Module], error) {
	return pipeline.Select(all, names)
}

// Names lists the stages' names in order.
func Names(list []pipeline.Stage[*Module]) []string { return pipeline.Names(list) }

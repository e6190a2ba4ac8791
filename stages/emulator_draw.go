package stages

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/pipeline"
)

// drawRequest is how a fragment shader is drawn: the render targets (formats and write masks
// from the SPIR-V's outputs, cleared to cpuref.Clear), their size (the reference's grid) and,
// by Vulkan location, the constant each fragment input receives from every vertex.
type drawRequest struct {
	Width   uint32              `json:"width"`
	Height  uint32              `json:"height"`
	Targets []device.DrawTarget `json:"targets"`
	Inputs  map[uint32][]uint32 `json:"inputs"`
}

// drawRequestFor builds the draw of a fragment shader from its reflection and the reference.
// The reference chose a constant per AIR varying; the translated shader's input of the same
// name (reflection) receives it at its location, so a translation that mixed up locations
// reads another varying's constant and mismatches. A SPIR-V input the AIR function does not
// have is an interface mismatch; an AIR varying the SPIR-V does not read gets nothing.
func drawRequestFor(refl translate.Reflection, ref *cpuref.Result, spirv []byte) (*drawRequest, pipeline.Result, bool) {
	size := ref.Grid.Size()
	dq := &drawRequest{Width: size[0], Height: size[1], Inputs: map[uint32][]uint32{}}
	targets, err := device.FragmentTargets(spirv, refl.Entry)
	if err != nil {
		r := pipeline.UnjudgedBecause(err.Error())
		r.Code, r.Detail = CodeEmulatorNoReference, "render target type"
		return nil, r, false
	}
	for i := range targets {
		targets[i].Clear = cpuref.Clear
	}
	dq.Targets = targets
	byName := map[string]cpuref.Input{}
	for _, in := range ref.Kernel.Inputs {
		byName[in.Name] = in
	}
	for _, v := range refl.Inputs {
		if v.Location < 0 {
			continue
		}
		in, ok := byName[v.Name]
		if !ok {
			return nil, pipeline.Fail(CodeEmulatorInterface, fmt.Sprintf("input location %d", v.Location),
				fmt.Sprintf("the SPIR-V reads an input %q at location %d that the AIR function does not have", v.Name, v.Location)), false
		}
		dq.Inputs[uint32(v.Location)] = in.Words
	}
	return dq, pipeline.Result{}, true
}

package harness

import (
	"fmt"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
)

// Draw is how a fragment shader is drawn: the render targets (formats and write masks
// from the SPIR-V's outputs, cleared to cpuref.Clear, or to cpuref.DestinationWords where the
// function reads the target as an input: programmable blending), their size (the reference's grid) and,
// by Vulkan location, the constant each fragment input receives from every vertex.
type Draw struct {
	Width   uint32              `json:"width"`
	Height  uint32              `json:"height"`
	Targets []device.DrawTarget `json:"targets"`
	Inputs  map[uint32][]uint32 `json:"inputs"`
	// ScratchDepth is device.DrawArgs.ScratchDepth (Options.ScratchDepth).
	ScratchDepth bool `json:"scratch_depth,omitempty"`
}

// drawRequestFor builds the draw of a fragment shader from its reflection and the reference.
// The reference chose a constant per AIR varying; the translated shader's input of the same
// name (reflection) receives it at its location, so a translation that mixed up locations
// reads another varying's constant and mismatches. A SPIR-V input the AIR function does not
// have is an interface mismatch; an AIR varying the SPIR-V does not read gets nothing.
func drawRequestFor(refl translate.Reflection, ref *cpuref.Result, spirv []byte) (*Draw, judge.Verdict, bool) {
	size := ref.Grid.Size()
	dq := &Draw{Width: size[0], Height: size[1], Inputs: map[uint32][]uint32{}}
	if r, ok := matchInputAttachments(refl.InputAttachments, ref.Kernel.Destinations); !ok {
		return nil, r, false
	}
	targets, err := device.FragmentTargets(spirv, refl.Entry)
	if err != nil {
		return nil, unjudged(codes.EmulatorNoReference, "render target type", err.Error()), false
	}
	for i := range targets {
		targets[i].Clear = ref.Kernel.TargetClear(i) // a target the function reads holds its known destination
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
			return nil, fail(codes.EmulatorInterfaceMismatch, fmt.Sprintf("input location %d", v.Location),
				fmt.Sprintf("the SPIR-V reads an input %q at location %d that the AIR function does not have", v.Name, v.Location)), false
		}
		dq.Inputs[uint32(v.Location)] = in.Words
	}
	return dq, judge.Verdict{}, true
}

// Capture is how a vertex shader's outputs are captured: cpuref.Vertices vertices, the
// attributes by location, and each output's slot in the per-vertex record (output j of the
// AIR function at byte 16·j, as the reference stores it).
type Capture struct {
	Vertices   uint32                `json:"vertices"`
	Attributes map[uint32][][]uint32 `json:"attributes"`
	Outputs    []device.VertexOutput `json:"outputs"`
	Stride     uint32                `json:"stride"`
}

// captureRequestFor builds the capture of a vertex shader. Outputs are found in the SPIR-V by
// role (Position, PointSize, Layer, ViewportIndex) or by varying name (reflection), so a translation that put a
// varying at another location captures another output and mismatches; attributes go to the
// locations the AIR names (air.location_index), which the ABI keeps.
func captureRequestFor(refl translate.Reflection, ref *cpuref.Result) (*Capture, judge.Verdict, bool) {
	k := ref.Kernel
	// A vertex function that returns nothing (it writes buffers only) runs
	// without transform feedback: Stride 0, no outputs.
	cq := &Capture{Vertices: cpuref.Vertices, Attributes: map[uint32][][]uint32{}, Stride: uint32(16 * len(k.Outputs))}
	for j, o := range k.Outputs {
		vo := device.VertexOutput{Location: -1, Offset: uint32(16 * j)}
		switch o.Role {
		case "air.position":
			vo.BuiltIn = 0
		case "air.point_size":
			vo.BuiltIn = 1
		case "air.render_target_array_index":
			vo.BuiltIn = 9 // Layer
		case "air.viewport_array_index":
			vo.BuiltIn = 10 // ViewportIndex
		default:
			found := false
			for _, v := range refl.Outputs {
				if v.Name == o.Name && v.Location >= 0 {
					vo.Location, found = v.Location, true
				}
			}
			if !found {
				return nil, fail(codes.EmulatorInterfaceMismatch, "output "+o.Name,
					fmt.Sprintf("the AIR function writes vertex output %q; the SPIR-V's reflection has no output of that name", o.Name)), false
			}
		}
		cq.Outputs = append(cq.Outputs, vo)
	}
	for _, in := range k.Inputs {
		cq.Attributes[uint32(in.Location)] = in.PerVertex
	}
	return cq, judge.Verdict{}, true
}

// matchInputAttachments checks that the SPIR-V reads (reflection) exactly the colour
// attachments the AIR function reads (the reference's destinations), each as the same numeric
// kind: otherwise the draw would bind or convert another value than the reference passes,
// which is the translation's fault, an interface mismatch.
func matchInputAttachments(ias []translate.InputAttachment, ds []cpuref.Destination) (judge.Verdict, bool) {
	kinds := map[string]byte{"float": 'f', "int": 'i', "uint": 'u'}
	want := map[int]byte{}
	for _, d := range ds {
		want[d.Index] = d.Kind
	}
	for _, ia := range ias {
		k, ok := want[ia.Index]
		switch {
		case !ok:
			return fail(codes.EmulatorInterfaceMismatch, fmt.Sprintf("input attachment %d", ia.Index),
				fmt.Sprintf("the SPIR-V reads colour attachment %d (%s), which the AIR function does not read", ia.Index, ia.Name)), false
		case kinds[ia.SampledType] != k:
			return fail(codes.EmulatorInterfaceMismatch, fmt.Sprintf("input attachment %d", ia.Index),
				fmt.Sprintf("the SPIR-V reads colour attachment %d as %s values; the AIR function reads %q values", ia.Index, ia.SampledType, k)), false
		}
		delete(want, ia.Index)
	}
	for n := range want {
		return fail(codes.EmulatorInterfaceMismatch, fmt.Sprintf("input attachment %d", n),
			fmt.Sprintf("the AIR function reads colour attachment %d; the SPIR-V reads no input attachment %d", n, n)), false
	}
	return judge.Verdict{}, true
}

package stages

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/device"
)

// The descriptor ABI (compiler/translate/ABI.md), restated here rather than
// taken from the translator, whose bindings are what checkInterface checks:
// air.buffer i is binding i, air.texture i binding textureBinding+i (sample
// or read access) or storageTextureBinding+i (write or read_write), air.sampler
// i binding samplerBinding+i, all in set 0.
const (
	textureBinding        = 32
	samplerBinding        = 160
	storageTextureBinding = 480
)

// textureDims maps the reference's texture shapes to the device's.
var textureDims = map[string]device.TextureDim{
	"1d": device.Dim1D, "1d_array": device.Dim1DArray, "2d": device.Dim2D, "2d_array": device.Dim2DArray,
	"3d": device.Dim3D, "cube": device.DimCube, "cube_array": device.DimCubeArray,
	"2d_ms": device.Dim2D, "2d_ms_array": device.Dim2DArray, // multisample: Samples cpuref.MSSamples
}

// texturesUsed is the emulator's data value "textures": which textures and
// samplers were bound, and that their content was uniform, so that a pass
// says what it could not see.
func texturesUsed(k *cpuref.Kernel) string {
	if len(k.Textures) == 0 && len(k.Samplers) == 0 {
		return ""
	}
	var parts []string
	for _, t := range k.Textures {
		p := fmt.Sprintf("%d %s %c", t.Index, t.Dim, t.Kind)
		if t.Writable() {
			p += " " + t.Access + " (starts uniform, read back and compared)"
		}
		parts = append(parts, p)
	}
	s := fmt.Sprintf("uniform (every texel one value; coordinates, filtering and addressing not judged): %d texture(s) [%s], %d sampler(s)",
		len(k.Textures), strings.Join(parts, ", "), len(k.Samplers))
	for _, c := range k.ConstexprSamplers {
		st := c.State
		s += fmt.Sprintf(", constexpr sampler %#016x (mag %s, min %s, mip %s, address %s; decoded from evidence, bound as its VkSampler)",
			st.Word, st.Mag, st.Min, st.Mip, strings.Join(st.Address[:], "/"))
	}
	return s
}

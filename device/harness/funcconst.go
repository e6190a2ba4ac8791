package harness

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
)

// specIDBase is the SpecId of Metal function constant 0
// (compiler/translate/ABI.md, "Function constants"), restated here rather
// than taken from the translator, whose spec constants checkSpecConstants
// checks.
const specIDBase = 100

// definedSpecIDBase is the SpecId of function constant 0's "defined" flag
// (air.is_function_constant_defined; ABI.md, "Function constants"): a
// bool, true for every constant the device is specialised with.
const definedSpecIDBase = specIDBase + 65536

// specialization is the device's specialization for the reference's
// function constant values: function constant i is SpecId specIDBase+i,
// and its defined flag, SpecId definedSpecIDBase+i, is true (1): the
// reference gives every constant a value.
func specialization(k *cpuref.Kernel) []device.SpecValue {
	var out []device.SpecValue
	for _, fc := range k.FunctionConstants {
		out = append(out, device.SpecValue{ID: uint32(specIDBase + fc.Index), Word: fc.Word})
	}
	for _, fc := range k.FunctionConstants {
		out = append(out, device.SpecValue{ID: uint32(definedSpecIDBase + fc.Index), Word: 1})
	}
	return out
}

// checkSpecConstants compares the SPIR-V's specialization constants (its
// reflection) with the function constants the reference read off the AIR:
// each must be one of them, at its SpecId, of its Metal type.
func checkSpecConstants(scs []translate.SpecConstant, k *cpuref.Kernel) (judge.Verdict, bool) {
	known := map[int]cpuref.FunctionConstant{}
	for _, fc := range k.FunctionConstants {
		known[fc.Index] = fc
	}
	for _, sc := range scs {
		fc, ok := known[sc.Index]
		if sc.Defined && ok && sc.ID == uint32(definedSpecIDBase+sc.Index) && sc.Type == "bool" {
			continue // the defined flag of a constant the reference gives a value
		}
		if !ok || sc.Defined || sc.ID != uint32(specIDBase+sc.Index) || sc.Type != fc.Type {
			return fail(codes.EmulatorInterfaceMismatch, fmt.Sprintf("spec constant %d", sc.ID),
				fmt.Sprintf("the SPIR-V declares specialization constant %d for function constant %d (%s %s), which is not function constant %d of the AIR at SpecId %d", sc.ID, sc.Index, sc.Type, sc.Name, sc.Index, specIDBase+sc.Index)), false
		}
	}
	return judge.Verdict{}, true
}

// functionConstantsUsed is the data value "function_constants": the values
// the reference gave and the device was specialised with.
func functionConstantsUsed(k *cpuref.Kernel) string {
	var parts []string
	for _, fc := range k.FunctionConstants {
		parts = append(parts, fmt.Sprintf("%d %s %s=%#x", fc.Index, fc.Type, fc.Name, fc.Word))
	}
	return strings.Join(parts, ", ")
}

// presentBindings drops the reflection's bindings of conditional arguments
// whose predicate is false (cpuref.Kernel.Absent): they do not exist, so
// they are neither compared with the reference's interface nor bound as
// theirs (placeholders covers a descriptor only they declare).
func presentBindings(bs []translate.Binding, k *cpuref.Kernel) []translate.Binding {
	var out []translate.Binding
	for _, b := range bs {
		if !k.Absent(b.Metal, b.Name) {
			out = append(out, b)
		}
	}
	return out
}

// placeholders makes the device objects bound where the translation
// declares a descriptor only for absent conditional arguments
// (cpuref.Kernel.Placeholders): a zero buffer, a texture of the argument's
// shape and kind, the sampler. The shader does not access them; Vulkan
// requires a valid descriptor there all the same.
func placeholders(dev *device.Device, k *cpuref.Kernel) ([]device.Binding, []*device.Buffer, []*device.Texture, error) {
	var binds []device.Binding
	var bufs []*device.Buffer
	var texs []*device.Texture
	for _, c := range k.Placeholders() {
		switch c.Role {
		case "air.buffer":
			buf, err := dev.NewBuffer(256)
			if err != nil {
				return binds, bufs, texs, err
			}
			bufs = append(bufs, buf)
			binds = append(binds, device.Binding{Set: 0, Binding: uint32(c.Index), Buffer: buf})
		case "air.sampler":
			binds = append(binds, device.Binding{Set: 0, Binding: uint32(samplerBinding + c.Index), Sampler: true})
		case "air.texture":
			dim, ok := textureDims[c.Dim]
			if !ok {
				return binds, bufs, texs, fmt.Errorf("absent texture argument %s (texture %d): the device stage cannot make a placeholder of its type", c.Name, c.Index)
			}
			tex, err := dev.NewTexture(device.TextureSpec{Dim: dim, Kind: c.Kind, Texel: cpuref.TexelWords(c.Index, c.Kind), Storage: c.Writable, Samples: uint32(cpuref.DimSamples(c.Dim))})
			if err != nil {
				return binds, bufs, texs, err
			}
			texs = append(texs, tex)
			binding := textureBinding + c.Index
			if c.Writable {
				binding = storageTextureBinding + c.Index
			}
			binds = append(binds, device.Binding{Set: 0, Binding: uint32(binding), Texture: tex})
		}
	}
	return binds, bufs, texs, nil
}

package harness

import (
	"fmt"
	"strconv"

	"github.com/airpipe/airpipe/compiler/cpuref"
	"github.com/airpipe/airpipe/compiler/judge"
	"github.com/airpipe/airpipe/compiler/translate"
	"github.com/airpipe/airpipe/device"
	"github.com/airpipe/airpipe/internal/codes"
)

// bindConstexprSamplers pairs the SPIR-V's constexpr sampler bindings (a
// sampler binding whose reflection carries sampler_state, ABI.md 176+k) with
// the samplers the reference read off the AIR and decoded, by state word, and
// records each binding in k. known receives them as samplers. A binding whose
// word the reference did not find, or a reference sampler no binding carries,
// is an interface mismatch.
func bindConstexprSamplers(bs []translate.Binding, k *cpuref.Kernel, known map[int]string) (judge.Verdict, bool) {
	byWord := map[uint64]int{}
	for i, c := range k.ConstexprSamplers {
		byWord[c.State.Word] = i
		k.ConstexprSamplers[i].Binding = 0
	}
	for _, b := range bs {
		if b.Kind != "sampler" || b.SamplerState == "" {
			continue
		}
		w, err := strconv.ParseUint(b.SamplerState, 0, 64)
		i, ok := byWord[w]
		if err != nil || !ok {
			return fail(codes.EmulatorInterfaceMismatch, fmt.Sprintf("set %d binding %d", b.Set, b.Binding),
				fmt.Sprintf("the SPIR-V declares a constexpr sampler of state %s at binding %d, which the AIR entry point does not use", b.SamplerState, b.Binding)), false
		}
		k.ConstexprSamplers[i].Binding = b.Binding
		known[b.Binding] = "sampler"
	}
	for _, c := range k.ConstexprSamplers {
		if c.Binding == 0 {
			return fail(codes.EmulatorInterfaceMismatch, "constexpr sampler",
				fmt.Sprintf("the AIR samples through a constexpr sampler of state %#016x, which no SPIR-V binding carries", c.State.Word)), false
		}
	}
	return judge.Verdict{}, true
}

// constexprSamplerBinds are the device bindings of k's constexpr samplers,
// each a sampler of its decoded state.
func constexprSamplerBinds(k *cpuref.Kernel) ([]device.Binding, error) {
	var out []device.Binding
	for _, c := range k.ConstexprSamplers {
		spec, err := samplerSpec(c.State)
		if err != nil {
			return nil, err
		}
		out = append(out, device.Binding{Set: 0, Binding: uint32(c.Binding), Sampler: true, SamplerSpec: spec})
	}
	return out, nil
}

// samplerSpec is a decoded Metal sampler state as the device's.
func samplerSpec(s cpuref.SamplerState) (*device.SamplerSpec, error) {
	addr := map[string]device.AddressMode{"clamp_to_edge": device.AddressClampToEdge, "repeat": device.AddressRepeat,
		"mirrored_repeat": device.AddressMirroredRepeat, "clamp_to_border": device.AddressClampToBorder, "clamp_to_zero": device.AddressClampToZero}
	mip := map[string]device.MipMode{"none": device.MipNone, "nearest": device.MipNearest, "linear": device.MipLinear}
	cmp := map[string]device.CompareFunc{"none": device.CompareNone, "never": device.CompareNever, "less": device.CompareLess,
		"equal": device.CompareEqual, "less_equal": device.CompareLessOrEqual, "greater": device.CompareGreater,
		"not_equal": device.CompareNotEqual, "greater_equal": device.CompareGreaterOrEqual, "always": device.CompareAlways}
	border := map[string]device.BorderColor{"transparent_black": device.BorderTransparentBlack, "opaque_black": device.BorderOpaqueBlack, "opaque_white": device.BorderOpaqueWhite}
	spec := &device.SamplerSpec{MagLinear: s.Mag == "linear", MinLinear: s.Min == "linear", Unnormalized: s.Coord == "pixel",
		MaxAnisotropy: float32(s.MaxAnisotropy), MinLod: s.LODMin, MaxLod: s.LODMax}
	var ok [5]bool
	spec.Mip, ok[0] = mip[s.Mip]
	spec.Compare, ok[1] = cmp[s.Compare]
	spec.Border, ok[2] = border[s.Border]
	ok[3] = (s.Mag == "linear" || s.Mag == "nearest") && (s.Min == "linear" || s.Min == "nearest") && (s.Coord == "pixel" || s.Coord == "normalized")
	ok[4] = true
	for i, a := range s.Address {
		m, found := addr[a]
		spec.Address[i], ok[4] = m, ok[4] && found
	}
	for _, o := range ok {
		if !o {
			return nil, fmt.Errorf("constexpr sampler %#016x: a decoded field has no device equivalent: %+v", s.Word, s)
		}
	}
	return spec, nil
}

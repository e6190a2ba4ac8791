package device

import (
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// SamplerSpec is a sampler's state in Vulkan's terms, for a sampler the
// shader declares itself (a Metal constexpr sampler, decoded by the caller):
// Binding.SamplerSpec. A nil spec is the device's one sampler of the texture
// contract (NEAREST, CLAMP_TO_EDGE, LOD [0, 0]).
type SamplerSpec struct {
	// MagLinear and MinLinear choose LINEAR over NEAREST filtering.
	MagLinear, MinLinear bool
	// Mip is MipNone (the base level only), MipNearest or MipLinear.
	Mip MipMode
	// Address is the addressing of u, v and w.
	Address [3]AddressMode
	// Unnormalized takes texel coordinates (Metal's coord::pixel).
	Unnormalized bool
	// Compare is the depth comparison, CompareNone for none.
	Compare CompareFunc
	// Border is the border colour of AddressClampToBorder.
	Border BorderColor
	// MaxAnisotropy is 1 for no anisotropic filtering.
	MaxAnisotropy float32
	// MinLod and MaxLod clamp the level of detail.
	MinLod, MaxLod float32
}

// MipMode is a sampler's mipmap filter.
type MipMode uint8

// The mipmap filters: MipNone samples level 0 only (Vulkan: NEAREST with the
// LOD range [0, 0], as the Vulkan specification advises for "no mipmapping").
const (
	MipNone MipMode = iota
	MipNearest
	MipLinear
)

// AddressMode is a sampler's addressing of one coordinate.
type AddressMode uint8

// The address modes. AddressClampToZero is Metal's clamp_to_zero: the
// border, transparent black.
const (
	AddressClampToEdge AddressMode = iota
	AddressRepeat
	AddressMirroredRepeat
	AddressClampToBorder
	AddressClampToZero
	AddressMirrorClampToEdge
)

// CompareFunc is a sampler's depth comparison.
type CompareFunc uint8

// The comparisons; CompareNone disables comparison.
const (
	CompareNone CompareFunc = iota
	CompareNever
	CompareLess
	CompareEqual
	CompareLessOrEqual
	CompareGreater
	CompareNotEqual
	CompareGreaterOrEqual
	CompareAlways
)

// BorderColor is a sampler's border colour (float formats).
type BorderColor uint8

// The border colours.
const (
	BorderTransparentBlack BorderColor = iota
	BorderOpaqueBlack
	BorderOpaqueWhite
)

// samplerCreateInfo is spec as VkSamplerCreateInfo, or an error naming a
// value outside the enumerations above.
func samplerCreateInfo(s SamplerSpec) (vk.SamplerCreateInfo, error) {
	ci := vk.SamplerCreateInfo{SType: vk.StructureTypeSamplerCreateInfo, MinLod: s.MinLod, MaxLod: s.MaxLod, MaxAnisotropy: 1}
	filter := func(linear bool) uint32 {
		if linear {
			return 1 // VK_FILTER_LINEAR
		}
		return vk.FilterNearest
	}
	ci.MagFilter, ci.MinFilter = filter(s.MagLinear), filter(s.MinLinear)
	switch s.Mip {
	case MipNone:
		ci.MipmapMode, ci.MinLod, ci.MaxLod = vk.SamplerMipmapModeNearest, 0, 0
	case MipNearest:
		ci.MipmapMode = vk.SamplerMipmapModeNearest
	case MipLinear:
		ci.MipmapMode = 1 // VK_SAMPLER_MIPMAP_MODE_LINEAR
	default:
		return ci, fmt.Errorf("sampler: mip mode %d", s.Mip)
	}
	modes := [...]uint32{
		AddressClampToEdge:       vk.SamplerAddressModeClampToEdge,
		AddressRepeat:            0, // VK_SAMPLER_ADDRESS_MODE_REPEAT
		AddressMirroredRepeat:    1, // MIRRORED_REPEAT
		AddressClampToBorder:     3, // CLAMP_TO_BORDER
		AddressClampToZero:       3,
		AddressMirrorClampToEdge: 4, // MIRROR_CLAMP_TO_EDGE
	}
	var addr [3]uint32
	for i, a := range s.Address {
		if int(a) >= len(modes) {
			return ci, fmt.Errorf("sampler: address mode %d", a)
		}
		addr[i] = modes[a]
	}
	ci.AddressModeU, ci.AddressModeV, ci.AddressModeW = addr[0], addr[1], addr[2]
	switch {
	case s.Compare == CompareNone:
		ci.CompareOp = vk.CompareOpNever
	case s.Compare <= CompareAlways:
		ci.CompareEnable, ci.CompareOp = 1, uint32(s.Compare-CompareNever)
	default:
		return ci, fmt.Errorf("sampler: compare function %d", s.Compare)
	}
	border := [...]uint32{BorderTransparentBlack: vk.BorderColorFloatTransparent, BorderOpaqueBlack: 2, BorderOpaqueWhite: 4}
	if int(s.Border) >= len(border) {
		return ci, fmt.Errorf("sampler: border colour %d", s.Border)
	}
	ci.BorderColor = border[s.Border]
	for _, a := range s.Address {
		if a == AddressClampToZero {
			ci.BorderColor = vk.BorderColorFloatTransparent
		}
	}
	if s.MaxAnisotropy > 1 {
		ci.AnisotropyEnable, ci.MaxAnisotropy = 1, s.MaxAnisotropy
	}
	if s.Unnormalized {
		ci.UnnormalizedCoordinates = 1
	}
	return ci, nil
}

// samplerFor is the sampler of spec (nil: deviceSampler), made on first use
// and kept until the device is destroyed.
func (d *Device) samplerFor(spec *SamplerSpec) (uint64, error) {
	if spec == nil {
		return d.deviceSampler()
	}
	ci, err := samplerCreateInfo(*spec)
	if err != nil {
		return 0, err
	}
	d.samplerMu.Lock()
	defer d.samplerMu.Unlock()
	if h, ok := d.samplers[*spec]; ok {
		return h, nil
	}
	ld := d.dev
	if ld.tex.CreateSampler == 0 {
		return 0, fmt.Errorf("%w: %s: no vkCreateSampler", ErrUnavailable, ld.phys.facts.Name)
	}
	if ci.AnisotropyEnable != 0 {
		return 0, fmt.Errorf("%w: %s: anisotropic filtering is not enabled on the logical device", ErrUnavailable, ld.phys.facts.Name)
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	p := vk.New[vk.SamplerCreateInfo](a)
	*p = ci
	out := vk.New[uint64](a)
	if err := check("vkCreateSampler", vk.CallResult(ld.tex.CreateSampler, ld.handle, vk.Addr(p), 0, vk.Addr(out))); err != nil {
		return 0, err
	}
	if d.samplers == nil {
		d.samplers = map[SamplerSpec]uint64{}
	}
	d.samplers[*spec] = *out
	return *out, nil
}

// destroySamplers destroys the samplers samplerFor made.
func (d *Device) destroySamplers() {
	for s, h := range d.samplers {
		vk.Call(d.dev.tex.DestroySampler, d.dev.handle, uintptr(h), 0)
		delete(d.samplers, s)
	}
}

package device

import (
	"context"
	"testing"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// TestSamplerCreateInfo maps specs to VkSamplerCreateInfo field by field.
func TestSamplerCreateInfo(t *testing.T) {
	edge := [3]AddressMode{AddressClampToEdge, AddressClampToEdge, AddressClampToEdge}
	for _, c := range []struct {
		name string
		spec SamplerSpec
		want func(ci vk.SamplerCreateInfo) bool
	}{
		{"mip none is level 0 only", SamplerSpec{Address: edge, MaxLod: 1000},
			func(ci vk.SamplerCreateInfo) bool {
				return ci.MipmapMode == 0 && ci.MinLod == 0 && ci.MaxLod == 0 && ci.MagFilter == 0
			}},
		{"all linear", SamplerSpec{MagLinear: true, MinLinear: true, Mip: MipLinear, Address: edge, MaxLod: 1000},
			func(ci vk.SamplerCreateInfo) bool {
				return ci.MagFilter == 1 && ci.MinFilter == 1 && ci.MipmapMode == 1 && ci.MaxLod == 1000
			}},
		{"mag alone linear", SamplerSpec{MagLinear: true, Address: edge},
			func(ci vk.SamplerCreateInfo) bool { return ci.MagFilter == 1 && ci.MinFilter == 0 }},
		{"address per coordinate", SamplerSpec{Address: [3]AddressMode{AddressRepeat, AddressMirroredRepeat, AddressClampToEdge}},
			func(ci vk.SamplerCreateInfo) bool {
				return ci.AddressModeU == 0 && ci.AddressModeV == 1 && ci.AddressModeW == 2
			}},
		{"clamp to zero is a transparent border", SamplerSpec{Address: [3]AddressMode{AddressClampToZero, AddressClampToEdge, AddressClampToEdge}, Border: BorderOpaqueWhite},
			func(ci vk.SamplerCreateInfo) bool { return ci.AddressModeU == 3 && ci.BorderColor == 0 }},
		{"border colour", SamplerSpec{Address: [3]AddressMode{AddressClampToBorder, AddressClampToBorder, AddressClampToBorder}, Border: BorderOpaqueBlack},
			func(ci vk.SamplerCreateInfo) bool { return ci.BorderColor == 2 }},
		{"compare less", SamplerSpec{Address: edge, Compare: CompareLess},
			func(ci vk.SamplerCreateInfo) bool { return ci.CompareEnable == 1 && ci.CompareOp == 1 }},
		{"pixel coordinates", SamplerSpec{Address: edge, Unnormalized: true},
			func(ci vk.SamplerCreateInfo) bool { return ci.UnnormalizedCoordinates == 1 }},
	} {
		ci, err := samplerCreateInfo(c.spec)
		if err != nil || !c.want(ci) {
			t.Errorf("%s: %+v, %v", c.name, ci, err)
		}
	}
	if _, err := samplerCreateInfo(SamplerSpec{Address: [3]AddressMode{9, 0, 0}}); err == nil {
		t.Error("an address mode outside the enumeration was accepted")
	}
}

// TestSamplerSpecBinds runs the texture fixture with a linear constexpr-style
// sampler bound: it is created, cached, and a uniform float texture still
// gives its texel.
func TestSamplerSpecBinds(t *testing.T) {
	d := openDevice(t, Options{})
	p, out, binds := texSetup(t, d, nil)
	spec := &SamplerSpec{MagLinear: true, MinLinear: true, Mip: MipLinear,
		Address: [3]AddressMode{AddressClampToEdge, AddressClampToEdge, AddressClampToEdge}, MaxAnisotropy: 1, MaxLod: 1000}
	for i := range binds {
		if binds[i].Sampler {
			binds[i].SamplerSpec = spec
		}
	}
	if err := d.Run(context.Background(), p, DispatchArgs{Groups: [3]uint32{1, 1, 1}, Threads: [3]uint32{1, 1, 1}, Bindings: binds}); err != nil {
		t.Fatal(err)
	}
	for slot, c := range texCases {
		if c.kind != 'f' {
			continue // integer formats have no linear filtering (undefined), depth's is optional
		}
		for _, m := range checkSlot(out, slot, c.kind, contractTexel(c.index, c.kind)) {
			t.Errorf("%s (binding %d) through a linear sampler: %s", c.name, 32+c.index, m)
		}
	}
	h1, err1 := d.samplerFor(spec)
	h2, err2 := d.samplerFor(&SamplerSpec{MagLinear: true, MinLinear: true, Mip: MipLinear,
		Address: [3]AddressMode{AddressClampToEdge, AddressClampToEdge, AddressClampToEdge}, MaxAnisotropy: 1, MaxLod: 1000})
	h0, err0 := d.samplerFor(nil)
	if err1 != nil || err2 != nil || err0 != nil || h1 != h2 || h1 == h0 {
		t.Fatalf("sampler cache: %#x %#x (default %#x): %v %v %v", h1, h2, h0, err1, err2, err0)
	}
}

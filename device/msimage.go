package device

import (
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Multisample textures (TextureSpec.Samples > 1): a 2D or 2D-array sampled image of that many
// samples per texel, which shaders read per sample (OpImageFetch with the Sample operand, an
// OpTypeImage with MS = 1). An image of more than one sample cannot be the destination of a
// copy from a buffer, but vkCmdClearColorImage and vkCmdClearDepthStencilImage clear every
// sample of every texel in the range they are given, so NewTexture fills it as it fills a
// single-sample texture: every sample of every texel holds Texel.

// sampleCounts are the VkSampleCountFlagBits values a TextureSpec may ask for.
var sampleCounts = map[uint32]bool{1: true, 2: true, 4: true, 8: true, 16: true, 32: true, 64: true}

// samples is the texture's sample count: Samples, or 1 when it is 0.
func (s TextureSpec) samples() uint32 {
	if s.Samples == 0 {
		return 1
	}
	return s.Samples
}

// checkSamples refuses a sample count that is no VkSampleCountFlagBits value, and a
// multisample texture that is not a 2D or 2D-array sampled texture (Vulkan has no other
// multisample image; storage textures are single-sample here).
func (s TextureSpec) checkSamples() error {
	n := s.samples()
	switch {
	case !sampleCounts[n]:
		return argErr("NewTexture", -1, "%d samples: want 1, 2, 4, 8, 16, 32 or 64", n)
	case n > 1 && s.Dim != Dim2D && s.Dim != Dim2DArray:
		return argErr("NewTexture", -1, "a %v texture of %d samples: multisample textures are 2D or 2DArray", s.Dim, n)
	case n > 1 && s.Storage:
		return argErr("NewTexture", -1, "a storage texture of %d samples: storage textures are single-sample", n)
	}
	return nil
}

// checkSampleCount says whether the device makes an optimally tiled image of format in shape
// sh with usage and samples samples per texel (vkGetPhysicalDeviceImageFormatProperties'
// sampleCounts).
func (ld *logical) checkSampleCount(format uint32, sh texShape, usage, samples uint32) error {
	if samples <= 1 {
		return nil
	}
	p := ld.phys
	a := vk.GetArena()
	defer vk.PutArena(a)
	ip := vk.New[vk.ImageFormatProperties](a)
	r := vk.CallResult(p.in.fns.GetPhysicalDeviceImageFormatProperties, p.handle, uintptr(format), uintptr(sh.imageType),
		vk.ImageTilingOptimal, uintptr(usage), uintptr(sh.flags), vk.Addr(ip))
	if r < 0 {
		return fmt.Errorf("%w: %s: a %s image of format %s: vkGetPhysicalDeviceImageFormatProperties: %s", ErrUnavailable, p.facts.Name, sh.name, formatNames[format], r)
	}
	if ip.SampleCounts&samples == 0 {
		return fmt.Errorf("%w: %s: a %s image of format %s cannot have %d samples (sample counts %#x)", ErrUnavailable, p.facts.Name, sh.name, formatNames[format], samples, ip.SampleCounts)
	}
	return nil
}

// matchSamples says whether a texture made from spec fits an image descriptor's MS operand: a
// multisampled OpTypeImage takes a texture of more than one sample, any other a
// single-sample one.
func matchSamples(img spirvImage, spec TextureSpec) error {
	switch n := spec.samples(); {
	case img.MS && n == 1:
		return fmt.Errorf("the image is multisampled, the texture single-sample")
	case !img.MS && n > 1:
		return fmt.Errorf("the image is single-sample, the texture has %d samples", n)
	}
	return nil
}

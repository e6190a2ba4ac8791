package device

import (
	"context"
	"fmt"
	"math"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// TextureDim is the shape of a texture and of the image view shaders read it through.
type TextureDim uint8

// The texture shapes of the texture contract (docs: 4 texels per dimension, one mip level,
// one array layer; a cube has 6 faces, a cube array 6 layers).
const (
	Dim1D TextureDim = iota + 1
	Dim1DArray
	Dim2D
	Dim2DArray
	Dim3D
	DimCube
	DimCubeArray
)

// texShape is how one TextureDim is made in Vulkan, and the OpTypeImage it matches.
type texShape struct {
	name      string
	imageType uint32
	viewType  uint32
	extent    vk.Extent3D
	layers    uint32
	flags     uint32
	spvDim    uint32 // OpTypeImage Dim: 0 1D, 1 2D, 2 3D, 3 Cube
	arrayed   bool
}

var texShapes = [...]texShape{
	Dim1D:        {"1D", vk.ImageType1D, vk.ImageViewType1D, vk.Extent3D{Width: 4, Height: 1, Depth: 1}, 1, 0, 0, false},
	Dim1DArray:   {"1DArray", vk.ImageType1D, vk.ImageViewType1DArray, vk.Extent3D{Width: 4, Height: 1, Depth: 1}, 1, 0, 0, true},
	Dim2D:        {"2D", vk.ImageType2D, vk.ImageViewType2D, vk.Extent3D{Width: 4, Height: 4, Depth: 1}, 1, 0, 1, false},
	Dim2DArray:   {"2DArray", vk.ImageType2D, vk.ImageViewType2DArray, vk.Extent3D{Width: 4, Height: 4, Depth: 1}, 1, 0, 1, true},
	Dim3D:        {"3D", vk.ImageType3D, vk.ImageViewType3D, vk.Extent3D{Width: 4, Height: 4, Depth: 4}, 1, 0, 2, false},
	DimCube:      {"Cube", vk.ImageType2D, vk.ImageViewTypeCube, vk.Extent3D{Width: 4, Height: 4, Depth: 1}, 6, vk.ImageCreateCubeCompatible, 3, false},
	DimCubeArray: {"CubeArray", vk.ImageType2D, vk.ImageViewTypeCubeArray, vk.Extent3D{Width: 4, Height: 4, Depth: 1}, 6, vk.ImageCreateCubeCompatible, 3, true},
}

// dimNames are the OpTypeImage Dim names of the texture shapes, as reflections name them.
var dimNames = map[uint32]string{0: "1D", 1: "2D", 2: "3D", 3: "Cube"}

func (t TextureDim) valid() bool { return t >= Dim1D && t <= DimCubeArray }

// String is the dimension's name: "1D", "1DArray", "2D", "2DArray", "3D", "Cube", "CubeArray".
func (t TextureDim) String() string {
	if !t.valid() {
		return fmt.Sprintf("TextureDim(%d)", uint8(t))
	}
	return texShapes[t].name
}

// TextureDimOf is the TextureDim of an image binding as airpipe's translation reflects it:
// dim "1D", "2D", "3D" or "Cube", and whether it is arrayed.
func TextureDimOf(dim string, arrayed bool) (TextureDim, error) {
	for t := Dim1D; t <= DimCubeArray; t++ {
		s := texShapes[t]
		if s.arrayed == arrayed && dimNames[s.spvDim] == dim {
			return t, nil
		}
	}
	return 0, argErr("TextureDimOf", -1, "no texture shape for dim %q (arrayed %v)", dim, arrayed)
}

// TextureSpec describes a uniform texture: every texel of every layer and face holds Texel.
type TextureSpec struct {
	Dim TextureDim
	// Kind is 'f' (R32G32B32A32_SFLOAT), 'i' (R32G32B32A32_SINT), 'u' (R32G32B32A32_UINT) or
	// 'd' (D32_SFLOAT, read through the view's depth aspect; sampling gives it in .r).
	Kind byte
	// Texel is the value as four 32-bit words: float bits for 'f' and 'd', two's complement
	// for 'i' and 'u'. For 'd' only word 0 is used (a float in [0, 1]); words 1..3 must be 0.
	// A storage texture starts with every texel Texel.
	Texel [4]uint32
	// Storage makes a storage texture (a writable texture of the contract: Metal write or
	// read_write access): kind 'f', 'i' or 'u', dim 1D, 1DArray, 2D, 2DArray, 3D or Cube, usage
	// STORAGE | TRANSFER_SRC | TRANSFER_DST, in GENERAL layout for shaders; bind it with
	// Binding.Texture to a STORAGE_IMAGE descriptor and read it back with Read. Shaders change
	// it, so one storage texture serves one call at a time.
	Storage bool
	// Samples is the sample count of a multisample texture (msimage.go): 2, 4, ... for a 2D or
	// 2DArray sampled texture read per sample (OpTypeImage MS = 1), every sample holding Texel;
	// 0 or 1 is single-sample.
	Samples uint32
}

// format is the VkFormat and image aspect of a texture kind.
func (s TextureSpec) format() (format, aspect uint32, ok bool) {
	switch s.Kind {
	case 'f':
		return vk.FormatR32G32B32A32Sfloat, vk.ImageAspectColor, true
	case 'i':
		return vk.FormatR32G32B32A32Sint, vk.ImageAspectColor, true
	case 'u':
		return vk.FormatR32G32B32A32Uint, vk.ImageAspectColor, true
	case 'd':
		return vk.FormatD32Sfloat, vk.ImageAspectDepth, true
	}
	return 0, 0, false
}

var formatNames = map[uint32]string{
	vk.FormatR32G32B32A32Sfloat: "VK_FORMAT_R32G32B32A32_SFLOAT",
	vk.FormatR32G32B32A32Sint:   "VK_FORMAT_R32G32B32A32_SINT",
	vk.FormatR32G32B32A32Uint:   "VK_FORMAT_R32G32B32A32_UINT",
	vk.FormatD32Sfloat:          "VK_FORMAT_D32_SFLOAT",
	vk.FormatD32SfloatS8Uint:    "VK_FORMAT_D32_SFLOAT_S8_UINT",
}

// Texture is a sampled image of the device in device-local memory, 4 texels per dimension
// with one mip level, whose every texel holds one value (TextureSpec). Shaders read it in
// SHADER_READ_ONLY_OPTIMAL layout through a view of its TextureDim; bind it with
// Binding.Texture to a SAMPLED_IMAGE descriptor. Nothing writes it after NewTexture, so one
// texture may serve any number of calls, concurrent ones included. A storage texture
// (TextureSpec.Storage, storage.go) is the exception: shaders write it in GENERAL layout
// through a STORAGE_IMAGE descriptor, and Read copies it back.
type Texture struct {
	d                   *Device
	spec                TextureSpec
	format, aspect      uint32
	image, memory, view uint64
	uses                int  // command buffers in flight that use it (guarded by d.mu)
	freed               bool // guarded by d.mu
}

// Spec is what the texture was made from.
func (t *Texture) Spec() TextureSpec { return t.spec }

// NewTexture makes a texture of spec's shape and kind and fills every texel of every layer
// and face with spec.Texel (vkCmdClearColorImage or vkCmdClearDepthStencilImage, exact for
// these 32-bit formats) in one submission that it waits for. A bad spec is an
// *ArgumentError; a device that cannot sample or clear the format in that shape (or lacks
// imageCubeArray for DimCubeArray, or a graphics queue for depth clears) wraps
// ErrUnavailable and names the format.
func (d *Device) NewTexture(spec TextureSpec) (*Texture, error) {
	format, aspect, ok := spec.format()
	switch {
	case !spec.Dim.valid():
		return nil, argErr("NewTexture", -1, "dim %d is not a TextureDim", spec.Dim)
	case !ok:
		return nil, argErr("NewTexture", -1, "kind %q: want 'f', 'i', 'u' or 'd'", spec.Kind)
	case spec.Kind == 'd' && (spec.Texel[1]|spec.Texel[2]|spec.Texel[3] != 0):
		return nil, argErr("NewTexture", -1, "depth texel %#x: words 1..3 must be 0", spec.Texel)
	case spec.Kind == 'd' && !(math.Float32frombits(spec.Texel[0]) >= 0 && math.Float32frombits(spec.Texel[0]) <= 1):
		return nil, argErr("NewTexture", -1, "depth %g (%#08x) is outside [0, 1]", math.Float32frombits(spec.Texel[0]), spec.Texel[0])
	case spec.Storage && (spec.Kind == 'd' || !storageDim(spec.Dim)):
		return nil, argErr("NewTexture", -1, "a storage texture of kind %q and dim %v: storage textures are 'f', 'i' or 'u' and 1D, 1DArray, 2D, 2DArray, 3D or Cube", spec.Kind, spec.Dim)
	}
	if err := spec.checkSamples(); err != nil {
		return nil, err
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	ld := d.dev
	sh := texShapes[spec.Dim]
	usage := uint32(vk.ImageUsageSampled | vk.ImageUsageTransferDst)
	features := uint32(vk.FormatFeatureSampledImage | vk.FormatFeatureTransferDst)
	if spec.Storage {
		usage = vk.ImageUsageStorage | vk.ImageUsageTransferSrc | vk.ImageUsageTransferDst
		features = vk.FormatFeatureStorageImage | vk.FormatFeatureTransferSrc | vk.FormatFeatureTransferDst
	}
	if err := ld.checkTextureFormat(format, sh, usage, features); err != nil {
		return nil, err
	}
	if err := ld.checkSampleCount(format, sh, usage, spec.samples()); err != nil {
		return nil, err
	}
	if spec.Kind == 'd' && !ld.phys.graphics {
		return nil, fmt.Errorf("%w: %s: clearing %s needs a graphics queue, which airpipe's queue family is not", ErrUnavailable, ld.phys.facts.Name, formatNames[format])
	}
	if err := d.enter(); err != nil {
		return nil, err
	}
	t := &Texture{d: d, spec: spec, format: format, aspect: aspect}
	a := vk.GetArena()
	ci := vk.New[vk.ImageCreateInfo](a)
	ci.Flags = sh.flags
	ci.ImageType = sh.imageType
	ci.Format = format
	ci.Extent = sh.extent
	ci.ArrayLayers = sh.layers
	ci.Usage = usage
	ci.Samples = spec.samples()
	var err error
	t.image, t.memory, t.view, err = ld.newImage(ci, sh.viewType, t.subresources())
	vk.PutArena(a)
	if err != nil {
		ld.destroyImageObjects(t.image, t.memory, t.view)
		d.leave()
		return nil, fmt.Errorf("device: %s %s texture: %w", sh.name, formatNames[format], err)
	}
	d.mu.Lock()
	d.textures[t] = struct{}{}
	d.mu.Unlock()
	d.leave()
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error { return t.recordClear(enc) }, nil)
	if err == nil {
		err = d.Wait(context.Background(), v)
	}
	if err != nil {
		t.Free()
		return nil, err
	}
	return t, nil
}

// checkTextureFormat says whether the device can make an optimally tiled image of format in
// shape sh with usage, its format having the features need (sample and clear; for a storage
// texture, store, clear and copy out).
func (ld *logical) checkTextureFormat(format uint32, sh texShape, usage, need uint32) error {
	p := ld.phys
	name := fmt.Sprintf("%s (%d)", formatNames[format], format)
	if ld.draw.CreateImage == 0 || ld.tex.CmdClearColorImage == 0 || ld.tex.CreateSampler == 0 ||
		p.in.fns.GetPhysicalDeviceFormatProperties == 0 || p.in.fns.GetPhysicalDeviceImageFormatProperties == 0 {
		return fmt.Errorf("%w: %s: no image functions", ErrUnavailable, p.facts.Name)
	}
	if sh.viewType == vk.ImageViewTypeCubeArray && !ld.cubeArray {
		return fmt.Errorf("%w: %s: no imageCubeArray feature for a CubeArray %s texture", ErrUnavailable, p.facts.Name, name)
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	fp := vk.New[vk.FormatProperties](a)
	vk.Call(p.in.fns.GetPhysicalDeviceFormatProperties, p.handle, uintptr(format), vk.Addr(fp))
	if fp.OptimalTilingFeatures&need != need {
		return fmt.Errorf("%w: %s: format %s with optimal tiling has features %#x, lacking some of %#x (sampled or storage image, transfer)",
			ErrUnavailable, p.facts.Name, name, fp.OptimalTilingFeatures, need)
	}
	ip := vk.New[vk.ImageFormatProperties](a)
	r := vk.CallResult(p.in.fns.GetPhysicalDeviceImageFormatProperties, p.handle, uintptr(format), uintptr(sh.imageType),
		vk.ImageTilingOptimal, uintptr(usage), uintptr(sh.flags), vk.Addr(ip))
	if r < 0 {
		return fmt.Errorf("%w: %s: a %s image of format %s: vkGetPhysicalDeviceImageFormatProperties: %s", ErrUnavailable, p.facts.Name, sh.name, name, r)
	}
	e := sh.extent
	if ip.MaxExtent.Width < e.Width || ip.MaxExtent.Height < e.Height || ip.MaxExtent.Depth < e.Depth || ip.MaxArrayLayers < sh.layers {
		return fmt.Errorf("%w: %s: a %s image of format %s: at most %v texels and %d layers", ErrUnavailable, p.facts.Name, sh.name, name, ip.MaxExtent, ip.MaxArrayLayers)
	}
	return nil
}

// subresources is the texture's whole subresource range: its one level and every layer.
func (t *Texture) subresources() vk.ImageSubresourceRange {
	return vk.ImageSubresourceRange{AspectMask: t.aspect, LevelCount: 1, LayerCount: texShapes[t.spec.Dim].layers}
}

// record returns the encoder's open command buffer after marking t as used
// by it (so that Free waits for it).
func (t *Texture) record(enc *Encoder) (uintptr, error) {
	cmd, err := enc.CommandBuffer()
	if err != nil {
		return 0, err
	}
	return cmd, t.d.useTexture(t)
}

// recordClear records, into the open command buffer, the texture's move to TRANSFER_DST, its
// clear to spec.Texel and its move to SHADER_READ_ONLY_OPTIMAL (a storage texture: GENERAL)
// for every later command.
func (t *Texture) recordClear(enc *Encoder) error {
	cmd, err := t.record(enc)
	if err != nil {
		return err
	}
	ld := t.d.dev
	a := vk.GetArena()
	defer vk.PutArena(a)
	rng := vk.New[vk.ImageSubresourceRange](a)
	*rng = t.subresources()
	b := vk.New[vk.ImageMemoryBarrier](a)
	*b = layoutBarrier(t.image, *rng, 0, vk.AccessTransferWrite, vk.ImageLayoutUndefined, vk.ImageLayoutTransferDst)
	vk.Call(ld.fns.CmdPipelineBarrier, cmd, vk.PipelineStageTopOfPipe, vk.PipelineStageTransfer, 0, 0, 0, 0, 0, 1, vk.Addr(b))
	if t.spec.Kind == 'd' {
		v := vk.New[vk.ClearDepthStencilValue](a)
		v.Depth = math.Float32frombits(t.spec.Texel[0])
		vk.Call(ld.tex.CmdClearDepthStencilImage, cmd, uintptr(t.image), vk.ImageLayoutTransferDst, vk.Addr(v), 1, vk.Addr(rng))
	} else {
		v := vk.New[[4]uint32](a)
		*v = t.spec.Texel
		vk.Call(ld.tex.CmdClearColorImage, cmd, uintptr(t.image), vk.ImageLayoutTransferDst, vk.Addr(v), 1, vk.Addr(rng))
	}
	*b = layoutBarrier(t.image, *rng, vk.AccessTransferWrite, vk.AccessShaderRead, vk.ImageLayoutTransferDst, vk.ImageLayoutShaderReadOnly)
	if t.spec.Storage {
		*b = layoutBarrier(t.image, *rng, vk.AccessTransferWrite, vk.AccessShaderRead|vk.AccessShaderWrite|vk.AccessTransferRead,
			vk.ImageLayoutTransferDst, vk.ImageLayoutGeneral)
	}
	vk.Call(ld.fns.CmdPipelineBarrier, cmd, vk.PipelineStageTransfer, vk.PipelineStageAllCommands, 0, 0, 0, 0, 0, 1, vk.Addr(b))
	return nil
}

// useTexture keeps t alive until the open command buffer completes (the reaper releases it).
// submitMu is held.
func (d *Device) useTexture(t *Texture) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.textures[t]; !ok || t.freed {
		return fmt.Errorf("device: a %s texture was freed while its work was being recorded", texShapes[t.spec.Dim].name)
	}
	t.uses++
	d.open.keep = append(d.open.keep, t)
	return nil
}

// releaseLocked ends the use of the textures and pipelines among keep, whose command buffer
// completed, and returns those freed or unloaded meanwhile, now unused, for the caller to
// destroy once it drops d.mu.
func (d *Device) releaseLocked(keep []any) []interface{ destroy() } {
	var dead []interface{ destroy() }
	for _, k := range keep {
		switch k := k.(type) {
		case *Texture:
			k.uses--
			if k.freed && k.uses == 0 {
				delete(d.textures, k)
				dead = append(dead, k)
			}
		case *Pipeline:
			k.uses--
			if d.unusedLocked(k) {
				dead = append(dead, k)
			}
		}
	}
	return dead
}

// liveTexture reports whether t is a texture of d not yet freed.
func (d *Device) liveTexture(t *Texture) bool {
	if t == nil || t.d != d {
		return false
	}
	return d.holds(func() bool { _, ok := d.textures[t]; return ok && !t.freed })
}

// Free releases the texture: at once when no submitted work uses it, otherwise as soon as
// the last command buffer that uses it completes. Later bindings of it are invalid; freeing
// twice is harmless. Stop destroys textures not yet released.
func (t *Texture) Free() {
	d := t.d
	d.mu.Lock()
	_, ok := d.textures[t]
	now := ok && !t.freed && t.uses == 0
	t.freed = true
	if now {
		delete(d.textures, t)
	}
	d.mu.Unlock()
	if now {
		t.destroy()
	}
}

func (t *Texture) destroy() {
	t.d.dev.destroyImageObjects(t.image, t.memory, t.view)
	t.image, t.memory, t.view = 0, 0, 0
}

// deviceSampler is the device's one sampler, made on first use: NEAREST filters and mipmap
// mode, CLAMP_TO_EDGE on u, v and w, no comparison, no anisotropy, normalized coordinates, LOD
// range [0, 0] (the texture contract). It lives until the device is destroyed.
func (d *Device) deviceSampler() (uint64, error) {
	d.samplerMu.Lock()
	defer d.samplerMu.Unlock()
	if d.sampler != 0 {
		return d.sampler, nil
	}
	ld := d.dev
	if ld.tex.CreateSampler == 0 {
		return 0, fmt.Errorf("%w: %s: no vkCreateSampler", ErrUnavailable, ld.phys.facts.Name)
	}
	a := vk.GetArena()
	defer vk.PutArena(a)
	ci := vk.New[vk.SamplerCreateInfo](a)
	*ci = vk.SamplerCreateInfo{
		SType:     vk.StructureTypeSamplerCreateInfo,
		MagFilter: vk.FilterNearest, MinFilter: vk.FilterNearest, MipmapMode: vk.SamplerMipmapModeNearest,
		AddressModeU: vk.SamplerAddressModeClampToEdge, AddressModeV: vk.SamplerAddressModeClampToEdge, AddressModeW: vk.SamplerAddressModeClampToEdge,
		MaxAnisotropy: 1, CompareOp: vk.CompareOpNever, BorderColor: vk.BorderColorFloatTransparent,
	}
	out := vk.New[uint64](a)
	if err := check("vkCreateSampler", vk.CallResult(ld.tex.CreateSampler, ld.handle, vk.Addr(ci), 0, vk.Addr(out))); err != nil {
		return 0, err
	}
	d.sampler = *out
	return d.sampler, nil
}

// writeImage points binding of set at an image view (layout SHADER_READ_ONLY_OPTIMAL; a
// STORAGE_IMAGE: GENERAL) or a sampler, by dtype (SAMPLED_IMAGE, STORAGE_IMAGE or SAMPLER).
func (ld *logical) writeImage(set uint64, binding, dtype uint32, view, sampler uint64) {
	a := vk.GetArena()
	defer vk.PutArena(a)
	ii := vk.New[vk.DescriptorImageInfo](a)
	ii.ImageView = view
	ii.Sampler = sampler
	ii.ImageLayout = vk.ImageLayoutShaderReadOnly
	if dtype == vk.DescriptorTypeStorageImage {
		ii.ImageLayout = vk.ImageLayoutGeneral
	}
	w := ld.descriptorWrite(a, set, binding, dtype)
	w.PImageInfo = vk.Addr(ii)
	vk.Call(ld.fns.UpdateDescriptorSets, ld.handle, 1, vk.Addr(w), 0, 0)
}

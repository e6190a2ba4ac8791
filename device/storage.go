package device

import (
	"context"
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

// Storage textures: the writable textures of the texture contract (RATIONALE.md, "Storage
// textures"). TextureSpec.Storage makes one; shaders read and write it in GENERAL layout
// through a STORAGE_IMAGE descriptor, and Read copies its texels back.

// Offsets of VkPhysicalDeviceFeatures2.features.shaderStorageImage{Read,Write}WithoutFormat
// (vulkan_core.h, 64-bit hosts: members 31 and 32 of VkPhysicalDeviceFeatures, after the
// 16-byte header).
const (
	offStorageImageReadWithoutFormat  = 16 + 4*31
	offStorageImageWriteWithoutFormat = 16 + 4*32
)

// SPIR-V capabilities that need those features.
const (
	capStorageImageReadWithoutFormat  = 55
	capStorageImageWriteWithoutFormat = 56
)

// storageDims are the shapes a storage texture may have (a cube: its 6 faces, layer = face,
// through a Cube view; no cube array).
var storageDims = []TextureDim{Dim1D, Dim1DArray, Dim2D, Dim2DArray, Dim3D, DimCube}

func storageDim(t TextureDim) bool {
	for _, d := range storageDims {
		if d == t {
			return true
		}
	}
	return false
}

// spirvCapabilities are the OpCapability operands of a module's words (its header checked by
// parseSPIRV); an instruction whose word count runs past the end ends the scan.
func spirvCapabilities(words []uint32) map[uint32]bool {
	caps := map[uint32]bool{}
	for i := 5; i < len(words); {
		n := int(words[i] >> 16)
		if n == 0 || i+n > len(words) {
			break
		}
		switch words[i] & 0xffff {
		case opCapability:
			if n >= 2 {
				caps[words[i+1]] = true
			}
		case opMemoryModel, opEntryPoint, opExecutionMode, opTypeVoid:
			// Capabilities come first; past them nothing more is declared.
			return caps
		}
		i += n
	}
	return caps
}

// extensionCapabilities are the SPIR-V capabilities (spirv.h numbers) that only a device
// created with a device extension of optionalExtensions may be given: a driver need not
// refuse such a module, and one that accepts it without the extension may ignore what it
// asks for (an H200 without VK_EXT_shader_stencil_export wrote the pipeline's stencil
// reference, 0, where the fragment exported another value).
var extensionCapabilities = []struct {
	capability uint32
	name       string
	extension  string
}{
	{4428, "WorkgroupMemoryExplicitLayoutKHR", "VK_KHR_workgroup_memory_explicit_layout"},
	{4429, "WorkgroupMemoryExplicitLayout8BitAccessKHR", "VK_KHR_workgroup_memory_explicit_layout"},
	{4430, "WorkgroupMemoryExplicitLayout16BitAccessKHR", "VK_KHR_workgroup_memory_explicit_layout"},
	{5013, "StencilExportEXT", "VK_EXT_shader_stencil_export"},
	{5016, "Int64ImageEXT", "VK_EXT_shader_image_atomic_int64"},
	{5055, "ShaderClockKHR", "VK_KHR_shader_clock"},
	{5284, "FragmentBarycentricKHR", "VK_KHR_fragment_shader_barycentric"},
	{5363, "FragmentShaderSampleInterlockEXT", "VK_EXT_fragment_shader_interlock"},
	{5372, "FragmentShaderShadingRateInterlockEXT", "VK_EXT_fragment_shader_interlock"},
	{5378, "FragmentShaderPixelInterlockEXT", "VK_EXT_fragment_shader_interlock"},
	{5612, "AtomicFloat32MinMaxEXT", "VK_EXT_shader_atomic_float2"},
	{5613, "AtomicFloat64MinMaxEXT", "VK_EXT_shader_atomic_float2"},
	{5616, "AtomicFloat16MinMaxEXT", "VK_EXT_shader_atomic_float2"},
	{6033, "AtomicFloat32AddEXT", "VK_EXT_shader_atomic_float"},
	{6034, "AtomicFloat64AddEXT", "VK_EXT_shader_atomic_float"},
	{6095, "AtomicFloat16AddEXT", "VK_EXT_shader_atomic_float2"},
}

// checkCapabilities refuses a module that declares StorageImageReadWithoutFormat or
// StorageImageWriteWithoutFormat on a device without the matching feature (airpipe's
// translation declares storage images with format Unknown), or a capability of
// extensionCapabilities on a device created without its extension: ErrUnavailable names
// the feature or the extension.
func (ld *logical) checkCapabilities(words []uint32) error {
	caps := spirvCapabilities(words)
	for _, c := range extensionCapabilities {
		if caps[c.capability] && !ld.extensions[c.extension] {
			return fmt.Errorf("%w: %s: no %s for the module's capability %s", ErrUnavailable, ld.phys.facts.Name, c.extension, c.name)
		}
	}
	switch {
	case caps[capStorageImageReadWithoutFormat] && !ld.storageReadNoFormat:
		return fmt.Errorf("%w: %s: no shaderStorageImageReadWithoutFormat feature for the module's capability StorageImageReadWithoutFormat (reads of storage images of format Unknown)", ErrUnavailable, ld.phys.facts.Name)
	case caps[capStorageImageWriteWithoutFormat] && !ld.storageWriteNoFormat:
		return fmt.Errorf("%w: %s: no shaderStorageImageWriteWithoutFormat feature for the module's capability StorageImageWriteWithoutFormat (writes to storage images of format Unknown)", ErrUnavailable, ld.phys.facts.Name)
	}
	return nil
}

// spirvFormats are the OpTypeImage Image Formats a storage texture of each kind matches
// besides Unknown (0): Rgba32f, Rgba32i, Rgba32ui.
var spirvFormats = map[byte]uint32{'f': 1, 'i': 21, 'u': 30}

// TexelBytes is the size of one texel of every texture: four 32-bit components.
const TexelBytes = 16

// ReadSize is the number of bytes Read returns: every texel of every layer, TexelBytes each.
func (t *Texture) ReadSize() int {
	sh := texShapes[t.spec.Dim]
	e := sh.extent
	return int(e.Width*e.Height*e.Depth*sh.layers) * TexelBytes
}

// Read copies a storage texture's texels into host memory through one submission that it
// waits for, after the work submitted before it (Run, Draw, CaptureVertices) completes:
// ReadSize bytes, TexelBytes per texel as the format stores them (four little-endian 32-bit
// words), row-major — x fastest, then y, then z or layer. A texture that is not a storage
// texture, or one freed, is an *ArgumentError.
func (t *Texture) Read(ctx context.Context) ([]byte, error) {
	d := t.d
	if !t.spec.Storage {
		return nil, argErr("Read", -1, "a sampled %s texture: only storage textures (TextureSpec.Storage) are read back", texShapes[t.spec.Dim].name)
	}
	if !d.liveTexture(t) {
		return nil, argErr("Read", -1, "the texture was freed")
	}
	buf, err := d.NewBuffer(int64(t.ReadSize()))
	if err != nil {
		return nil, err
	}
	v, err := d.Submit(func(enc *Encoder, _ any, _ uint64) error { return t.recordRead(enc, buf) }, nil)
	if err != nil {
		buf.Free()
		return nil, err
	}
	if err := d.Wait(ctx, v); err != nil {
		// The copy may still run: its buffer stays until Stop destroys it.
		return nil, err
	}
	out := append([]byte(nil), buf.Bytes()...)
	buf.Free()
	return out, nil
}

// recordRead records the texture's move from GENERAL to TRANSFER_SRC_OPTIMAL after every
// earlier write, its copy into buf, and its move back to GENERAL for later shaders.
func (t *Texture) recordRead(enc *Encoder, buf *Buffer) error {
	cmd, err := t.record(enc)
	if err != nil {
		return err
	}
	d := t.d
	d.open.keep = append(d.open.keep, buf)
	ld := d.dev
	a := vk.GetArena()
	defer vk.PutArena(a)
	sh := texShapes[t.spec.Dim]
	rng := t.subresources()
	b := vk.New[vk.ImageMemoryBarrier](a)
	*b = layoutBarrier(t.image, rng, vk.AccessShaderWrite|vk.AccessMemoryWrite|vk.AccessTransferWrite, vk.AccessTransferRead,
		vk.ImageLayoutGeneral, vk.ImageLayoutTransferSrc)
	vk.Call(ld.fns.CmdPipelineBarrier, cmd, vk.PipelineStageAllCommands, vk.PipelineStageTransfer, 0, 0, 0, 0, 0, 1, vk.Addr(b))
	r := vk.New[vk.BufferImageCopy](a)
	r.ImageSubresource = [4]uint32{t.aspect, 0, 0, sh.layers}
	r.ImageExtent = sh.extent
	vk.Call(ld.draw.CmdCopyImageToBuffer, cmd, uintptr(t.image), vk.ImageLayoutTransferSrc, uintptr(buf.buffer), 1, vk.Addr(r))
	*b = layoutBarrier(t.image, rng, 0, vk.AccessShaderRead|vk.AccessShaderWrite, vk.ImageLayoutTransferSrc, vk.ImageLayoutGeneral)
	vk.Call(ld.fns.CmdPipelineBarrier, cmd, vk.PipelineStageTransfer, vk.PipelineStageAllCommands, 0, 0, 0, 0, 0, 1, vk.Addr(b))
	barrier(ld, cmd, vk.PipelineStageTransfer, vk.PipelineStageHost, vk.AccessTransferWrite, vk.AccessHostRead)
	return nil
}

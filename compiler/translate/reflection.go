package translate

import "github.com/airpipe/airpipe/compiler/air"

// Reflection is what the execution stages need to bind and drive a
// translated entry point, without re-reading AIR. It is JSON-able.
type Reflection struct {
	// Stage is air.Kernel, air.Vertex or air.Fragment.
	Stage air.Stage `json:"stage"`
	// Entry is the SPIR-V entry point's name (the AIR function's name).
	Entry string `json:"entry"`
	// Bindings are the descriptor bindings (all in set 0), by binding number.
	Bindings []Binding `json:"bindings,omitempty"`
	// PushConstants is the push-constant range the module reads (nil when none).
	PushConstants *PushConstants `json:"push_constants,omitempty"`
	// Outputs are the fragment colour attachments or the vertex outputs.
	Outputs []Varying `json:"outputs,omitempty"`
	// Inputs are the vertex attributes or fragment varyings and built-ins.
	Inputs []Varying `json:"inputs,omitempty"`
	// Workgroup is the compute workgroup-size policy (kernels only).
	Workgroup *Workgroup `json:"workgroup,omitempty"`
	// InputAttachments are the colour attachments a fragment function reads
	// (programmable blending, ABI.md): each must also be bound as an input attachment.
	InputAttachments []InputAttachment `json:"input_attachments,omitempty"`
	// Threadgroup lists the threadgroup memory arguments, sized at dispatch.
	Threadgroup []ThreadgroupMemory `json:"threadgroup,omitempty"`
	// Capabilities are the SPIR-V capabilities the module declares.
	Capabilities []string `json:"capabilities,omitempty"`
	// SpecConstants are the Metal function constants the entry point reads,
	// by ID (ABI.md, "Function constants").
	SpecConstants []SpecConstant `json:"spec_constants,omitempty"`
}

// SpecConstant is one Metal function constant lowered to a SPIR-V
// specialization constant. Its specialization data is always one 32-bit
// word: a VkBool32 for "bool", an int32 for char/short/int, a uint32 for
// uchar/ushort/uint, a float32 for half and float.
type SpecConstant struct {
	// ID is the SpecId: 100 + Index, or 65636 + Index for a Defined flag.
	ID uint32 `json:"id"`
	// Index is the Metal function constant index ([[function_constant(Index)]]).
	Index int `json:"index"`
	// Name is the function constant's name in the Metal source.
	Name string `json:"name"`
	// Type is the Metal type ("bool", "float", "uint", "ushort", ...);
	// "bool" for a Defined flag.
	Type string `json:"type"`
	// Defined marks the flag air.is_function_constant_defined reads: a
	// VkBool32, true when the pipeline specialises function constant Index
	// (SpecId 100 + Index), false (the default) when it does not.
	Defined bool `json:"defined,omitempty"`
}

// Binding is one descriptor binding.
type Binding struct {
	Set     int `json:"set"`
	Binding int `json:"binding"`
	// Kind is "storage-buffer", "sampled-image", "sampler", "storage-image" or
	// "input-attachment" (a colour attachment read by a fragment function).
	Kind string `json:"kind"`
	// Metal is the AIR role and index the binding came from ("air.buffer 0").
	Metal string `json:"metal"`
	// Name is the argument's name in the Metal source (air.arg_name).
	Name string `json:"name,omitempty"`
	// Access is "read", "write" or "read_write".
	Access string `json:"access,omitempty"`
	// Size is the buffer's static size in bytes when AIR states it (air.buffer_size), else 0.
	Size int64 `json:"size,omitempty"`
	// TypeName is air.arg_type_name (float4, texture2d<float, sample>...).
	TypeName string `json:"type_name,omitempty"`
	// Dim is the image dimensionality for image bindings ("2D", "Cube"...), Arrayed when an array.
	Dim     string `json:"dim,omitempty"`
	Arrayed bool   `json:"arrayed,omitempty"`
	// Multisampled is set for texture2d_ms and depth2d_ms (arrays too):
	// the image is declared MS=1 and must be bound to a multisampled view.
	Multisampled bool `json:"multisampled,omitempty"`
	// SampledType is the image's component type ("float", "int", "uint").
	SampledType string `json:"sampled_type,omitempty"`
	// SamplerState is a constexpr sampler's Metal state word, verbatim (not decoded).
	SamplerState string `json:"sampler_state,omitempty"`
}

// PushConstants is a push-constant range.
type PushConstants struct {
	Size    int    `json:"size"`
	Purpose string `json:"purpose"`
}

// Varying is one stage input or output.
type Varying struct {
	// Name is the varying's AIR name (the generated(...) key or air.arg_name).
	Name string `json:"name"`
	// Role is the AIR role (air.fragment_input, air.render_target, air.position...).
	Role string `json:"role"`
	// Location is the Vulkan location (-1 for built-ins).
	Location int `json:"location"`
	// BuiltIn names the SPIR-V built-in, when it is one.
	BuiltIn string `json:"builtin,omitempty"`
	// Type is the LLVM type (float4 is <4 x float>).
	Type string `json:"type"`
	// InterfaceType is the Vulkan variable's type when it differs: 8- and
	// 16-bit lanes travel as 32-bit ones (<4 x half> as <4 x float>).
	InterfaceType string `json:"interface_type,omitempty"`
	// Format is the Metal type name (float4, half4, uint...).
	Format string `json:"format,omitempty"`
	// Interpolation is "perspective", "no_perspective" or "flat" (fragment inputs).
	Interpolation string `json:"interpolation,omitempty"`
}

// Workgroup is how a kernel's threadgroup size is chosen.
type Workgroup struct {
	// Policy is "spec-constant": SPIR-V spec constants SpecIDs set the local size.
	Policy  string    `json:"policy"`
	SpecIDs [3]int    `json:"spec_ids"`
	Default [3]uint32 `json:"default"`
}

// ThreadgroupMemory is one threadgroup memory argument: a Workgroup array
// whose length in 32-bit words is the spec constant SpecID (set it to the
// dispatch's byte size / 4; DefaultBytes applies otherwise).
type ThreadgroupMemory struct {
	Index        int    `json:"index"`
	Name         string `json:"name,omitempty"`
	SpecID       int    `json:"spec_id"`
	DefaultBytes int    `json:"default_bytes"`
}

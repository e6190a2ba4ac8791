package translate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// The descriptor ABI (ABI.md): set 0; buffers at bindings 0..32, sampled
// textures at 32..160, samplers at 160..176 and constexpr samplers at 176..192, colour attachments 192..200
// (reserved for input attachments), storage textures at 480..608; each
// Metal index is added to its range's base.
const (
	bufferBase         = 0
	bufferCount        = 32
	sampledTextureBase = 32
	textureCount       = 128
	samplerBase        = 160
	samplerCount       = 16
	constSamplerBase   = 176
	constSamplerCount  = 16
	storageTextureBase = 480
)

// resource is a texture or sampler argument: its variable and image type.
type resource struct {
	v       spirv.ID
	typ     spirv.ID // the image (or sampler) type
	sampler bool
	storage bool
	dim     spirv.Dim
	arrayed bool
	depth   bool
	ms      bool // multisampled (MS=1): read per sample, never sampled
	// cubeFaces is set for a read-only cube declared as a 2D array of its faces.
	cubeFaces bool
	comp      air.Type // the component type texels are read as (float, int, uint)
	// signedComp is set for int textures (their SPIR-V sampled type is signed).
	signedComp bool
}

// output is one place the entry point's returned value goes.
type output struct {
	v     spirv.ID
	field int      // -1 when the whole returned value is this output
	typ   air.Type // the program's type; the variable holds widen(typ)
	wrap  bool     // typ is [1 x T] around the returned scalar T
}

// key returns the values of metadata key name in b.
func key(b air.Binding, name string) ([]air.Metadata, bool) {
	for _, k := range b.Keys {
		if k.Name == name {
			return k.Values, true
		}
	}
	return nil, false
}

func hasKey(b air.Binding, name string) bool {
	_, ok := key(b, name)
	return ok
}

// varyingName is the generated(...) name a fragment input or vertex output carries.
func varyingName(b air.Binding) string {
	if vals, ok := key(b, b.Role); ok {
		for _, v := range vals {
			if s, ok := v.(*air.MDString); ok {
				return s.Value
			}
		}
	}
	if b.ArgName != "" {
		return b.ArgName
	}
	return fmt.Sprintf("%s.%d", b.Role, b.Param)
}

// harmlessKeys are metadata keys that change nothing in the SPIR-V.
var harmlessKeys = map[string]bool{
	"air.arg_type_name": true, "air.arg_name": true, "air.arg_type_size": true, "air.arg_type_align_size": true,
	"air.buffer_size": true, "air.location_index": true, "air.read": true, "air.write": true, "air.read_write": true,
	"air.sample": true, "air.struct_type_info": true, "air.center": true, "air.perspective": true,
	"air.no_perspective": true, "air.flat": true, "air.centroid": true, "air.address_space": true,
	"air.arg_unused": true, "air.depth_qualifier": true, "air.any": true, "air.greater": true, "air.less": true,
}

func (t *translator) checkKeys(b air.Binding) {
	for _, k := range b.Unknown {
		if k == b.Role {
			continue // the role repeated (older compilers write air.position twice)
		}
		if !harmlessKeys[k] && !strings.HasPrefix(k, "generated(") {
			t.miss.add(CodeUnsupportedInterface, k)
		}
	}
}

// decorateBinding puts v at set 0, binding n.
func (t *translator) decorateBinding(v spirv.ID, n int) {
	t.b.Decorate(v, spirv.DecorationDescriptorSet, 0)
	t.b.Decorate(v, spirv.DecorationBinding, uint32(n))
	t.iface = append(t.iface, v)
}

// bindInputs maps every entry-point parameter to a binding, built-in or varying.
func (t *translator) bindInputs() {
	fn := t.ep.Function
	location := 0
	for _, b := range t.ep.Inputs {
		t.checkKeys(b)
		if b.Param < 0 || b.Param >= len(fn.Args) {
			t.miss.addf(CodeUnsupportedInterface, "%s on missing parameter %d", b.Role, b.Param)
			continue
		}
		arg := fn.Args[b.Param]
		t.bindInput(arg, b, &location)
		// A parameter left unbound was refused by a finding (perhaps one
		// an earlier parameter already added: the list holds each once).
		if !t.bound(arg) && len(t.miss.list) > 0 {
			if t.refusedArgs == nil {
				t.refusedArgs = map[*air.Argument]bool{}
			}
			t.refusedArgs[arg] = true
		}
	}
}

// bound reports whether an entry-point parameter got a value, a pointer or
// a resource.
func (t *translator) bound(a *air.Argument) bool {
	_, v := t.vals[a]
	_, p := t.ptrs[a]
	_, r := t.res[a]
	return v || p || r
}

// bindInput maps one entry-point parameter to its binding, built-in or
// varying; location counts the fragment inputs bound so far.
func (t *translator) bindInput(arg *air.Argument, b air.Binding, location *int) {
	{
		switch b.Role {
		case "air.buffer":
			t.bindBuffer(arg, b)
		case "air.threadgroup":
			t.bindThreadgroup(arg, b)
		case "air.texture":
			t.bindTexture(arg, b)
		case "air.sampler":
			t.bindSampler(arg, b)
		case "air.render_target":
			t.bindRenderTargetInput(arg, b) // programmable blending (fbfetch.go)
		case "air.fragment_input", "air.vertex_input":
			loc := *location
			if b.Role == "air.vertex_input" {
				loc = b.Location
			}
			*location++
			t.bindVarying(arg, b, loc)
		default:
			if bi, ok := inputBuiltins[b.Role]; ok && bi.stage == t.model {
				t.bindBuiltin(arg, b, bi)
				return
			}
			t.miss.add(CodeUnsupportedInterface, b.Role)
		}
	}
}

func (t *translator) bindBuffer(arg *air.Argument, b air.Binding) {
	pt, ok := arg.Type().(*air.PointerType)
	if !ok {
		t.miss.addf(CodeUnsupportedInterface, "air.buffer of %s", arg.Type())
		return
	}
	if pt.AddrSpace != 1 && pt.AddrSpace != 2 {
		t.miss.addf(CodeUnsupportedInterface, "air.buffer in address space %d", pt.AddrSpace)
		return
	}
	if b.Location < 0 || b.Location >= bufferCount {
		t.miss.addf(CodeUnsupportedInterface, "air.buffer index %d", b.Location)
		return
	}
	rta := t.b.TypeRuntimeArray(t.u32, 4)
	block := t.b.TypeStructUnique(rta)
	t.b.Decorate(block, spirv.DecorationBlock)
	t.b.MemberDecorate(block, 0, spirv.DecorationOffset, 0)
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassStorageBuffer, block), spirv.StorageClassStorageBuffer)
	t.b.Name(v, b.ArgName)
	n := bufferBase + b.Location
	t.decorateBinding(v, n)
	r := &root{kind: rootBuffer, v: v, sc: spirv.StorageClassStorageBuffer, wrapped: true}
	t.ptrs[arg] = pointer{root: r, off: t.b.ConstantU32(0)}
	access := b.Access
	if access == "" {
		access = "read_write"
		if pt.AddrSpace == 2 {
			access = "read"
		}
	}
	size := b.BufferSize
	if size < 0 {
		size = 0
	}
	t.refl.Bindings = append(t.refl.Bindings, Binding{Binding: n, Kind: "storage-buffer", Metal: fmt.Sprintf("air.buffer %d", b.Location),
		Name: b.ArgName, Access: access, Size: size, TypeName: b.ArgTypeName})
}

// threadgroupSpecBase is the SpecId of threadgroup memory argument 0's
// length in words; argument i uses threadgroupSpecBase + i.
const threadgroupSpecBase = 3

// defaultThreadgroupWords is the default length of a threadgroup memory
// argument (16 KiB) until the runtime specialises it.
const defaultThreadgroupWords = 4096

// bindThreadgroup maps a threadgroup memory argument (its size is set at
// dispatch in Metal) to a Workgroup word array whose length is a spec
// constant, so the runtime gives it the dispatch's size.
func (t *translator) bindThreadgroup(arg *air.Argument, b air.Binding) {
	pt, ok := arg.Type().(*air.PointerType)
	if !ok || pt.AddrSpace != 3 || t.model != spirv.ExecutionModelGLCompute {
		t.miss.addf(CodeUnsupportedInterface, "air.threadgroup of %s", arg.Type())
		return
	}
	if b.Location < 0 || b.Location >= 31 {
		t.miss.addf(CodeUnsupportedInterface, "air.threadgroup index %d", b.Location)
		return
	}
	n := t.b.SpecConstant(t.u32, defaultThreadgroupWords)
	spec := threadgroupSpecBase + b.Location
	t.b.Decorate(n, spirv.DecorationSpecId, uint32(spec))
	arr := t.b.TypeArray(t.u32, n, 0)
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassWorkgroup, arr), spirv.StorageClassWorkgroup)
	t.b.Name(v, b.ArgName)
	t.iface = append(t.iface, v)
	r := &root{kind: rootWorkgroup, v: v, sc: spirv.StorageClassWorkgroup}
	t.ptrs[arg] = pointer{root: r, off: t.b.ConstantU32(0)}
	t.refl.Threadgroup = append(t.refl.Threadgroup, ThreadgroupMemory{Index: b.Location, Name: b.ArgName,
		SpecID: spec, DefaultBytes: 4 * defaultThreadgroupWords})
}

// textureType parses an air.arg_type_name such as "texture2d<float, sample>".
func textureType(name string) (dim spirv.Dim, arrayed, depth, ms bool, comp string, ok bool) {
	base, params, _ := strings.Cut(name, "<")
	comp = "float"
	if params != "" {
		comp = strings.TrimSpace(strings.SplitN(strings.TrimSuffix(params, ">"), ",", 2)[0])
	}
	switch base {
	case "texture1d":
		dim = spirv.Dim1D
	case "texture1d_array":
		dim, arrayed = spirv.Dim1D, true
	case "texture2d":
		dim = spirv.Dim2D
	case "texture2d_array":
		dim, arrayed = spirv.Dim2D, true
	case "texture2d_ms":
		dim, ms = spirv.Dim2D, true
	case "texture2d_ms_array":
		dim, arrayed, ms = spirv.Dim2D, true, true
	case "texture3d":
		dim = spirv.Dim3D
	case "texturecube":
		dim = spirv.DimCube
	case "texturecube_array":
		dim, arrayed = spirv.DimCube, true
	case "depth2d":
		dim, depth = spirv.Dim2D, true
	case "depth2d_array":
		dim, arrayed, depth = spirv.Dim2D, true, true
	case "depthcube":
		dim, depth = spirv.DimCube, true
	case "depth2d_ms":
		dim, depth, ms = spirv.Dim2D, true, true
	case "depth2d_ms_array":
		dim, arrayed, depth, ms = spirv.Dim2D, true, true, true
	case "texture_buffer":
		dim = spirv.DimBuffer
	default:
		return 0, false, false, false, "", false
	}
	return dim, arrayed, depth, ms, comp, true
}

var dimNames = map[spirv.Dim]string{spirv.Dim1D: "1D", spirv.Dim2D: "2D", spirv.Dim3D: "3D", spirv.DimCube: "Cube", spirv.DimBuffer: "Buffer"}

func (t *translator) bindTexture(arg *air.Argument, b air.Binding) {
	dim, arrayed, depth, ms, comp, ok := textureType(b.ArgTypeName)
	if !ok {
		t.miss.add(CodeUnsupportedInterface, "air.texture "+strings.SplitN(b.ArgTypeName, "<", 2)[0])
		return
	}
	if b.Location < 0 || b.Location >= textureCount {
		t.miss.addf(CodeUnsupportedInterface, "air.texture index %d", b.Location)
		return
	}
	var compTy air.Type = air.FloatTy
	sampledType := t.b.TypeFloat(32)
	switch comp {
	case "float", "half":
	case "int", "short":
		compTy = &air.IntType{Bits: 32}
		sampledType = t.b.TypeInt(32, true)
	case "uint", "ushort":
		compTy = &air.IntType{Bits: 32}
		sampledType = t.b.TypeInt(32, false)
	default:
		t.miss.add(CodeUnsupportedInterface, "air.texture of "+comp)
		return
	}
	storage := b.Access == "write" || b.Access == "read_write"
	if ms && storage {
		// Metal's multisampled textures are read-only (access::read).
		t.miss.add(CodeUnsupportedInterface, "air.texture "+strings.SplitN(b.ArgTypeName, "<", 2)[0]+" with "+b.Access+" access")
		return
	}
	sampled := uint32(1)
	base := sampledTextureBase
	kind := "sampled-image"
	if storage {
		sampled, base, kind = 2, storageTextureBase, "storage-image"
		// The format is Unknown (Metal binds any), so each access needs its
		// without-format capability; a write-only texture never reads, and
		// must not demand a feature (shaderStorageImageReadWithoutFormat)
		// some drivers lack.
		t.b.Capability(spirv.CapabilityStorageImageWriteWithoutFormat)
		if b.Access == "read_write" {
			t.b.Capability(spirv.CapabilityStorageImageReadWithoutFormat)
		}
	}
	cubeFaces := false
	switch dim {
	case spirv.Dim1D:
		if storage {
			t.b.Capability(spirv.CapabilityImage1D)
		} else {
			t.b.Capability(spirv.CapabilitySampled1D)
		}
	case spirv.DimCube:
		switch {
		case b.Access == "read" && !arrayed:
			// A read-only cube is only ever read by face (Metal cannot
			// sample it), and Vulkan cannot fetch from a Cube image: it is
			// declared as the 2D array of its six faces (layer = face), and
			// bound through a 2D-array view of the cube image (ABI.md).
			dim, arrayed, cubeFaces = spirv.Dim2D, true, true
		case arrayed && storage:
			t.b.Capability(spirv.CapabilityImageCubeArray)
		case arrayed:
			t.b.Capability(spirv.CapabilitySampledCubeArray)
		}
	case spirv.DimBuffer:
		t.miss.add(CodeUnsupportedInterface, "air.texture texture_buffer")
		return
	}
	bool01 := func(x bool) uint32 {
		if x {
			return 1
		}
		return 0
	}
	img := t.b.TypeImage(sampledType, dim, bool01(depth), bool01(arrayed), bool01(ms), sampled, spirv.ImageFormatUnknown)
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassUniformConstant, img), spirv.StorageClassUniformConstant)
	t.b.Name(v, b.ArgName)
	n := base + b.Location
	t.decorateBinding(v, n)
	if b.Access == "write" {
		t.b.Decorate(v, spirv.DecorationNonReadable)
	}
	t.res[arg] = &resource{v: v, typ: img, storage: storage, dim: dim, arrayed: arrayed, depth: depth, ms: ms, cubeFaces: cubeFaces, comp: compTy,
		signedComp: comp == "int" || comp == "short"}
	t.refl.Bindings = append(t.refl.Bindings, Binding{Binding: n, Kind: kind, Metal: fmt.Sprintf("air.texture %d", b.Location),
		Name: b.ArgName, Access: b.Access, TypeName: b.ArgTypeName, Dim: dimNames[dim], Arrayed: arrayed, Multisampled: ms, SampledType: comp})
}

func (t *translator) bindSampler(arg *air.Argument, b air.Binding) {
	if b.Location < 0 || b.Location >= samplerCount {
		t.miss.addf(CodeUnsupportedInterface, "air.sampler index %d", b.Location)
		return
	}
	st := t.b.TypeSampler()
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassUniformConstant, st), spirv.StorageClassUniformConstant)
	t.b.Name(v, b.ArgName)
	n := samplerBase + b.Location
	t.decorateBinding(v, n)
	t.res[arg] = &resource{v: v, typ: st, sampler: true}
	t.refl.Bindings = append(t.refl.Bindings, Binding{Binding: n, Kind: "sampler", Metal: fmt.Sprintf("air.sampler %d", b.Location), Name: b.ArgName})
}

// interpolation decorates a fragment input and names its interpolation.
func (t *translator) interpolation(v spirv.ID, b air.Binding, ty air.Type) string {
	mode := "perspective"
	switch {
	case hasKey(b, "air.flat") || intBits(ty) > 0:
		t.b.Decorate(v, spirv.DecorationFlat)
		mode = "flat"
	case hasKey(b, "air.no_perspective"):
		t.b.Decorate(v, spirv.DecorationNoPerspective)
		mode = "no_perspective"
	}
	if hasKey(b, "air.centroid") {
		t.b.Decorate(v, spirv.DecorationCentroid)
	}
	if hasKey(b, "air.sample") && b.Role == "air.fragment_input" {
		t.b.Capability(spirv.CapabilitySampleRateShading)
		t.b.Decorate(v, spirv.DecorationSample)
	}
	return mode
}

func (t *translator) bindVarying(arg *air.Argument, b air.Binding, loc int) {
	ty := arg.Type()
	if isPointer(ty) {
		t.miss.addf(CodeUnsupportedInterface, "%s of pointer type", b.Role)
		return
	}
	wide := widen(ty)
	st := t.typ(wide)
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassInput, st), spirv.StorageClassInput)
	t.b.Decorate(v, spirv.DecorationLocation, uint32(loc))
	t.iface = append(t.iface, v)
	name := varyingName(b)
	t.b.Name(v, name)
	vr := Varying{Name: name, Role: b.Role, Location: loc, Type: ty.String(), Format: b.ArgTypeName}
	if wide != ty {
		vr.InterfaceType = wide.String()
	}
	if b.Role == "air.fragment_input" {
		vr.Interpolation = t.interpolation(v, b, ty)
	}
	t.refl.Inputs = append(t.refl.Inputs, vr)
	t.vals[arg] = t.resize(t.f.Op(spirv.OpLoad, st, v), wide, ty)
}

// widen is ty with 8- and 16-bit lanes made 32-bit: interface variables
// are 32-bit so that no 16-bit interface storage feature is needed (the
// value is converted at the interface; Vulkan's attribute formats convert).
func widen(ty air.Type) air.Type {
	switch s := air.Scalar(ty).(type) {
	case *air.FloatType:
		if s.Kind == air.Half {
			if v, ok := ty.(*air.VectorType); ok {
				return &air.VectorType{Len: v.Len, Elem: air.FloatTy}
			}
			return air.FloatTy
		}
	case *air.IntType:
		if s.Bits == 8 || s.Bits == 16 {
			return withBits(ty, 32)
		}
	}
	return ty
}

// resize converts v between a program type and its interface type (one is
// widen of the other, so both have the same lane kind): from the interface
// type to the program's when an input is read, the other way when an output
// is written.
func (t *translator) resize(v spirv.ID, from, to air.Type) spirv.ID {
	switch {
	case from == to:
		return v
	case isFloat(from):
		return t.f.Op(spirv.OpFConvert, t.typ(to), v)
	}
	return t.f.Op(spirv.OpUConvert, t.typ(to), v)
}

// builtin describes one built-in input: the SPIR-V built-in, its value type
// (lanes of u32, f32, or bool) and the stage it belongs to.
type builtin struct {
	bi    spirv.BuiltIn
	lanes int
	kind  string // "u32", "f32", "bool"
	stage spirv.ExecutionModel
}

var inputBuiltins = map[string]builtin{
	"air.position":                         {spirv.BuiltInFragCoord, 4, "f32", spirv.ExecutionModelFragment},
	"air.front_facing":                     {spirv.BuiltInFrontFacing, 1, "bool", spirv.ExecutionModelFragment},
	"air.point_coord":                      {spirv.BuiltInPointCoord, 2, "f32", spirv.ExecutionModelFragment},
	"air.sample_id":                        {spirv.BuiltInSampleId, 1, "u32", spirv.ExecutionModelFragment},
	"air.render_target_array_index":        {spirv.BuiltInLayer, 1, "u32", spirv.ExecutionModelFragment},
	"air.viewport_array_index":             {spirv.BuiltInViewportIndex, 1, "u32", spirv.ExecutionModelFragment},
	"air.vertex_id":                        {spirv.BuiltInVertexIndex, 1, "u32", spirv.ExecutionModelVertex},
	"air.instance_id":                      {spirv.BuiltInInstanceIndex, 1, "u32", spirv.ExecutionModelVertex},
	"air.base_vertex":                      {spirv.BuiltInBaseVertex, 1, "u32", spirv.ExecutionModelVertex},
	"air.base_instance":                    {spirv.BuiltInBaseInstance, 1, "u32", spirv.ExecutionModelVertex},
	"air.thread_position_in_grid":          {spirv.BuiltInGlobalInvocationId, 3, "u32", spirv.ExecutionModelGLCompute},
	"air.thread_position_in_threadgroup":   {spirv.BuiltInLocalInvocationId, 3, "u32", spirv.ExecutionModelGLCompute},
	"air.threadgroup_position_in_grid":     {spirv.BuiltInWorkgroupId, 3, "u32", spirv.ExecutionModelGLCompute},
	"air.threadgroups_per_grid":            {spirv.BuiltInNumWorkgroups, 3, "u32", spirv.ExecutionModelGLCompute},
	"air.thread_index_in_threadgroup":      {spirv.BuiltInLocalInvocationIndex, 1, "u32", spirv.ExecutionModelGLCompute},
	"air.threads_per_threadgroup":          {spirv.BuiltInWorkgroupSize, 3, "u32", spirv.ExecutionModelGLCompute},
	"air.threads_per_grid":                 {spirv.BuiltInNumWorkgroups, 3, "u32", spirv.ExecutionModelGLCompute},
	"air.thread_index_in_simdgroup":        {spirv.BuiltInSubgroupLocalInvocationId, 1, "u32", spirv.ExecutionModelGLCompute},
	"air.simdgroup_index_in_threadgroup":   {spirv.BuiltInSubgroupId, 1, "u32", spirv.ExecutionModelGLCompute},
	"air.threads_per_simdgroup":            {spirv.BuiltInSubgroupSize, 1, "u32", spirv.ExecutionModelGLCompute},
	"air.simdgroups_per_threadgroup":       {spirv.BuiltInNumSubgroups, 1, "u32", spirv.ExecutionModelGLCompute},
	"air.dispatch_threads_per_threadgroup": {spirv.BuiltInWorkgroupSize, 3, "u32", spirv.ExecutionModelGLCompute},
}

// laneType is the SPIR-V type of one lane of a built-in's value.
func (t *translator) laneType(bi builtin) spirv.ID {
	switch bi.kind {
	case "f32":
		return t.b.TypeFloat(32)
	case "bool":
		return t.b.TypeBool()
	}
	return t.u32
}

// builtinValue loads (or computes) a built-in input's value as lanes of its kind.
func (t *translator) builtinValue(role string, bi builtin) (spirv.ID, spirv.ID) {
	elem := t.laneType(bi)
	ty := elem
	if bi.lanes > 1 {
		ty = t.b.TypeVector(elem, uint32(bi.lanes))
	}
	if bi.bi == spirv.BuiltInWorkgroupSize {
		return t.workgroupSize, ty
	}
	switch bi.bi {
	case spirv.BuiltInSubgroupLocalInvocationId, spirv.BuiltInSubgroupId, spirv.BuiltInSubgroupSize, spirv.BuiltInNumSubgroups:
		// One variable per built-in, shared with the SIMD-group lowerings (simd.go).
		return t.subgroupBuiltin(bi.bi), ty
	case spirv.BuiltInSampleId:
		t.b.Capability(spirv.CapabilitySampleRateShading)
	case spirv.BuiltInBaseVertex, spirv.BuiltInBaseInstance:
		t.b.Capability(spirv.CapabilityDrawParameters)
	case spirv.BuiltInLayer:
		t.b.Capability(spirv.CapabilityShaderLayer)
	case spirv.BuiltInViewportIndex:
		t.b.Capability(spirv.CapabilityShaderViewportIndex)
	}
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassInput, ty), spirv.StorageClassInput)
	t.b.Decorate(v, spirv.DecorationBuiltIn, uint32(bi.bi))
	if t.model == spirv.ExecutionModelFragment && bi.kind == "u32" {
		t.b.Decorate(v, spirv.DecorationFlat)
	}
	t.iface = append(t.iface, v)
	val := t.f.Op(spirv.OpLoad, ty, v)
	if role == "air.threads_per_grid" {
		val = t.f.Op(spirv.OpIMul, ty, val, t.workgroupSize)
	}
	return val, ty
}

func (t *translator) bindBuiltin(arg *air.Argument, b air.Binding, bi builtin) {
	val, _ := t.builtinValue(b.Role, bi)
	t.refl.Inputs = append(t.refl.Inputs, Varying{Name: varyingName(b), Role: b.Role, Location: -1, BuiltIn: bi.bi.String(), Type: arg.Type().String(), Format: b.ArgTypeName})
	t.vals[arg] = t.adapt(val, bi, arg.Type())
}

// adapt converts a built-in's value to the parameter's LLVM type: fewer
// lanes, narrower or wider integers.
func (t *translator) adapt(val spirv.ID, bi builtin, ty air.Type) spirv.ID {
	n := lanes(ty)
	if n > bi.lanes {
		t.miss.addf(CodeUnsupportedInterface, "built-in %s as %s", bi.bi, ty)
		return t.b.Undef(t.typ(ty))
	}
	if n < bi.lanes {
		elem := t.laneType(bi)
		if n == 1 {
			val = t.f.OpWords(spirv.OpCompositeExtract, elem, uint32(val), 0)
		} else {
			ops := []uint32{uint32(val), uint32(val)}
			for i := 0; i < n; i++ {
				ops = append(ops, uint32(i))
			}
			val = t.f.OpWords(spirv.OpVectorShuffle, t.b.TypeVector(elem, uint32(n)), ops...)
		}
	}
	switch bi.kind {
	case "u32":
		if b := intBits(ty); b != 32 && b != 0 {
			if b == 1 {
				return t.f.Op(spirv.OpINotEqual, t.typ(ty), val, t.intConst(withBits(ty, 32), 0))
			}
			return t.f.Op(spirv.OpUConvert, t.typ(ty), val)
		}
	case "f32":
		if ft, ok := air.Scalar(ty).(*air.FloatType); ok && ft.Kind != air.Float {
			return t.f.Op(spirv.OpFConvert, t.typ(ty), val)
		}
	case "bool":
		if intBits(ty) != 1 {
			t.miss.addf(CodeUnsupportedInterface, "built-in %s as %s", bi.bi, ty)
		}
	}
	return val
}

// withBits is ty (scalar or vector integer) with its lanes resized to bits.
func withBits(ty air.Type, bits int) air.Type {
	if v, ok := ty.(*air.VectorType); ok {
		return &air.VectorType{Len: v.Len, Elem: &air.IntType{Bits: bits}}
	}
	return &air.IntType{Bits: bits}
}

// declareWorkgroupSize declares the WorkgroupSize built-in as a
// spec-constant composite (spec ids 0, 1, 2; default 64x1x1): Metal picks the
// threadgroup size at dispatch, Vulkan at pipeline creation.
func (t *translator) declareWorkgroupSize() {
	x := t.b.SpecConstant(t.u32, 64)
	y := t.b.SpecConstant(t.u32, 1)
	z := t.b.SpecConstant(t.u32, 1)
	for i, id := range []spirv.ID{x, y, z} {
		t.b.Decorate(id, spirv.DecorationSpecId, uint32(i))
	}
	t.workgroupSize = t.b.SpecConstantComposite(t.b.TypeVector(t.u32, 3), x, y, z)
	t.b.Decorate(t.workgroupSize, spirv.DecorationBuiltIn, uint32(spirv.BuiltInWorkgroupSize))
	t.refl.Workgroup = &Workgroup{Policy: "spec-constant", SpecIDs: [3]int{0, 1, 2}, Default: [3]uint32{64, 1, 1}}
}

var outputBuiltins = map[string]struct {
	bi    spirv.BuiltIn
	stage spirv.ExecutionModel
}{
	"air.position":                  {spirv.BuiltInPosition, spirv.ExecutionModelVertex},
	"air.render_target_array_index": {spirv.BuiltInLayer, spirv.ExecutionModelVertex},
	"air.viewport_array_index":      {spirv.BuiltInViewportIndex, spirv.ExecutionModelVertex},
	"air.point_size":                {spirv.BuiltInPointSize, spirv.ExecutionModelVertex},
	"air.depth":                     {spirv.BuiltInFragDepth, spirv.ExecutionModelFragment},
	"air.sample_mask":               {spirv.BuiltInSampleMask, spirv.ExecutionModelFragment},
	"air.clip_distance":             {spirv.BuiltInClipDistance, spirv.ExecutionModelVertex},
	"air.stencil":                   {spirv.BuiltInFragStencilRefEXT, spirv.ExecutionModelFragment},
}

// bindOutputs declares an Output variable for every returned field.
func (t *translator) bindOutputs() {
	ret := t.ep.Function.Sig.Ret
	if _, void := ret.(*air.VoidType); void {
		if len(t.ep.Outputs) > 0 {
			t.miss.add(CodeUnsupportedInterface, "outputs of a void function")
		}
		return
	}
	st, isStruct := ret.(*air.StructType)
	location := 0
	for i, b := range t.ep.Outputs {
		// [[invariant]] on the position: the Invariant decoration, below.
		invariant := false
		if k := slices.Index(b.Unknown, "air.invariant"); k >= 0 && b.Role == "air.position" {
			invariant = true
			b.Unknown = slices.Delete(slices.Clone(b.Unknown), k, k+1)
		}
		t.checkKeys(b)
		field := -1
		ty := ret
		if isStruct {
			field = b.Param
			if field < 0 || field >= len(st.Fields) {
				field = i
			}
			if field >= len(st.Fields) {
				t.miss.addf(CodeUnsupportedInterface, "%s beyond the returned struct", b.Role)
				continue
			}
			ty = st.Fields[field]
		} else if i > 0 {
			t.miss.add(CodeUnsupportedInterface, "several outputs of a scalar return")
			continue
		}
		if isPointer(ty) {
			t.miss.add(CodeUnsupportedInterface, b.Role+" of pointer type")
			continue
		}
		// ClipDistance and SampleMask are arrays in Vulkan; Metal may return a scalar.
		wrap := false
		if b.Role == "air.clip_distance" || b.Role == "air.sample_mask" {
			if _, arr := ty.(*air.ArrayType); !arr {
				ty, wrap = &air.ArrayType{Len: 1, Elem: ty}, true
			}
		}
		vt := t.typ(widen(ty))
		v := t.b.Variable(t.b.TypePointer(spirv.StorageClassOutput, vt), spirv.StorageClassOutput)
		t.iface = append(t.iface, v)
		vr := Varying{Name: varyingName(b), Role: b.Role, Location: -1, Type: ty.String(), Format: b.ArgTypeName}
		if w := widen(ty); w != ty {
			vr.InterfaceType = w.String()
		}
		switch {
		case b.Role == "air.render_target" && t.model == spirv.ExecutionModelFragment:
			loc := b.Location
			if loc < 0 || loc >= 8 {
				t.miss.addf(CodeUnsupportedInterface, "air.render_target %d", loc)
				continue
			}
			t.b.Decorate(v, spirv.DecorationLocation, uint32(loc))
			if idx, ok := key(b, "air.render_target"); ok && len(idx) > 1 {
				if mv, ok := idx[1].(*air.MDValue); ok {
					if c, ok := mv.Value.(*air.ConstInt); ok && c.Bits != 0 {
						t.b.Decorate(v, spirv.DecorationIndex, uint32(c.Bits))
					}
				}
			}
			vr.Location = loc
		case b.Role == "air.vertex_output" && t.model == spirv.ExecutionModelVertex:
			t.b.Decorate(v, spirv.DecorationLocation, uint32(location))
			if intBits(ty) > 0 || hasKey(b, "air.flat") {
				vr.Interpolation = "flat"
			}
			vr.Location = location
			location++
		default:
			ob, ok := outputBuiltins[b.Role]
			if !ok || ob.stage != t.model {
				t.miss.add(CodeUnsupportedInterface, b.Role)
				continue
			}
			t.b.Decorate(v, spirv.DecorationBuiltIn, uint32(ob.bi))
			switch ob.bi {
			case spirv.BuiltInLayer:
				t.b.Capability(spirv.CapabilityShaderLayer)
			case spirv.BuiltInViewportIndex:
				t.b.Capability(spirv.CapabilityShaderViewportIndex)
			case spirv.BuiltInClipDistance:
				t.b.Capability(spirv.CapabilityClipDistance)
			case spirv.BuiltInFragStencilRefEXT:
				// [[stencil]]: the fragment's stencil reference value
				// (VK_EXT_shader_stencil_export), a 32-bit integer.
				if intBits(ty) != 32 || lanes(ty) != 1 {
					t.miss.addf(CodeUnsupportedInterface, "air.stencil of %s", ty)
					continue
				}
				t.b.Extension("SPV_EXT_shader_stencil_export")
				t.b.Capability(spirv.CapabilityStencilExportEXT)
				t.b.ExecutionMode(t.f.ID, spirv.ExecutionModeStencilRefReplacingEXT)
			}
			if ob.bi == spirv.BuiltInFragDepth {
				t.b.ExecutionMode(t.f.ID, spirv.ExecutionModeDepthReplacing)
			}
			vr.BuiltIn = ob.bi.String()
		}
		if invariant {
			t.b.Decorate(v, spirv.DecorationInvariant)
		}
		t.b.Name(v, vr.Name)
		t.refl.Outputs = append(t.refl.Outputs, vr)
		t.outputs = append(t.outputs, output{v: v, field: field, typ: ty, wrap: wrap})
	}
}

// ret stores the returned value into the outputs and returns.
func (t *translator) ret(in *air.Ret) {
	if in.X != nil && len(t.outputs) > 0 {
		val := t.value(in.X)
		for _, o := range t.outputs {
			x := val
			ty := o.typ
			if o.wrap {
				ty = o.typ.(*air.ArrayType).Elem
			}
			if o.field >= 0 {
				x = t.f.OpWords(spirv.OpCompositeExtract, t.typ(ty), uint32(val), uint32(o.field))
			}
			if o.wrap {
				x = t.f.Op(spirv.OpCompositeConstruct, t.typ(o.typ), x)
			}
			x = t.resize(x, o.typ, widen(o.typ))
			t.f.Emit(spirv.OpStore, uint32(o.v), uint32(x))
		}
	}
	t.traceCount()
	t.f.Emit(spirv.OpReturn)
}

// retValue returns from a called function.
func (t *translator) retValue(in *air.Ret) {
	if in.X == nil {
		t.f.Emit(spirv.OpReturn)
		return
	}
	t.f.Emit(spirv.OpReturnValue, uint32(t.value(in.X)))
}

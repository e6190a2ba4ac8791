package translate

import (
	"fmt"
	"strings"

	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// Programmable blending: a fragment function parameter with air.render_target n
// ([[color(n)]] on an input) reads colour attachment n's current value at the
// fragment's pixel, converted to the parameter's type as Metal converts a render
// target's value. It is lowered to a Vulkan input attachment (ABI.md, "Programmable
// blending"): an OpTypeImage SubpassData of the value's numeric kind, decorated
// InputAttachmentIndex n, at binding inputAttachmentBase + n, read with OpImageRead
// at (0, 0) (the fragment's own pixel).

const (
	// inputAttachmentBase is the binding of colour attachment 0 read as an input.
	inputAttachmentBase = 192
	// colorAttachmentCount is how many colour attachments Metal and the ABI have.
	colorAttachmentCount = 8
)

// InputAttachment is a colour attachment a fragment function reads (programmable
// blending): the execution stage must bind attachment Index as an input attachment too.
type InputAttachment struct {
	// Index is the colour attachment (air.render_target n, [[color(n)]]) and the
	// SPIR-V InputAttachmentIndex.
	Index int `json:"index"`
	// Binding is the descriptor binding (set 0) of its INPUT_ATTACHMENT descriptor: 192 + Index.
	Binding int `json:"binding"`
	// Name is the parameter's name (air.arg_name).
	Name string `json:"name,omitempty"`
	// Type is the parameter's LLVM type (<4 x half>, i32 ...); Format its Metal type (half4, uint).
	Type   string `json:"type"`
	Format string `json:"format,omitempty"`
	// SampledType is the subpass image's component type, "float", "int" or "uint": the
	// attachment's format must have that numeric type (Vulkan leaves the read undefined
	// otherwise).
	SampledType string `json:"sampled_type"`
}

// renderTargetKind is the numeric kind a render target value of LLVM type ty and Metal
// type name typeName is read as: "float" (float, half), "int" or "uint" (8-, 16- and
// 32-bit integers; unsigned when the Metal type says so). ok is false for other types
// and for more than four lanes.
func renderTargetKind(ty air.Type, typeName string) (kind string, ok bool) {
	if n := lanes(ty); n < 1 || n > 4 {
		return "", false
	}
	switch s := air.Scalar(ty).(type) {
	case *air.FloatType:
		if s.Kind == air.Float || s.Kind == air.Half {
			return "float", true
		}
	case *air.IntType:
		switch s.Bits {
		case 8, 16, 32:
			if strings.HasPrefix(typeName, "u") {
				return "uint", true
			}
			return "int", true
		}
	}
	return "", false
}

// bindRenderTargetInput binds a fragment parameter read from colour attachment
// b.Location: it declares the input attachment and reads it once, in the entry block.
func (t *translator) bindRenderTargetInput(arg *air.Argument, b air.Binding) {
	if t.model != spirv.ExecutionModelFragment {
		t.miss.add(CodeUnsupportedInterface, "air.render_target input outside a fragment function")
		return
	}
	n := b.Location
	if n < 0 || n >= colorAttachmentCount {
		t.miss.addf(CodeUnsupportedInterface, "air.render_target input %d", n)
		return
	}
	if b.LocationCount > 0 {
		// [[color(n)]] on an input has no second index; AIR writes none.
		t.miss.addf(CodeUnsupportedInterface, "air.render_target input %d index %d", n, b.LocationCount)
		return
	}
	ty := arg.Type()
	kind, ok := renderTargetKind(ty, b.ArgTypeName)
	if !ok {
		t.miss.addf(CodeUnsupportedInterface, "air.render_target input of %s", ty)
		return
	}
	for _, ia := range t.refl.InputAttachments {
		if ia.Index == n {
			t.miss.addf(CodeUnsupportedInterface, "air.render_target input %d read by two parameters", n)
			return
		}
	}
	var comp spirv.ID
	switch kind {
	case "float":
		comp = t.b.TypeFloat(32)
	case "int":
		comp = t.b.TypeInt(32, true)
	default:
		comp = t.u32
	}
	t.b.Capability(spirv.CapabilityInputAttachment)
	img := t.b.TypeImage(comp, spirv.DimSubpassData, 0, 0, 0, 2, spirv.ImageFormatUnknown)
	v := t.b.Variable(t.b.TypePointer(spirv.StorageClassUniformConstant, img), spirv.StorageClassUniformConstant)
	t.b.Name(v, b.ArgName)
	t.b.Decorate(v, spirv.DecorationInputAttachmentIndex, uint32(n))
	binding := inputAttachmentBase + n
	t.decorateBinding(v, binding)

	i32 := t.b.TypeInt(32, true)
	zero := t.b.Constant(i32, 0)
	origin := t.b.ConstantComposite(t.b.TypeVector(i32, 2), zero, zero)
	texel := t.f.Op(spirv.OpImageRead, t.b.TypeVector(comp, 4), t.f.Op(spirv.OpLoad, img, v), origin)
	t.vals[arg] = t.renderTargetValue(texel, comp, kind, ty)

	t.refl.Bindings = append(t.refl.Bindings, Binding{Binding: binding, Kind: "input-attachment", Metal: fmt.Sprintf("air.render_target %d", n),
		Name: b.ArgName, Access: "read", TypeName: b.ArgTypeName, Dim: "SubpassData", SampledType: kind})
	t.refl.InputAttachments = append(t.refl.InputAttachments, InputAttachment{Index: n, Binding: binding, Name: b.ArgName,
		Type: ty.String(), Format: b.ArgTypeName, SampledType: kind})
}

// renderTargetValue converts the four-component texel an input attachment read gives
// (of component type comp, numeric kind kind) to the parameter's type ty: its first
// lanes(ty) components, a float rounded to half, an integer truncated to 8 or 16 bits.
func (t *translator) renderTargetValue(texel, comp spirv.ID, kind string, ty air.Type) spirv.ID {
	v := texel
	n := lanes(ty)
	if n == 1 {
		v = t.f.OpWords(spirv.OpCompositeExtract, comp, uint32(v), 0)
	} else if n < 4 {
		ops := []uint32{uint32(v), uint32(v)}
		for i := range n {
			ops = append(ops, uint32(i))
		}
		v = t.f.OpWords(spirv.OpVectorShuffle, t.b.TypeVector(comp, uint32(n)), ops...)
	}
	if kind == "float" {
		if scalarBits(air.Scalar(ty)) != 32 {
			v = t.f.Op(spirv.OpFConvert, t.typ(ty), v)
		}
		return v
	}
	wide := withBits(ty, 32)
	if kind == "int" {
		v = t.f.Op(spirv.OpBitcast, t.typ(wide), v) // the program's integers are unsigned types
	}
	if intBits(ty) != 32 {
		v = t.f.Op(spirv.OpUConvert, t.typ(ty), v)
	}
	return v
}

package air

// Stage is an entry point's kind, named after its named metadata (!air.vertex ...).
type Stage string

// The stages AIR names. Others (air.mesh, air.object, air.intersection)
// keep their metadata name without the "air." prefix.
const (
	Vertex   Stage = "vertex"
	Fragment Stage = "fragment"
	Kernel   Stage = "kernel"
	Visible  Stage = "visible"
)

// EntryPoint is one entry in a stage's named metadata:
// !{ptr @fn, !{outputs...}, !{inputs...}} (kernels have no outputs node in
// older AIR; then Outputs is empty).
type EntryPoint struct {
	Stage    Stage
	Function *Function
	// Outputs are the fields of the returned struct (vertex/fragment), in order.
	Outputs []Binding
	// Inputs are the function's parameters that carry AIR metadata.
	Inputs []Binding
	// Extra holds operands of the entry node after the inputs, kept raw.
	Extra []Metadata
}

// Binding is the decoded metadata of one parameter (input) or one returned
// field (output): a flat list of !"air.<key>" strings, each followed by its
// values.
type Binding struct {
	// Param is the parameter number for inputs and the field number for outputs.
	Param int
	// Role is the first key: "air.buffer", "air.texture", "air.sampler",
	// "air.position", "air.render_target", "air.vertex_input" (stage_in),
	// "air.thread_position_in_grid", ...
	Role string
	// Location is the first value of air.location_index (or of
	// air.render_target), -1 when absent; LocationCount the second.
	Location, LocationCount int
	// AddrSpace is air.address_space's value, -1 when absent.
	AddrSpace int
	// Access is "read", "write", "read_write", "sample" or "" (from air.read ...).
	Access string
	// ArgTypeName, ArgName, ArgTypeSize, ArgTypeAlign, BufferSize come from
	// the air.arg_type_name, air.arg_name, air.arg_type_size,
	// air.arg_type_align_size, air.buffer_size keys (sizes -1 when absent).
	ArgTypeName, ArgName      string
	ArgTypeSize, ArgTypeAlign int64
	BufferSize                int64
	// Struct is air.struct_type_info, decoded.
	Struct []StructField
	// Keys is every key in order with its values, the known ones included.
	Keys []Key
	// Unknown lists the keys this decoder does not interpret.
	Unknown []string
	// Type is the parameter's LLVM type (inputs only; nil for outputs).
	Type Type
	// FunctionConstant is the value of a leading air.function_constant key
	// (the input exists only when that function constant is true); nil when absent.
	FunctionConstant []Metadata
}

// Key is one !"air.<key>" with the values that follow it.
type Key struct {
	Name   string
	Values []Metadata
}

// StructField is one field of air.struct_type_info: offset, size, array
// length, type name and field name (plus any extra operands, raw).
type StructField struct {
	Offset, Size, Count int64
	TypeName, Name      string
	Extra               []Metadata
}

package cpuref

import (
	"fmt"
	"github.com/airpipe/airpipe/compiler/air"
	"sort"
	"strings"
)

// Kernel is a compute entry point's interface as the reference reads it from
// LLVM's text of the module (never from airpipe's reader).
type Kernel struct {
	// Name is the entry point's function name.
	Name string
	// Buffers are the air.buffer arguments, by Metal buffer index.
	Buffers []Buffer
	// Params are the function's parameters in order.
	Params []Param
	// DenormsDisabled is the module's air.compile.denorms_disable: the
	// reference then flushes denormals to zero, as Metal does.
	DenormsDisabled bool
	// NoNaNsOrInfs is set when an instruction of the module carries the
	// fast, nnan or ninf flag (Metal's fast math): the compiler may assume
	// no NaN or infinity arises there, so an output the reference computes
	// as a NaN or an infinity is not fixed by the AIR on these inputs.
	NoNaNsOrInfs bool `json:",omitempty"`
	// Outputs are a vertex function's outputs, in order (their slots in OutputBuffer).
	Outputs []VertexOutput `json:",omitempty"`
	// Stage is air.Fragment or air.Vertex, "" for a compute kernel.
	Stage air.Stage `json:",omitempty"`
	// Return is a fragment function's LLVM return type.
	Return string `json:",omitempty"`
	// Targets are a fragment function's render targets, in output order.
	Targets []RenderTarget `json:",omitempty"`
	// Inputs are a fragment function's varyings with their constants.
	Inputs []Input `json:",omitempty"`
	// Destinations are the colour attachments a fragment function reads (blend.go).
	Destinations []Destination `json:",omitempty"`
	// WritesDepth is set when a fragment function returns air.depth: each pixel's depth is
	// stored as a float32 word in harness buffer DepthBuffer.
	WritesDepth bool `json:",omitempty"`
	// DepthField is the depth output's field in the returned struct, -1 when the function
	// returns it alone (meaningful only with WritesDepth).
	DepthField int `json:",omitempty"`
	// WritesStencil is set when a fragment function returns air.stencil (a uint): each
	// pixel's stencil reference is stored as a 32-bit word in harness buffer StencilBuffer.
	WritesStencil bool `json:",omitempty"`
	// StencilField is the stencil output's field in the returned struct, -1 when the
	// function returns it alone (meaningful only with WritesStencil).
	StencilField int `json:",omitempty"`
	// Textures are the air.texture arguments, by Metal texture index: every texel of one
	// with sample or read access holds its Texel (TexelWords); one with write or read_write
	// access (Texture.Writable) is harness buffer StorageTextureBase+Index, starting as Texel.
	Textures []Texture `json:",omitempty"`
	// Samplers are the Metal indices of the air.sampler arguments, in order.
	Samplers []int `json:",omitempty"`
	// ConstexprSamplers are the samplers the shader declares itself (constexpr), each
	// with its decoded state word (sampler.go), ordered by word.
	ConstexprSamplers []ConstexprSampler `json:",omitempty"`
	// FunctionConstants are the module's Metal function constants
	// (!air.function_constants), by index, each with the value the reference
	// gives it (FunctionConstantWord); the device specializes with the same words.
	FunctionConstants []FunctionConstant `json:",omitempty"`
	// FunctionConstantSearch names the assignment the function-constant
	// search (fcsearch.go) chose when the contract's values put two present
	// arguments on one slot; "" when the contract's values stand.
	FunctionConstantSearch string `json:",omitempty"`
	// Conditional are the arguments and outputs that exist only under a
	// function-constant predicate, with its value (conditional.go); those
	// whose predicate is false are not among Buffers, Textures, Samplers,
	// Targets or Outputs, and their parameters have role absentRole.
	Conditional []ConditionalArgument `json:",omitempty"`
}

// Buffer is one air.buffer argument.
type Buffer struct {
	// Index is the Metal buffer index (air.location_index).
	Index int
	// StaticSize is air.buffer_size when AIR states it, else 0.
	StaticSize int64
	// Access is "read", "write" or "read_write".
	Access string
	// AddrSpace is 1 (device) or 2 (constant).
	AddrSpace int
	// Name is air.arg_name.
	Name string
	// TypeName is the Metal element type (air.arg_type_name): "float",
	// "half4", "packed_float3", "bfloat", a struct's name.
	TypeName string `json:",omitempty"`
	// ElementSize and Members describe a struct element
	// (air.arg_type_size, air.struct_type_info; members.go).
	ElementSize int      `json:",omitempty"`
	Members     []Member `json:",omitempty"`
}

// Dimensions is the largest number of components among the kernel's
// grid-sized built-ins (thread_position_in_grid, threadgroup_position_in_grid,
// threadgroups_per_grid, threads_per_grid): 1 for a kernel written for a
// line of threads (or one that takes no position), 2 or 3.
func (k *Kernel) Dimensions() int {
	d := 1
	for _, p := range k.Params {
		switch p.Role {
		case "air.thread_position_in_grid", "air.threadgroup_position_in_grid", "air.threadgroups_per_grid", "air.threads_per_grid":
			if strings.HasPrefix(p.Type, "<") {
				var n int
				fmt.Sscanf(vecLen(p.Type), "%d", &n)
				d = max(d, n)
			}
		}
	}
	return d
}

// Writable reports whether the kernel may write the buffer.
func (b Buffer) Writable() bool { return b.AddrSpace != 2 && b.Access != "read" }

// Param is one parameter of the kernel: its LLVM type and its AIR role.
type Param struct {
	Type string
	// Role is the AIR role ("air.buffer", "air.thread_position_in_grid", ...).
	Role string
	// Buffer is the Metal buffer index when Role is air.buffer.
	Buffer int
	// Texture is the Metal texture or sampler index when Role is air.texture or air.sampler.
	Texture int `json:",omitempty"`
	// Storage is set for a writable texture (write or read_write access): the wrapper passes
	// it harness buffer StorageTextureBase+Texture.
	Storage bool `json:",omitempty"`
}

// builtinSlot is where each supported built-in sits in the ids array the
// harness passes to every thread (3 words each, x y z).
var builtinSlot = map[string]int{
	"air.thread_position_in_grid":        0,
	"air.thread_position_in_threadgroup": 3,
	"air.threadgroup_position_in_grid":   6,
	"air.threadgroups_per_grid":          9,
	"air.threads_per_threadgroup":        12,
	"air.threads_per_grid":               15,
	"air.thread_index_in_threadgroup":    18,
}

// inspect reads the entry point's interface — of a kernel, fragment or
// vertex function alike — with the module's function constants. Things the
// reference cannot run come back as a *NotJudgeableError.
func inspect(t *textModule, entry string) (*Kernel, error) {
	stage, node, err := findEntry(t, entry)
	if err != nil {
		return nil, err
	}
	var conds []ConditionalArgument
	search := ""
	if stage == "air.kernel" || stage == "air.fragment" || stage == "air.vertex" {
		if conds, search, err = resolveConditionalSearch(t, entry, node); err != nil { // conditional.go, fcsearch.go
			return nil, err
		}
	}
	k, err := inspectStage(t, entry, stage, node)
	if err != nil {
		return nil, err
	}
	k.Conditional, k.FunctionConstantSearch = conds, search
	attachMembers(t, k, node) // members.go
	fcs, err := readFunctionConstants(t)
	if err != nil {
		return nil, err
	}
	for _, fc := range fcs {
		k.FunctionConstants = append(k.FunctionConstants, fc.FunctionConstant)
	}
	return k, nil
}

// inspectStage reads the interface of an entry point of the given stage.
func inspectStage(t *textModule, entry, stage string, node []string) (*Kernel, error) {
	switch stage {
	case "air.fragment":
		return inspectFragment(t, entry, node)
	case "air.vertex":
		return inspectVertex(t, entry, node)
	}
	if stage != "air.kernel" {
		return nil, notJudgeable(KindNotKernel, strings.TrimPrefix(stage, "air."), "a %s function: the reference runs compute kernels and fragment functions only", strings.TrimPrefix(stage, "air."))
	}
	k, err := newKernel(t, entry, "", node)
	if err != nil {
		return nil, err
	}
	err = k.bindArguments(t, entry, node, func(p *Param, _ int, role string, _ []string) error {
		switch {
		case simdRoles[role] > 0:
			if !builtinType(p.Type) || strings.HasPrefix(p.Type, "<") {
				return notJudgeable(KindArgument, role+" "+p.Type, "built-in %s of type %s, which the reference cannot supply", role, p.Type)
			}
			return nil // simd.go: from Options.SIMDWidth
		case strings.Contains(role, "simdgroup") || strings.Contains(role, "quadgroup"):
			return notJudgeable(KindSIMDGroup, role, "a SIMD-group or quad-group value the reference does not give")
		case role == "air.threadgroup" || strings.HasPrefix(p.Type, "ptr addrspace(3)"):
			return notJudgeable(KindThreadgroupMemory, role, "threadgroup memory: its sharing between threads is not imitated by a serial CPU run")
		}
		if _, ok := builtinSlot[role]; !ok {
			return notJudgeable(KindArgument, role, "an argument of role %s, which the reference cannot supply", role)
		}
		if !builtinType(p.Type) {
			return notJudgeable(KindArgument, role+" "+p.Type, "built-in %s of type %s, which the reference cannot supply", role, p.Type)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(k.Buffers, func(i, j int) bool { return k.Buffers[i].Index < k.Buffers[j].Index })
	return k, nil
}

// newKernel starts the Kernel of entry, an entry point of the given stage (air.Fragment,
// air.Vertex, "" for a compute kernel) whose metadata node is node: its parameters' types, its
// return type (fragment and vertex functions) and the module's denormal mode.
func newKernel(t *textModule, entry string, stage air.Stage, node []string) (*Kernel, error) {
	fn, err := t.defined(entry)
	if err != nil {
		return nil, err
	}
	if len(node) < 3 {
		return nil, fmt.Errorf("cpuref: entry node of @%s has %d operands, want 3", entry, len(node))
	}
	k := &Kernel{Name: entry, Stage: stage}
	if stage != "" {
		k.Return = defineReturnType(t.lines[fn.Line])
	}
	for _, op := range t.named["air.compile_options"] {
		if s, _ := mdString(first(t.md[op])); s == "air.compile.denorms_disable" {
			k.DenormsDisabled = true
		}
	}
	k.NoNaNsOrInfs = assumesFinite(t)
	k.Params = make([]Param, len(fn.Params))
	for i, ty := range fn.Params {
		k.Params[i] = Param{Type: ty}
	}
	return k, nil
}

// bindArguments reads the argument nodes of entry (node[2]) into k.Params. It records
// buffers, textures and samplers itself and hands every other role to other, which refuses
// what the stage cannot supply; a parameter no node describes is not judgeable.
func (k *Kernel) bindArguments(t *textModule, entry string, node []string, other func(p *Param, n int, role string, arg []string) error) error {
	seen := map[int]bool{}
	for _, ref := range t.md[node[2]] {
		arg := t.md[ref]
		p, n, role, err := k.argumentOf(arg, ref, entry, seen)
		if err != nil {
			return err
		}
		switch role {
		case absentRole: // conditional.go: its predicate is false
		case "air.buffer":
			err = k.addBuffer(p, n, arg, entry)
		case "air.texture", "air.sampler":
			err = k.addResource(role, p, n, arg, entry)
		default:
			err = other(p, n, role, arg)
		}
		if err != nil {
			return err
		}
	}
	for i, p := range k.Params {
		if !seen[i] {
			return notJudgeable(KindArgument, "unannotated "+p.Type, "parameter %d (%s) has no AIR role", i, p.Type)
		}
	}
	return nil
}

// integerBuiltin checks a built-in argument of role that the draw gives as one integer on
// every vertex or pixel (an id, a layer, a viewport, a sample): it is not judgeable unless
// its type ty is i32 or i16.
func integerBuiltin(role, ty string) error {
	if ty != "i32" && ty != "i16" {
		return notJudgeable(KindArgument, role+" "+ty, "%s of type %s", role, ty)
	}
	return nil
}

// unsuppliedArgument is the refusal of a stage's (fragment's, vertex's) argument of a role
// the reference cannot supply.
func unsuppliedArgument(stage, role string) error {
	return notJudgeable(KindArgument, role, "a %s argument of role %s, which the reference cannot supply", stage, role)
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// findEntry finds the named metadata entry (!air.kernel, !air.vertex, ...)
// whose node names @entry, and returns the stage and the node's operands.
func findEntry(t *textModule, entry string) (string, []string, error) {
	names := make([]string, 0, len(t.named))
	for n := range t.named {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, stage := range names {
		if !strings.HasPrefix(stage, "air.") {
			continue
		}
		for _, ref := range t.named[stage] {
			node := t.md[ref]
			if len(node) == 0 {
				continue
			}
			fn := strings.TrimPrefix(node[0], "ptr ")
			if fn == "@"+entry || fn == `@"`+entry+`"` {
				return stage, node, nil
			}
		}
	}
	return "", nil, fmt.Errorf("cpuref: no AIR entry point names @%s", entry)
}

// bufferOf decodes an air.buffer argument's keys.
func bufferOf(keys []string, ty string) (Buffer, error) {
	b := Buffer{Index: -1, Access: "read_write", AddrSpace: 1}
	if strings.HasPrefix(ty, "ptr addrspace(2)") {
		b.AddrSpace = 2
	}
	if !strings.HasPrefix(ty, "ptr") {
		return b, fmt.Errorf("air.buffer of type %s", ty)
	}
	for i := 0; i < len(keys); i++ {
		k, ok := mdString(keys[i])
		if !ok {
			continue
		}
		next := func() (int64, bool) {
			if i+1 < len(keys) {
				return mdInt(keys[i+1])
			}
			return 0, false
		}
		switch k {
		case "air.location_index":
			if v, ok := next(); ok {
				b.Index = int(v)
			}
		case "air.buffer_size":
			if v, ok := next(); ok {
				b.StaticSize = v
			}
		case "air.address_space":
			if v, ok := next(); ok {
				b.AddrSpace = int(v)
			}
		case "air.read":
			b.Access = "read"
		case "air.write":
			b.Access = "write"
		case "air.read_write":
			b.Access = "read_write"
		case "air.arg_name":
			if i+1 < len(keys) {
				b.Name, _ = mdString(keys[i+1])
			}
		case "air.arg_type_name":
			if i+1 < len(keys) {
				b.TypeName, _ = mdString(keys[i+1])
			}
		}
	}
	switch {
	case b.Index < 0 || b.Index > 30:
		return b, fmt.Errorf("air.buffer with location index %d (want 0..30)", b.Index)
	case b.StaticSize < 0 || b.StaticSize > MaxBufferSize:
		return b, fmt.Errorf("buffer %d: air.buffer_size %d out of range", b.Index, b.StaticSize)
	}
	return b, nil
}

// builtinType reports whether the reference can build a built-in of this
// LLVM type from its 32-bit ids: i32, i16 and vectors of 2 or 3 of them.
func builtinType(ty string) bool {
	switch ty {
	case "i32", "i16", "<2 x i32>", "<3 x i32>", "<2 x i16>", "<3 x i16>":
		return true
	}
	return false
}

// argumentOf decodes one argument node of entry's metadata: the parameter
// it describes (recorded in seen) and its role.
func (k *Kernel) argumentOf(arg []string, ref, entry string, seen map[int]bool) (*Param, int, string, error) {
	if len(arg) < 2 {
		return nil, 0, "", fmt.Errorf("cpuref: argument node %s of @%s is too short", ref, entry)
	}
	n, ok := mdInt(arg[0])
	if !ok || n < 0 || int(n) >= len(k.Params) {
		return nil, 0, "", fmt.Errorf("cpuref: argument node %s of @%s names parameter %q of %d", ref, entry, arg[0], len(k.Params))
	}
	role, _ := mdString(arg[1])
	p := &k.Params[n]
	p.Role = role
	seen[int(n)] = true
	return p, int(n), role, nil
}

// addBuffer records an air.buffer parameter, refusing two parameters on
// one buffer index.
func (k *Kernel) addBuffer(p *Param, n int, arg []string, entry string) error {
	b, err := bufferOf(arg[2:], p.Type)
	if err != nil {
		return fmt.Errorf("cpuref: @%s parameter %d: %w", entry, n, err)
	}
	for _, o := range k.Buffers {
		if o.Index == b.Index {
			return fmt.Errorf("cpuref: @%s: two parameters are buffer %d", entry, b.Index)
		}
	}
	p.Buffer = b.Index
	k.Buffers = append(k.Buffers, b)
	return nil
}

// assumesFinite reports whether an instruction of the module carries a
// fast-math flag that lets the compiler assume finite, non-NaN values
// (fast, nnan, ninf): LLVM makes such an instruction's result poison when an
// operand or the result is a NaN or an infinity.
func assumesFinite(t *textModule) bool {
	for _, l := range t.lines {
		if !strings.HasPrefix(l, "  ") {
			continue
		}
		for _, flag := range []string{" fast ", " nnan ", " ninf "} {
			if strings.Contains(l, flag) {
				return true
			}
		}
	}
	return false
}

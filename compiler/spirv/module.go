package spirv

import (
	"strconv"
)

// ID is a SPIR-V result id. Zero is never a valid id.
type ID uint32

// Instruction is one SPIR-V instruction: its opcode and every operand word
// after the opcode word (result type and result id included, in grammar order).
type Instruction struct {
	Op       Op
	Operands []uint32
}

// Module is a SPIR-V module under construction. Types, constants and
// undefined values are deduplicated by their operands (and, for decorated
// types, by their decorations); global variables and functions are not.
// The zero value is not usable; call NewModule.
type Module struct {
	bound        uint32
	capabilities []Capability
	capSet       map[Capability]bool
	extensions   []string
	extSet       map[string]bool
	extImports   []Instruction
	glsl         ID
	addressing   AddressingModel
	memory       MemoryModel
	entryPoints  []Instruction
	execModes    []Instruction
	debug        []Instruction
	annotations  []Instruction
	globals      []Instruction
	dedup        map[string]ID
	dedupKey     []byte // global's scratch for building a key
	functions    []*Function
}

// NewModule returns an empty module using the given addressing and memory models.
func NewModule(addressing AddressingModel, memory MemoryModel) *Module {
	return &Module{
		bound:      1,
		capSet:     map[Capability]bool{},
		extSet:     map[string]bool{},
		dedup:      map[string]ID{},
		addressing: addressing,
		memory:     memory,
	}
}

// ID allocates a fresh result id.
func (m *Module) ID() ID {
	id := ID(m.bound)
	m.bound++
	return id
}

// Capability declares a capability once.
func (m *Module) Capability(c Capability) {
	if !m.capSet[c] {
		m.capSet[c] = true
		m.capabilities = append(m.capabilities, c)
	}
}

// HasCapability reports whether c was declared.
func (m *Module) HasCapability(c Capability) bool { return m.capSet[c] }

// Extension declares an extension once.
func (m *Module) Extension(name string) {
	if !m.extSet[name] {
		m.extSet[name] = true
		m.extensions = append(m.extensions, name)
	}
}

// GLSL returns the id of the GLSL.std.450 extended instruction set import.
func (m *Module) GLSL() ID {
	if m.glsl == 0 {
		m.glsl = m.ID()
		m.extImports = append(m.extImports, Instruction{OpExtInstImport, append([]uint32{uint32(m.glsl)}, StringWords("GLSL.std.450")...)})
	}
	return m.glsl
}

// EntryPoint declares fn as an entry point with the given interface variables.
func (m *Module) EntryPoint(model ExecutionModel, fn ID, name string, iface []ID) {
	ops := []uint32{uint32(model), uint32(fn)}
	ops = append(ops, StringWords(name)...)
	for _, id := range iface {
		ops = append(ops, uint32(id))
	}
	m.entryPoints = append(m.entryPoints, Instruction{OpEntryPoint, ops})
}

// ExecutionMode adds an execution mode with literal operands to fn.
func (m *Module) ExecutionMode(fn ID, mode ExecutionMode, literals ...uint32) {
	m.execModes = append(m.execModes, Instruction{OpExecutionMode, append([]uint32{uint32(fn), uint32(mode)}, literals...)})
}

// Name attaches a debug name to id.
func (m *Module) Name(id ID, name string) {
	m.debug = append(m.debug, Instruction{OpName, append([]uint32{uint32(id)}, StringWords(name)...)})
}

// Decorate decorates id.
func (m *Module) Decorate(id ID, d Decoration, literals ...uint32) {
	m.annotations = append(m.annotations, Instruction{OpDecorate, append([]uint32{uint32(id), uint32(d)}, literals...)})
}

// MemberDecorate decorates member of structure type id.
func (m *Module) MemberDecorate(id ID, member uint32, d Decoration, literals ...uint32) {
	m.annotations = append(m.annotations, Instruction{OpMemberDecorate, append([]uint32{uint32(id), member, uint32(d)}, literals...)})
}

// global returns the id of a deduplicated type or constant declaration.
// key distinguishes declarations whose operands agree but whose decorations
// differ; decorate, when not nil, runs once for a new declaration.
func (m *Module) global(op Op, resultType ID, operands []uint32, key string, decorate func(ID)) ID {
	// The key is "op:resultType:key" and ",word" per operand, in decimal.
	b := strconv.AppendUint(m.dedupKey[:0], uint64(op), 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, uint64(resultType), 10)
	b = append(b, ':')
	b = append(b, key...)
	for _, w := range operands {
		b = append(b, ',')
		b = strconv.AppendUint(b, uint64(w), 10)
	}
	m.dedupKey = b
	if id, ok := m.dedup[string(b)]; ok {
		return id
	}
	id := m.ID()
	m.dedup[string(b)] = id
	var ops []uint32
	if resultType != 0 {
		ops = append(ops, uint32(resultType))
	}
	ops = append(ops, uint32(id))
	ops = append(ops, operands...)
	m.globals = append(m.globals, Instruction{op, ops})
	if decorate != nil {
		decorate(id)
	}
	return id
}

// Variable declares a global (module-scope) variable of pointer type ptrType.
func (m *Module) Variable(ptrType ID, sc StorageClass, initializer ...ID) ID {
	id := m.ID()
	ops := []uint32{uint32(ptrType), uint32(id), uint32(sc)}
	for _, i := range initializer {
		ops = append(ops, uint32(i))
	}
	m.globals = append(m.globals, Instruction{OpVariable, ops})
	return id
}

// StringWords encodes s as a nul-terminated, zero-padded literal string.
func StringWords(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
	}
	return w
}

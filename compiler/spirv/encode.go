package spirv

import (
	"encoding/binary"
	"fmt"
)

// Version is the SPIR-V version modules declare: 1.5, the newest Vulkan 1.2 accepts.
const Version = 0x00010500

// Words encodes the module in the logical layout's section order.
func (m *Module) Words() ([]uint32, error) {
	w := []uint32{MagicNumber, Version, 0, m.bound, 0}
	put := func(in Instruction) error {
		n := len(in.Operands) + 1
		if n > 0xffff {
			return fmt.Errorf("spirv: %s has %d words, more than 65535", in.Op, n)
		}
		w = append(w, uint32(n)<<16|uint32(in.Op))
		w = append(w, in.Operands...)
		return nil
	}
	var all []Instruction
	for _, c := range m.capabilities {
		all = append(all, Instruction{OpCapability, []uint32{uint32(c)}})
	}
	for _, e := range m.extensions {
		all = append(all, Instruction{OpExtension, StringWords(e)})
	}
	all = append(all, m.extImports...)
	all = append(all, Instruction{OpMemoryModel, []uint32{uint32(m.addressing), uint32(m.memory)}})
	all = append(all, m.entryPoints...)
	all = append(all, m.execModes...)
	all = append(all, m.debug...)
	all = append(all, m.annotations...)
	all = append(all, m.globals...)
	for _, f := range m.functions {
		all = append(all, f.head...)
		if len(f.body) > 0 {
			if f.body[0].Op != OpLabel {
				return nil, fmt.Errorf("spirv: function %%%d body does not start with OpLabel", f.ID)
			}
			all = append(all, f.body[0])
			all = append(all, f.locals...)
			all = append(all, f.body[1:]...)
		}
		all = append(all, Instruction{OpFunctionEnd, nil})
	}
	for _, in := range all {
		if err := put(in); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Bytes encodes the module as little-endian bytes.
func (m *Module) Bytes() ([]byte, error) {
	w, err := m.Words()
	if err != nil {
		return nil, err
	}
	return WordsToBytes(w), nil
}

// WordsToBytes encodes words little-endian.
func WordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// String returns the opcode's grammar name.
func (o Op) String() string {
	if in, ok := opInfos[o]; ok {
		return in.name
	}
	return fmt.Sprintf("Op(%d)", uint16(o))
}

type opInfo struct {
	name      string
	hasType   bool
	hasResult bool
}

// HasResult reports whether the opcode defines a result id, and whether it has a result type.
func (o Op) HasResult() (result, typ bool) {
	in := opInfos[o]
	return in.hasResult, in.hasType
}

// GLSLArity is the operand count of a GLSL.std.450 instruction, and whether it exists.
func GLSLArity(op GLSLOp) (int, bool) {
	n, ok := glslArity[op]
	return n, ok
}

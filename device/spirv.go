package device

import (
	"encoding/binary"
	"fmt"
)

// SPIR-V opcodes, decorations and storage classes the reflection reads (SPIR-V 1.6 grammar).
const (
	opName                  = 5
	opExtension             = 10
	opMemoryModel           = 14
	opEntryPoint            = 15
	opExecutionMode         = 16
	opCapability            = 17
	opTypeVoid              = 19
	opTypeBool              = 20
	opTypeInt               = 21
	opTypeFloat             = 22
	opTypeVector            = 23
	opTypeMatrix            = 24
	opTypeImage             = 25
	opTypeSampler           = 26
	opTypeSampledImage      = 27
	opTypeArray             = 28
	opTypeRuntimeArray      = 29
	opTypeStruct            = 30
	opTypePointer           = 32
	opTypeFunction          = 33
	opConstant              = 43
	opConstantNull          = 46
	opSpecConstantTrue      = 48
	opSpecConstantFalse     = 49
	opSpecConstant          = 50
	opSpecConstantComposite = 51
	opFunction              = 54
	opFunctionEnd           = 56
	opVariable              = 59
	opStore                 = 62
	opDecorate              = 71
	opLabel                 = 248
	opReturn                = 253
	opExecutionModeID       = 331
	opTypeAccelStructKHR    = 5341

	decSpecID        = 1
	decBlock         = 2
	decBufferBlock   = 3
	decBuiltIn       = 11
	decNoPerspective = 13
	decFlat          = 14
	decCentroid      = 16
	decSample        = 17
	decLocation      = 30
	decComponent     = 31
	decBinding       = 33
	decDescriptorSet = 34

	builtInWorkgroupSize = 25

	modeLocalSize   = 17
	modeLocalSizeID = 38

	execModelVertex    = 0
	execModelFragment  = 4
	execModelGLCompute = 5

	scUniformConstant = 0
	scInput           = 1
	scUniform         = 2
	scOutput          = 3
	scPushConstant    = 9
	scStorageBuffer   = 12

	spirvMagic = 0x07230203
)

// maxTypeDepth bounds every walk down a type's element types, so that a hostile module whose
// types refer to themselves cannot loop or overflow the stack.
const maxTypeDepth = 32

// spirvBinding is one descriptor a module declares.
type spirvBinding struct {
	Set, Binding uint32
	Type         uint32 // VkDescriptorType
	Count        uint32
	Image        spirvImage // for image descriptors: the OpTypeImage's operands
}

// spirvImage is what a texture bound to an image descriptor must match: the OpTypeImage's
// Dim, Arrayed and MS operands, and the numeric kind of its Sampled Type ('f' float, 'i'
// signed, 'u' unsigned integer, 0 other).
type spirvImage struct {
	Dim     uint32
	Arrayed bool
	MS      bool
	Kind    byte
	Format  uint32 // the Image Format operand (0 Unknown)
}

// spirvEntry is one OpEntryPoint.
type spirvEntry struct {
	Model     uint32
	Name      string
	ID        uint32
	Interface []uint32
}

// spirvVar is one OpVariable.
type spirvVar struct {
	PtrType, Class uint32
}

// spirvModule is what the compile stage needs to know of a SPIR-V module: its entry points,
// descriptors, push constants, interface variables, types and how its workgroup size is given.
type spirvModule struct {
	words         []uint32
	entryPoints   []spirvEntry
	entries       map[string]uint32            // GLCompute entry name -> function id
	types         map[uint32][]uint32          // type id -> its OpType* instruction
	decorations   map[uint32]map[uint32]uint32 // id -> decoration -> first literal
	vars          map[uint32]spirvVar
	bindings      []spirvBinding
	pushConstants bool
	localSizeAt   map[uint32]int       // entry id -> word index of OpExecutionMode LocalSize's x
	localSizeIDs  map[uint32][3]uint32 // entry id -> ids of OpExecutionModeId LocalSizeId
	wgSizeID      uint32               // the id decorated BuiltIn WorkgroupSize, or 0
	specIDs       map[uint32]uint32    // result id -> SpecId
	composites    map[uint32][]uint32  // OpSpecConstantComposite / constant composite constituents
	constAt       map[uint32]int       // OpConstant / OpSpecConstant result id -> word index of its value
	specTypes     map[uint32]uint32    // OpSpecConstant{,True,False} result id -> its type id
}

// SPIRVError is a SPIR-V module airpipe cannot read: it names the construct and the byte offset.
type SPIRVError struct {
	Offset int
	What   string
}

func (e *SPIRVError) Error() string { return fmt.Sprintf("spirv: byte %d: %s", e.Offset, e.What) }

// parseSPIRV reads the module's instruction stream. It checks every word count against the
// length of the input and allocates nothing in proportion to counts it has not checked.
func parseSPIRV(code []byte) (*spirvModule, error) {
	if len(code)%4 != 0 {
		return nil, &SPIRVError{len(code), fmt.Sprintf("length %d is not a multiple of 4", len(code))}
	}
	if len(code) < 20 {
		return nil, &SPIRVError{0, "shorter than the 5-word header"}
	}
	words := make([]uint32, len(code)/4)
	var order binary.ByteOrder = binary.LittleEndian
	if binary.BigEndian.Uint32(code) == spirvMagic {
		order = binary.BigEndian
	}
	for i := range words {
		words[i] = order.Uint32(code[4*i:])
	}
	if words[0] != spirvMagic {
		return nil, &SPIRVError{0, fmt.Sprintf("magic %#08x, want %#08x", words[0], spirvMagic)}
	}
	m := &spirvModule{
		words:        words,
		entries:      map[string]uint32{},
		localSizeAt:  map[uint32]int{},
		localSizeIDs: map[uint32][3]uint32{},
		specIDs:      map[uint32]uint32{},
		composites:   map[uint32][]uint32{},
		constAt:      map[uint32]int{},
		specTypes:    map[uint32]uint32{},
	}
	type ptrType struct{ sc, pointee uint32 }
	ptrs := map[uint32]ptrType{}
	kinds := map[uint32][]uint32{} // type id -> its instruction's words (opcode first)
	decorations := map[uint32]map[uint32]uint32{}
	m.types, m.decorations, m.vars = kinds, decorations, map[uint32]spirvVar{}
	type variable struct{ ptrType, sc uint32 }
	var vars []struct {
		id uint32
		v  variable
	}
	for i := 5; i < len(words); {
		n := int(words[i] >> 16)
		op := words[i] & 0xffff
		if n == 0 || i+n > len(words) {
			return nil, &SPIRVError{4 * i, fmt.Sprintf("instruction opcode %d word count %d runs past the end (%d words)", op, n, len(words))}
		}
		ins := words[i : i+n]
		short := func(min int) error {
			if n < min {
				return &SPIRVError{4 * i, fmt.Sprintf("opcode %d has %d words, needs at least %d", op, n, min)}
			}
			return nil
		}
		switch op {
		case opEntryPoint:
			if err := short(4); err != nil {
				return nil, err
			}
			name, used := spirvString(ins[3:])
			m.entryPoints = append(m.entryPoints, spirvEntry{Model: ins[1], Name: name, ID: ins[2], Interface: ins[3+used:]})
			if ins[1] == execModelGLCompute {
				m.entries[name] = ins[2]
			}
		case opExecutionMode:
			if err := short(3); err != nil {
				return nil, err
			}
			if ins[2] == modeLocalSize && n >= 6 {
				m.localSizeAt[ins[1]] = i + 3
			}
		case opExecutionModeID:
			if err := short(3); err != nil {
				return nil, err
			}
			if ins[2] == modeLocalSizeID && n >= 6 {
				m.localSizeIDs[ins[1]] = [3]uint32{ins[3], ins[4], ins[5]}
			}
		case opDecorate:
			if err := short(3); err != nil {
				return nil, err
			}
			d := decorations[ins[1]]
			if d == nil {
				d = map[uint32]uint32{}
				decorations[ins[1]] = d
			}
			v := uint32(0)
			if n >= 4 {
				v = ins[3]
			}
			d[ins[2]] = v
			if ins[2] == decBuiltIn && v == builtInWorkgroupSize {
				m.wgSizeID = ins[1]
			}
			if ins[2] == decSpecID {
				m.specIDs[ins[1]] = v
			}
		case opTypePointer:
			if err := short(4); err != nil {
				return nil, err
			}
			ptrs[ins[1]] = ptrType{ins[2], ins[3]}
			kinds[ins[1]] = ins
		case opTypeVoid, opTypeBool, opTypeInt, opTypeFloat, opTypeVector, opTypeMatrix,
			opTypeImage, opTypeSampler, opTypeSampledImage, opTypeArray, opTypeRuntimeArray, opTypeStruct, opTypeAccelStructKHR:
			if err := short(2); err != nil {
				return nil, err
			}
			kinds[ins[1]] = ins
		case opConstant, opSpecConstant:
			if err := short(4); err != nil {
				return nil, err
			}
			m.constAt[ins[2]] = i + 3
			if op == opSpecConstant {
				m.specTypes[ins[2]] = ins[1]
			}
		case opSpecConstantTrue, opSpecConstantFalse:
			if err := short(3); err != nil {
				return nil, err
			}
			m.specTypes[ins[2]] = ins[1]
		case opSpecConstantComposite, 44: // 44: OpConstantComposite
			if err := short(3); err != nil {
				return nil, err
			}
			m.composites[ins[2]] = ins[3:]
		case opVariable:
			if err := short(4); err != nil {
				return nil, err
			}
			vars = append(vars, struct {
				id uint32
				v  variable
			}{ins[2], variable{ins[1], ins[3]}})
			m.vars[ins[2]] = spirvVar{PtrType: ins[1], Class: ins[3]}
		}
		i += n
	}
	for _, v := range vars {
		if v.v.sc == scPushConstant {
			m.pushConstants = true
			continue
		}
		d := decorations[v.id]
		set, okSet := d[decDescriptorSet]
		bind, okBind := d[decBinding]
		if !okSet || !okBind {
			continue
		}
		pointee := ptrs[v.v.ptrType].pointee
		count := uint32(1)
		t := kinds[pointee]
		for depth := 0; depth < maxTypeDepth && len(t) > 0 && (t[0]&0xffff == opTypeArray || t[0]&0xffff == opTypeRuntimeArray); depth++ {
			if t[0]&0xffff == opTypeArray && len(t) >= 4 {
				if at, ok := m.constAt[t[3]]; ok {
					count *= m.words[at]
				}
			}
			if len(t) < 3 {
				break
			}
			t = kinds[t[2]]
		}
		var dt uint32
		switch v.v.sc {
		case scStorageBuffer:
			dt = 7 // STORAGE_BUFFER
		case scUniform:
			dt = 6 // UNIFORM_BUFFER
			if len(t) >= 2 {
				if _, ok := decorations[t[1]][decBufferBlock]; ok {
					dt = 7
				}
			}
		case scUniformConstant:
			dt = uniformConstantType(t)
		default:
			continue
		}
		if count == 0 {
			count = 1
		}
		var img spirvImage
		if len(t) >= 9 && t[0]&0xffff == opTypeImage {
			img = spirvImage{Dim: t[3], Arrayed: t[5] == 1, MS: t[6] == 1, Kind: numericKind(kinds[t[2]]), Format: t[8]}
		}
		m.bindings = append(m.bindings, spirvBinding{Set: set, Binding: bind, Type: dt, Count: count, Image: img})
	}
	return m, nil
}

// uniformConstantType maps an opaque type's instruction to its VkDescriptorType.
func uniformConstantType(t []uint32) uint32 {
	if len(t) == 0 {
		return 2
	}
	switch t[0] & 0xffff {
	case opTypeSampler:
		return 0 // SAMPLER
	case opTypeSampledImage:
		return 1 // COMBINED_IMAGE_SAMPLER
	case opTypeAccelStructKHR:
		return 1000150000
	case opTypeImage:
		if len(t) < 9 {
			return 2
		}
		dim, sampled := t[3], t[7]
		switch {
		case dim == 6: // SubpassData
			return 10
		case dim == 5 && sampled == 2: // Buffer, storage
			return 5
		case dim == 5:
			return 4
		case sampled == 2:
			return 3 // STORAGE_IMAGE
		}
		return 2 // SAMPLED_IMAGE
	}
	return 2
}

// numericKind is 'f' for an OpTypeFloat, 'i' or 'u' for a signed or unsigned OpTypeInt, else 0.
func numericKind(t []uint32) byte {
	switch {
	case len(t) >= 3 && t[0]&0xffff == opTypeFloat:
		return 'f'
	case len(t) >= 4 && t[0]&0xffff == opTypeInt && t[3] == 1:
		return 'i'
	case len(t) >= 4 && t[0]&0xffff == opTypeInt:
		return 'u'
	}
	return 0
}

// spirvString decodes a literal string operand.
func spirvString(ws []uint32) (string, int) {
	var b []byte
	for i, w := range ws {
		for k := 0; k < 4; k++ {
			c := byte(w >> (8 * k))
			if c == 0 {
				return string(b), i + 1
			}
			b = append(b, c)
		}
	}
	return string(b), len(ws)
}

// withLocalSize returns the module's code with entry's workgroup size set to size, and the
// specialization constants (SpecId -> value) that carry it where the module takes it from
// specialization constants. A module whose size is neither literal nor specializable keeps it.
func (m *spirvModule) withLocalSize(entry uint32, size [3]uint32) (code []uint32, spec map[uint32]uint32) {
	code = m.words
	spec = map[uint32]uint32{}
	setConst := func(id, v uint32) {
		if sid, ok := m.specIDs[id]; ok {
			spec[sid] = v
			return
		}
		if at, ok := m.constAt[id]; ok {
			if &code[0] == &m.words[0] {
				code = append([]uint32(nil), m.words...)
			}
			code[at] = v
		}
	}
	if m.wgSizeID != 0 {
		// The WorkgroupSize built-in overrides every execution mode.
		if cs := m.composites[m.wgSizeID]; len(cs) == 3 {
			for k := range 3 {
				setConst(cs[k], size[k])
			}
		}
		return code, spec
	}
	if ids, ok := m.localSizeIDs[entry]; ok {
		for k := range 3 {
			setConst(ids[k], size[k])
		}
		return code, spec
	}
	if at, ok := m.localSizeAt[entry]; ok {
		code = append([]uint32(nil), m.words...)
		copy(code[at:at+3], size[:])
	}
	return code, spec
}

package spirv

// Function is a function under construction. Function-storage variables
// declared with Local are placed at the top of the first block, as the
// specification requires, whatever the order they were declared in.
type Function struct {
	m      *Module
	ID     ID
	head   []Instruction
	locals []Instruction
	body   []Instruction
}

// NewFunction starts a function returning ret with function type fnType.
func (m *Module) NewFunction(ret, fnType ID, control FunctionControl) *Function {
	f := &Function{m: m, ID: m.ID()}
	f.head = append(f.head, Instruction{OpFunction, []uint32{uint32(ret), uint32(f.ID), uint32(control), uint32(fnType)}})
	m.functions = append(m.functions, f)
	return f
}

// Param declares the next parameter of type typ.
func (f *Function) Param(typ ID) ID {
	id := f.m.ID()
	f.head = append(f.head, Instruction{OpFunctionParameter, []uint32{uint32(typ), uint32(id)}})
	return id
}

// Local declares a Function-storage variable of pointer type ptrType.
func (f *Function) Local(ptrType ID) ID {
	id := f.m.ID()
	f.locals = append(f.locals, Instruction{OpVariable, []uint32{uint32(ptrType), uint32(id), uint32(StorageClassFunction)}})
	return id
}

// Label starts the block with label id.
func (f *Function) Label(id ID) {
	f.body = append(f.body, Instruction{OpLabel, []uint32{uint32(id)}})
}

// Emit appends an instruction with raw operand words (no result allocated).
func (f *Function) Emit(op Op, operands ...uint32) {
	f.body = append(f.body, Instruction{op, operands})
}

// Op appends an instruction with result type typ and a fresh result id,
// followed by operands given as ids, and returns the result id.
func (f *Function) Op(op Op, typ ID, operands ...ID) ID {
	id := f.m.ID()
	w := append([]uint32{uint32(typ), uint32(id)}, idWords(operands)...)
	f.body = append(f.body, Instruction{op, w})
	return id
}

// OpWords is Op with raw operand words, for literals and masks.
func (f *Function) OpWords(op Op, typ ID, operands ...uint32) ID {
	id := f.m.ID()
	w := append([]uint32{uint32(typ), uint32(id)}, operands...)
	f.body = append(f.body, Instruction{op, w})
	return id
}

// ExtInst appends a GLSL.std.450 instruction and returns its result id.
func (f *Function) ExtInst(typ ID, inst GLSLOp, operands ...ID) ID {
	w := append([]uint32{uint32(f.m.GLSL()), uint32(inst)}, idWords(operands)...)
	return f.OpWords(OpExtInst, typ, w...)
}

// Len is the number of body instructions emitted so far.
func (f *Function) Len() int { return len(f.body) }

// Patch replaces the operands (after result type and id) of the
// instruction at body position pos, which OpWords or Op created; phis use
// it to fill incoming values defined after them.
func (f *Function) Patch(pos int, operands ...uint32) {
	in := &f.body[pos]
	in.Operands = append(in.Operands[:2:2], operands...)
}

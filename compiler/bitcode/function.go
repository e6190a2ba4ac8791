package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// fwdRef stands for a value referenced before its definition; it is
// replaced when the function body ends.
type fwdRef struct {
	id  uint64
	typ air.Type
}

// Type implements air.Value.
func (f *fwdRef) Type() air.Type { return f.typ }

type fnState struct {
	f       *air.Function
	blocks  []*air.Block
	cur     int
	insts   []air.Instruction
	fwd     bool
	lastLoc *air.DebugLoc
	bundles []air.Bundle
	mdFwd   []*air.MDValue
	rec     instRec // the record being read
}

// maxBlocks bounds DECLAREBLOCKS independently of input size.
const maxBlocks = 1 << 20

func (r *reader) readFunctionBody() *Error {
	c := r.c
	if r.nextBody >= len(r.bodies) {
		return malformed(c.r.pos, "FUNCTION_BLOCK", "more bodies than defined functions")
	}
	f := r.bodies[r.nextBody]
	r.nextBody++
	base, mdBase := len(r.values), len(r.md)
	for _, a := range f.Args {
		r.values = append(r.values, a)
	}
	fs := &fnState{f: f}
	r.curFn = fs
	defer func() { r.curFn = nil }()
	for {
		kind, code, err := c.next()
		if err != nil {
			return err
		}
		if kind == entryEnd {
			break
		}
		if kind == entryBlock {
			var err *Error
			switch code {
			case constantsID:
				err = r.enterAnd(code, r.readConstants)
			case metadataID:
				err = r.enterAnd(code, r.readMetadata)
			case metadataAttachID:
				err = r.enterAnd(code, func() *Error { return r.readAttachments(fs) })
			case valueSymtabID:
				err = r.enterAnd(code, func() *Error { return r.readFunctionVST(fs) })
			case uselistID:
				err = r.enterAnd(code, func() *Error { return r.readUseList(fs) })
			default:
				err = unknownBlock(c.r.pos, code)
			}
			if err != nil {
				return err
			}
			continue
		}
		if r.breakHook != nil {
			r.breakHook(functionID, code, c.ops)
		}
		if err := r.instRecord(fs, code, c.ops); err != nil {
			return err
		}
	}
	if len(fs.blocks) == 0 {
		return malformed(c.r.pos, "FUNCTION_BLOCK", "function @%s has no DECLAREBLOCKS", f.Name)
	}
	for i, b := range fs.blocks {
		if b == nil || len(b.Insts) == 0 || !isTerminator(b.Insts[len(b.Insts)-1]) {
			return malformed(c.r.pos, "FUNCTION_BLOCK", "block %d of @%s has no terminator", i, f.Name)
		}
	}
	if fs.fwd {
		if err := r.resolveForward(fs); err != nil {
			return err
		}
	}
	f.Blocks = fs.blocks
	r.values = r.values[:base]
	r.md = r.md[:mdBase]
	return nil
}

func isTerminator(i air.Instruction) bool {
	switch i.(type) {
	case *air.Ret, *air.Br, *air.Switch, *air.Unreachable:
		return true
	}
	return false
}

// value returns the function-level value with absolute id, or a forward
// reference of type ty.
func (r *reader) value(fs *fnState, id uint64, ty air.Type) (air.Value, *Error) {
	if _, ok := ty.(*air.MetadataType); ok {
		m, err := r.mdRef(id, r.c.r.pos)
		if err != nil {
			return nil, err
		}
		return &air.MetadataValue{MD: m}, nil
	}
	if id < uint64(len(r.values)) && r.values[id] != nil {
		return r.values[id], nil
	}
	if ty == nil {
		return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK", "forward reference to value %d without a type", id)
	}
	if id > uint64(len(r.values))+uint64(len(r.c.r.buf))*8 {
		return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK", "value id %d out of range", id)
	}
	fs.fwd = true
	return &fwdRef{id: id, typ: ty}, nil
}

// rel turns a relative operand into an absolute value id.
func (r *reader) rel(v uint64) uint64 {
	if r.version == 0 {
		return v
	}
	return uint64(uint32(len(r.values)) - uint32(v))
}

// opTyped reads a value operand whose type is implied by ty.
func (r *reader) opTyped(fs *fnState, ops []uint64, i *int, ty air.Type) (air.Value, *Error) {
	if *i >= len(ops) {
		return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK", "missing operand")
	}
	id := r.rel(ops[*i])
	*i++
	return r.value(fs, id, ty)
}

// opPair reads a value operand that carries its type when it is a forward reference.
func (r *reader) opPair(fs *fnState, ops []uint64, i *int) (air.Value, *Error) {
	if *i >= len(ops) {
		return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK", "missing operand")
	}
	id := r.rel(ops[*i])
	*i++
	if id < uint64(len(r.values)) {
		return r.value(fs, id, nil)
	}
	if *i >= len(ops) {
		return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK", "forward reference without a type")
	}
	ty, err := r.typeAt(ops[*i], "FUNCTION_BLOCK forward reference")
	*i++
	if err != nil {
		return nil, err
	}
	return r.value(fs, id, ty)
}

func (r *reader) block(fs *fnState, id uint64) (*air.Block, *Error) {
	if id >= uint64(len(fs.blocks)) {
		return nil, malformed(r.c.r.pos, "FUNCTION_BLOCK", "block %d out of range", id)
	}
	return fs.blockAt(int(id)), nil
}

func (fs *fnState) blockAt(i int) *air.Block {
	if fs.blocks[i] == nil {
		fs.blocks[i] = &air.Block{Func: fs.f, Index: i}
	}
	return fs.blocks[i]
}

// add appends an instruction to the current block.
func (r *reader) add(fs *fnState, in air.Instruction) *Error {
	if fs.cur >= len(fs.blocks) {
		return malformed(r.c.r.pos, "FUNCTION_BLOCK", "instruction after the last block")
	}
	b := fs.blockAt(fs.cur)
	in.Common().Parent = b
	b.Insts = append(b.Insts, in)
	fs.insts = append(fs.insts, in)
	if air.HasResult(in) {
		r.values = append(r.values, in)
	}
	if isTerminator(in) {
		fs.cur++
	}
	return nil
}

func (r *reader) readAttachments(fs *fnState) *Error {
	c := r.c
	return r.eachRecord(func(code uint64) *Error {
		if code != 11 {
			return unknownRecord(c.r.pos, metadataAttachID, code)
		}
		ops := c.ops
		if len(ops)%2 == 0 {
			att, err := r.attachments(ops)
			if err != nil {
				return err
			}
			fs.f.Attached = append(fs.f.Attached, att...)
			return nil
		}
		if ops[0] >= uint64(len(fs.insts)) {
			return malformed(c.r.pos, "METADATA_ATTACHMENT", "instruction %d out of range", ops[0])
		}
		att, err := r.attachments(ops[1:])
		if err != nil {
			return err
		}
		b := fs.insts[ops[0]].Common()
		b.Attached = append(b.Attached, att...)
		return nil
	})
}

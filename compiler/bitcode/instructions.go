package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// The FUNCTION_BLOCK's instruction records are read by family, as
// compiler/air defines the instructions: inst_arith.go (binary, unary,
// freeze, cast, compare), inst_memory.go (alloca, load, store,
// getelementptr), inst_control.go (terminators, phi, select),
// inst_call.go (call, operand bundles), inst_vector.go and
// inst_aggregate.go (element and member access) and inst_atomic.go
// (fence, atomicrmw, cmpxchg). This file dispatches on the record code
// (names.go names each one) and holds what the families share.

// instRec is one FUNCTION_BLOCK record being read: its code and operands,
// its name for error details, and the function it belongs to.
type instRec struct {
	c    *cursor // for error offsets; holding the reader instead would move it to the heap
	fs   *fnState
	code uint64
	ops  []uint64
	what string
}

// bad is a malformed-record error naming the record.
func (x *instRec) bad(f string, a ...any) *Error { return malformed(x.c.r.pos, x.what, f, a...) }

// need checks that the record has at least n operands.
func (x *instRec) need(n int) *Error {
	if len(x.ops) < n {
		return x.bad("%d operands, want at least %d", len(x.ops), n)
	}
	return nil
}

// unsupported is a well-formed record using a form this reader does not read.
func (x *instRec) unsupported(f string, a ...any) *Error {
	return unsupported(x.c.r.pos, x.what, f, a...)
}

// instRecord reads one record of a function body: a record that declares
// or annotates (blocks, debug locations, operand bundles), or one that
// makes an instruction, which is appended to the current block.
func (r *reader) instRecord(fs *fnState, code uint64, ops []uint64) *Error {
	// the record lives in fs, which is on the heap already: the readers
	// are called through a table, so the record escapes
	x := &fs.rec
	*x = instRec{c: r.c, fs: fs, code: code, ops: ops, what: recordName(functionID, code)}
	switch code {
	case funcCodeDeclareBlocks:
		return r.readDeclareBlocks(x)
	case funcCodeDebugLoc:
		return r.readDebugLoc(x)
	case funcCodeDebugLocAgain:
		return r.readDebugLocAgain(x)
	case funcCodeOperandBundle:
		return r.readOperandBundle(x)
	}
	in, err := r.readInstruction(x)
	if err != nil {
		return err
	}
	return r.add(fs, in)
}

// instReaders reads each record that makes an instruction, by record code.
var instReaders = [...]func(*reader, *instRec) (air.Instruction, *Error){
	funcCodeInstBinop:          (*reader).readBinOp,
	funcCodeInstUnop:           (*reader).readUnOp,
	funcCodeInstFreeze:         (*reader).readFreeze,
	funcCodeInstCast:           (*reader).readCast,
	funcCodeInstCmp:            (*reader).readCmp,
	funcCodeInstCmp2:           (*reader).readCmp,
	funcCodeInstGEP:            (*reader).readGEP,
	funcCodeInstGEPOld:         (*reader).readGEP,
	funcCodeInstInboundsGEPOld: (*reader).readGEP,
	funcCodeInstAlloca:         (*reader).readAlloca,
	funcCodeInstLoad:           (*reader).readLoad,
	funcCodeInstLoadAtomic:     (*reader).readLoad,
	funcCodeInstStore:          (*reader).readStore,
	funcCodeInstStoreAtomic:    (*reader).readStore,
	funcCodeInstStoreOld:       (*reader).readStore,
	funcCodeInstVSelect:        (*reader).readSelect,
	funcCodeInstRet:            (*reader).readRet,
	funcCodeInstBr:             (*reader).readBr,
	funcCodeInstSwitch:         (*reader).readSwitch,
	funcCodeInstUnreachable:    (*reader).readUnreachable,
	funcCodeInstPhi:            (*reader).readPhi,
	funcCodeInstExtractElt:     (*reader).readExtractElement,
	funcCodeInstInsertElt:      (*reader).readInsertElement,
	funcCodeInstShuffleVec:     (*reader).readShuffleVector,
	funcCodeInstExtractVal:     (*reader).readExtractValue,
	funcCodeInstInsertVal:      (*reader).readInsertValue,
	funcCodeInstCall:           (*reader).readCall,
	funcCodeInstFence:          (*reader).readFence,
	funcCodeInstAtomicRMW:      (*reader).readAtomicRMW,
	funcCodeInstCmpXchg:        (*reader).readCmpXchg,
}

// readInstruction reads a record that makes an instruction.
func (r *reader) readInstruction(x *instRec) (air.Instruction, *Error) {
	if x.code < uint64(len(instReaders)) && instReaders[x.code] != nil {
		return instReaders[x.code](r, x)
	}
	return nil, unknownRecord(r.c.r.pos, functionID, x.code)
}

// readDeclareBlocks reads DECLAREBLOCKS [n].
func (r *reader) readDeclareBlocks(x *instRec) *Error {
	if err := x.need(1); err != nil {
		return err
	}
	ops, fs := x.ops, x.fs
	if ops[0] == 0 || ops[0] > maxBlocks || ops[0] > r.c.r.left()/2 || fs.blocks != nil {
		return x.bad("%d blocks", ops[0])
	}
	// blocks are made when first used, so a huge count costs 8 bytes each
	fs.blocks = make([]*air.Block, ops[0])
	return nil
}

// readDebugLoc reads DEBUG_LOC [line, col, scope, inlinedAt, implicit],
// the location of the instruction before it.
func (r *reader) readDebugLoc(x *instRec) *Error {
	if err := x.need(4); err != nil {
		return err
	}
	ops, fs := x.ops, x.fs
	if len(fs.insts) == 0 {
		return x.bad("no instruction to attach to")
	}
	loc := &air.DebugLoc{Line: ops[0], Col: ops[1]}
	var err *Error
	if ops[2] != 0 {
		if loc.Scope, err = r.mdRef(ops[2]-1, r.c.r.pos); err != nil {
			return err
		}
	}
	if ops[3] != 0 {
		if loc.InlinedAt, err = r.mdRef(ops[3]-1, r.c.r.pos); err != nil {
			return err
		}
	}
	loc.Implicit = len(ops) > 4 && ops[4] != 0
	fs.insts[len(fs.insts)-1].Common().Loc = loc
	fs.lastLoc = loc
	return nil
}

// readDebugLocAgain reads DEBUG_LOC_AGAIN: the instruction before it has
// the last location read.
func (r *reader) readDebugLocAgain(x *instRec) *Error {
	fs := x.fs
	if len(fs.insts) == 0 || fs.lastLoc == nil {
		return x.bad("no location to repeat")
	}
	fs.insts[len(fs.insts)-1].Common().Loc = fs.lastLoc
	return nil
}

// opPairOfOneType reads an operand pair and a second operand of the first one's type
// (binop, select, shufflevector and cmp records).
func (r *reader) opPairOfOneType(fs *fnState, ops []uint64, i *int) (x, y air.Value, err *Error) {
	if x, err = r.opPair(fs, ops, i); err != nil {
		return nil, nil, err
	}
	if y, err = r.opTyped(fs, ops, i, x.Type()); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// fastMath decodes fast-math flags; the legacy "unsafe algebra" bit means all of them.
func fastMath(v uint64) air.FastMath {
	if v&1 != 0 {
		return 0xFE
	}
	return air.FastMath(v)
}

func isFP(t air.Type) bool {
	_, ok := air.Scalar(t).(*air.FloatType)
	return ok
}

// boolLike is i1, or <N x i1> for a vector operand type.
func (r *reader) boolLike(t air.Type) air.Type {
	if v, ok := t.(*air.VectorType); ok {
		return r.internVector(&air.VectorType{Len: v.Len, Elem: r.i1()})
	}
	return r.i1()
}

func (r *reader) i1() air.Type {
	if r.i1Type != nil {
		return r.i1Type
	}
	r.i1Type = &air.IntType{Bits: 1}
	for _, t := range r.types {
		if it, ok := t.(*air.IntType); ok && it.Bits == 1 {
			r.i1Type = it
			break
		}
	}
	return r.i1Type
}

// internVector returns the type table's vector equal to v, or v.
func (r *reader) internVector(v *air.VectorType) air.Type {
	key := vecKey{v.Len, v.Scalable, v.Elem}
	if t, ok := r.vecCache[key]; ok {
		return t
	}
	t := r.findVector(v)
	if r.vecCache == nil {
		r.vecCache = map[vecKey]air.Type{}
	}
	r.vecCache[key] = t
	return t
}

type vecKey struct {
	n        int
	scalable bool
	elem     air.Type
}

func (r *reader) findVector(v *air.VectorType) air.Type {
	for _, t := range r.types {
		if tv, ok := t.(*air.VectorType); ok && tv.Len == v.Len && tv.Scalable == v.Scalable && tv.Elem.String() == v.Elem.String() {
			return tv
		}
	}
	return v
}

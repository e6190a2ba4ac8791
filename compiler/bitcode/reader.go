// Package bitcode reads LLVM bitcode modules, as Apple's AIR uses them, into
// the plain-data IR of package compiler/air, and prints that IR as LLVM
// text (WriteLL). It is written from the bitstream format's documentation
// and LLVM's record layouts; it links nothing of LLVM.
//
// Refuse, never guess: a block, record or encoding it does not know fails
// the read with an *Error naming it (reader/unknown-record,
// reader/unknown-block); input that breaks the format is reader/malformed.
package bitcode

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/airpipe/airpipe/compiler/air"
)

const wrapperMagic = 0x0B17C0DE

// ReadModule reads a raw bitcode module. A bitcode wrapper header
// (magic 0x0B17C0DE, as .metallib files carry) is accepted and stripped.
// Error offsets are bit offsets from the start of the bitstream (after
// the wrapper).
func ReadModule(data []byte) (*air.Module, error) {
	return ReadModuleContext(context.Background(), data)
}

// ReadModuleContext is ReadModule that stops early when ctx ends (a stage
// timeout or an interrupted run): it returns ctx's error and drops what it
// built, so a read cut short holds no memory.
func ReadModuleContext(ctx context.Context, data []byte) (*air.Module, error) {
	bc, err := stripWrapper(data)
	if err != nil {
		return nil, err
	}
	r := &reader{budget: len(bc)/2 + 4096, done: ctx.Done()}
	m, rerr := r.read(bc)
	if rerr != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, rerr
	}
	return m, nil
}

// AllocationBound is the most the reader allocates, in total, to read a
// module of n bytes: 128 bytes per input byte plus 1 MiB. The fuzz target
// (FuzzReadModule) and the corpus (TestAllocationBoundOnCorpus: at most
// about 34 per byte) hold it; BenchmarkReaderMemory measures it on a large
// module. It is the reader stage's estimate of a module's cost, checked
// against its budget before reading.
func AllocationBound(n int) uint64 { return 128*uint64(n) + 1<<20 }

func stripWrapper(data []byte) ([]byte, *Error) {
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == wrapperMagic {
		if len(data) < 20 {
			return nil, &Error{Code: CodeMalformed, Detail: "wrapper header", Offset: -1, Msg: "shorter than 20 bytes"}
		}
		off := uint64(binary.LittleEndian.Uint32(data[8:]))
		size := uint64(binary.LittleEndian.Uint32(data[12:]))
		if off+size > uint64(len(data)) || off < 20 {
			return nil, &Error{Code: CodeMalformed, Detail: "wrapper header", Offset: -1,
				Msg: fmt.Sprintf("bitcode at byte %d, %d bytes long, past the end of %d bytes", off, size, len(data))}
		}
		data = data[off : off+size]
	}
	if len(data) < 4 || data[0] != 'B' || data[1] != 'C' || data[2] != 0xC0 || data[3] != 0xDE {
		return nil, &Error{Code: CodeMalformed, Detail: "magic", Offset: 0, Msg: "not LLVM bitcode (no 'BC' 0xC0DE)"}
	}
	if len(data)%4 != 0 {
		return nil, &Error{Code: CodeMalformed, Detail: "bitstream", Offset: 0, Msg: "length not a multiple of 4 bytes"}
	}
	return data, nil
}

// reader holds the state of one module read.
type reader struct {
	c       *cursor
	m       *air.Module
	strtab  []byte
	version uint64
	types   []air.Type
	// values is the global value list, then the function's during a body.
	values    []air.Value
	attrGrps  map[uint64]*attrGroup
	attrLists []air.AttributeList
	sections  []string
	gcNames   []string
	// metadata
	md           []air.Metadata
	mdPending    []mdFixup
	namedPending []namedFixup
	globalAttach [][]uint64
	diPending    []*air.DINode
	mdKinds      map[uint64]string
	globalInit   []globalInit
	fnPending    []fnPending
	bodies       []*air.Function // functions with bodies, in record order
	nextBody     int
	// constants being resolved lazily
	cst   *constTable
	curFn *fnState
	// type caches (the type table is searched once per distinct request)
	ptrCache map[ptrKey]*air.PointerType
	vecCache map[vecKey]air.Type
	i1Type   air.Type
	masks    map[[2]int][]int
	// budget bounds the objects a short record can make many of (function
	// arguments, attribute slots), so allocation stays proportional to input
	budget int
	// done ends the read early when closed (ReadModuleContext)
	done <-chan struct{}
	// hook for tests: swaps operands of one record kind on purpose
	breakHook func(block, code uint64, ops []uint64)
}

type globalInit struct {
	g  *air.GlobalVariable
	id uint64
}

type fnPending struct {
	f                             *air.Function
	prologue, prefix, personality uint64
}

func (r *reader) read(bc []byte) (*air.Module, *Error) {
	r.m = &air.Module{MDKinds: map[uint64]string{}}
	r.mdKinds = r.m.MDKinds
	r.attrGrps = map[uint64]*attrGroup{}
	// First pass over the top level: STRTAB and IDENTIFICATION, and where the module is.
	r.c = newCursor(bc[4:])
	r.c.done = r.done
	c := r.c
	var modulePos []uint64
	for !r.atEnd() {
		kind, id, err := c.next()
		if err != nil {
			return nil, err
		}
		if kind != entryBlock {
			return nil, malformed(c.r.pos, "top level", "record or end outside any block")
		}
		switch id {
		case strtabID:
			err = r.enterAnd(id, r.readStrtab)
		case identificationID:
			err = r.enterAnd(id, r.readIdentification)
		case moduleBlockID:
			modulePos = append(modulePos, c.r.pos)
			err = c.skip()
		case symtabID:
			err = c.skip()
		case blockInfoID:
			err = r.enterAnd(id, c.readBlockInfo)
		default:
			err = unknownBlock(c.r.pos, id)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(modulePos) != 1 {
		return nil, malformed(c.r.pos, "MODULE_BLOCK", "%d module blocks (want 1)", len(modulePos))
	}
	c.r.pos = modulePos[0]
	if err := c.enter(moduleBlockID); err != nil {
		return nil, err
	}
	if err := r.readModuleBlock(); err != nil {
		return nil, err
	}
	return r.m, nil
}

// atEnd reports whether only zero padding is left at the top level.
func (r *reader) atEnd() bool {
	c := r.c
	if c.r.left() < 32 {
		return true
	}
	for i := c.r.pos / 8; i < uint64(len(c.r.buf)); i++ {
		if c.r.buf[i] != 0 {
			return false
		}
	}
	return true
}

func (r *reader) readStrtab() *Error {
	return r.eachRecord(func(code uint64) *Error {
		if code != 1 {
			return unknownRecord(r.c.r.pos, strtabID, code)
		}
		r.strtab = r.c.blob
		return nil
	})
}

func (r *reader) readIdentification() *Error {
	return r.eachRecord(func(code uint64) *Error {
		switch code {
		case 1:
			r.m.Producer = opsString(r.c.ops)
		case 2:
			if len(r.c.ops) > 0 {
				r.m.Epoch = r.c.ops[0]
			}
		default:
			return unknownRecord(r.c.r.pos, identificationID, code)
		}
		return nil
	})
}

// opsString turns a record's operands (one character each) into a string.
func opsString(ops []uint64) string {
	b := make([]byte, len(ops))
	for i, v := range ops {
		b[i] = byte(v)
	}
	return string(b)
}

func (r *reader) strtabName(off, size uint64) (string, *Error) {
	if off+size > uint64(len(r.strtab)) || off+size < off {
		return "", malformed(r.c.r.pos, "STRTAB", "name at %d+%d past the string table (%d bytes)", off, size, len(r.strtab))
	}
	return string(r.strtab[off : off+size]), nil
}

// spend takes n objects from the allocation budget.
func (r *reader) spend(n int, what string) *Error {
	r.budget -= n
	if r.budget < 0 {
		return unsupported(r.c.r.pos, what, "more parameters or attribute slots than a module of this size can hold")
	}
	return nil
}

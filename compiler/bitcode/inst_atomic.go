package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// Atomic records: fence, atomicrmw and cmpxchg (compiler/air's atomic.go);
// atomic loads and stores are read with the others in inst_memory.go.

var orderings = [...]air.Ordering{air.NotAtomic, air.Unordered, air.Monotonic, air.Acquire, air.Release, air.AcqRel, air.SeqCst}

// readFence reads FENCE [ordering, ssid].
func (r *reader) readFence(x *instRec) (air.Instruction, *Error) {
	if err := x.need(2); err != nil {
		return nil, err
	}
	ops := x.ops
	if ops[0] >= uint64(len(orderings)) {
		return nil, x.bad("ordering %d", ops[0])
	}
	f := &air.Fence{Ordering: orderings[ops[0]], SyncScope: ops[1]}
	f.Typ = air.Void
	return f, nil
}

// readAtomicRMW reads ATOMICRMW [ptr, val, op, vol, ordering, ssid, align?].
func (r *reader) readAtomicRMW(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	ptr, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	val, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	if len(ops) < i+4 {
		return nil, x.bad("%d operands", len(ops))
	}
	if ops[i] > 16 || ops[i+2] >= uint64(len(orderings)) {
		return nil, x.bad("operation %d / ordering %d", ops[i], ops[i+2])
	}
	a := &air.AtomicRMW{Op: air.RMWOp(ops[i]), Ptr: ptr, Val: val, Volatile: ops[i+1] != 0,
		Ordering: orderings[ops[i+2]], SyncScope: ops[i+3]}
	var ok bool
	if a.Align, ok = alignAt(ops, i+4); !ok {
		return nil, x.bad("alignment")
	}
	a.Typ = val.Type()
	return a, nil
}

// readCmpXchg reads CMPXCHG [ptr, cmp, new, vol, success, ssid, failure,
// weak, align?].
func (r *reader) readCmpXchg(x *instRec) (air.Instruction, *Error) {
	ops, i := x.ops, 0
	ptr, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	cmp, err := r.opPair(x.fs, ops, &i)
	if err != nil {
		return nil, err
	}
	nw, err := r.opTyped(x.fs, ops, &i, cmp.Type())
	if err != nil {
		return nil, err
	}
	if len(ops) < i+5 {
		return nil, x.bad("%d operands", len(ops))
	}
	if ops[i+1] >= uint64(len(orderings)) || ops[i+3] >= uint64(len(orderings)) {
		return nil, x.bad("ordering")
	}
	c := &air.CmpXchg{Ptr: ptr, Cmp: cmp, New: nw, Volatile: ops[i] != 0, Success: orderings[ops[i+1]],
		SyncScope: ops[i+2], Failure: orderings[ops[i+3]], Weak: ops[i+4] != 0}
	var ok bool
	if c.Align, ok = alignAt(ops, i+5); !ok {
		return nil, x.bad("alignment")
	}
	c.Typ = &air.StructType{Literal: true, Fields: []air.Type{cmp.Type(), &air.IntType{Bits: 1}}}
	return c, nil
}

package bitcode

// readUseList reads a USELIST_BLOCK: records that give, for one value
// (USELIST_CODE_DEFAULT) or one basic block (USELIST_CODE_BB), the order of
// its uses in LLVM's in-memory use list, as a permutation followed by the
// value's id. Use-list order changes no meaning of the module (it is the
// order in which LLVM's passes visit a value's users, kept only so that
// they behave the same after a round trip), so the records of values are
// checked and not kept. A basic block's order is kept (air.Block.UseOrder)
// for one visible effect: llvm-dis lists a block's predecessors ("; preds
// =") in use-list order. fs is nil for the module-level block, which names
// only global values and module constants.
func (r *reader) readUseList(fs *fnState) *Error {
	c := r.c
	return r.eachRecord(func(code uint64) *Error {
		if code != 1 && code != 2 {
			return unknownRecord(c.r.pos, uselistID, code)
		}
		what := recordName(uselistID, code)
		ops := c.ops
		// LLVM's reader requires the id and at least two indexes.
		if len(ops) < 3 {
			return malformed(c.r.pos, what, "%d operands (want an id and at least two indexes)", len(ops))
		}
		id := ops[len(ops)-1]
		if code == 2 {
			if fs == nil {
				return malformed(c.r.pos, what, "basic block use list outside a function")
			}
			if id >= uint64(len(fs.blocks)) {
				return malformed(c.r.pos, what, "block %d of %d", id, len(fs.blocks))
			}
			// kept for the printer: LLVM lists predecessors in use-list order
			fs.blockAt(int(id)).UseOrder = append([]uint64(nil), ops[:len(ops)-1]...)
			return nil
		}
		if id >= uint64(len(r.values)) {
			return malformed(c.r.pos, what, "value %d of %d", id, len(r.values))
		}
		return nil
	})
}

package bitcode

import "github.com/airpipe/airpipe/compiler/air"

// readModuleVST reads the module-level VALUE_SYMTAB: names of globals and
// functions in modules without a string table.
func (r *reader) readModuleVST() *Error {
	c := r.c
	return r.eachRecord(func(code uint64) *Error {
		ops := c.ops
		switch code {
		case 1, 3: // ENTRY [valueid, name...]; FNENTRY [valueid, offset, name...]
			first := 1
			if code == 3 {
				first = 2
			}
			if len(ops) < first {
				return malformed(c.r.pos, recordName(valueSymtabID, code), "%d operands", len(ops))
			}
			if len(ops) == first {
				return nil // v2: names come from the string table
			}
			if ops[0] >= uint64(len(r.values)) {
				return malformed(c.r.pos, recordName(valueSymtabID, code), "value id %d out of range", ops[0])
			}
			name := opsString(ops[first:])
			switch v := r.values[ops[0]].(type) {
			case *air.GlobalVariable:
				v.Name = name
			case *air.Function:
				v.Name = name
			default:
				return malformed(c.r.pos, recordName(valueSymtabID, code), "value %d is not a global", ops[0])
			}
		default:
			return unknownRecord(c.r.pos, valueSymtabID, code)
		}
		return nil
	})
}

// readFunctionVST names a function's arguments, instructions and blocks.
func (r *reader) readFunctionVST(fs *fnState) *Error {
	c := r.c
	return r.eachRecord(func(code uint64) *Error {
		ops := c.ops
		if len(ops) < 1 {
			return malformed(c.r.pos, recordName(valueSymtabID, code), "no operands")
		}
		name := opsString(ops[1:])
		switch code {
		case 1: // ENTRY [valueid, name]
			if ops[0] >= uint64(len(r.values)) {
				return malformed(c.r.pos, "VALUE_SYMTAB_BLOCK/ENTRY", "value id %d out of range", ops[0])
			}
			switch v := r.values[ops[0]].(type) {
			case *air.Argument:
				v.Name = name
			case air.Instruction:
				v.Common().Name = name
			case *air.GlobalVariable:
				v.Name = name
			case *air.Function:
				v.Name = name
			default:
				return malformed(c.r.pos, "VALUE_SYMTAB_BLOCK/ENTRY", "value %d cannot be named", ops[0])
			}
		case 2: // BBENTRY [bbid, name]
			if ops[0] >= uint64(len(fs.blocks)) {
				return malformed(c.r.pos, "VALUE_SYMTAB_BLOCK/BBENTRY", "block %d out of range", ops[0])
			}
			fs.blockAt(int(ops[0])).Name = name
		default:
			return unknownRecord(c.r.pos, valueSymtabID, code)
		}
		return nil
	})
}

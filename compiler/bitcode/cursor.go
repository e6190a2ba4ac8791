package bitcode

// Abbreviation ids with fixed meaning.
const (
	abbrevEndBlock   = 0
	abbrevEnterBlock = 1
	abbrevDefine     = 2
	abbrevUnabbrev   = 3
)

// entry kinds returned by cursor.next.
const (
	entryEnd = iota
	entryBlock
	entryRecord
)

type frame struct {
	width   uint
	abbrevs []*abbrev
	end     uint64 // bit position the block ends at
}

// cursor walks a bitstream's blocks and records.
type cursor struct {
	r         bitReader
	width     uint
	abbrevs   []*abbrev
	end       uint64
	stack     []frame
	blockInfo map[uint64][]*abbrev
	// the current record
	code uint64
	ops  []uint64
	blob []byte
	// done, when set, ends the read early once closed (the caller's
	// context); it is looked at every stopEvery entries.
	done    <-chan struct{}
	entries uint
}

// stopEvery is how many entries the cursor reads between looks at done.
const stopEvery = 1 << 12

const maxDepth = 32

func newCursor(b []byte) *cursor {
	c := &cursor{r: newBitReader(b), width: 2, blockInfo: map[uint64][]*abbrev{}}
	c.end = c.r.end
	return c
}

// next reads the next entry in the current block: entryEnd (the block is
// closed), entryBlock (id is the sub-block id, not yet entered) or
// entryRecord (the record is read into code/ops/blob). DEFINE_ABBREV
// entries are consumed here.
func (c *cursor) next() (kind int, id uint64, err *Error) {
	if c.done != nil {
		if c.entries++; c.entries%stopEvery == 0 {
			select {
			case <-c.done:
				return 0, 0, &Error{Code: CodeMalformed, Detail: "read stopped", Offset: int64(c.r.pos), Msg: "the caller's context ended"}
			default:
			}
		}
	}
	for {
		if c.r.pos >= c.end {
			if len(c.stack) == 0 && c.r.pos >= c.r.end {
				return entryEnd, 0, nil
			}
			return 0, 0, malformed(c.r.pos, "block", "block runs past its length")
		}
		a := c.r.read(c.width)
		if c.r.err != nil {
			return 0, 0, c.r.err
		}
		switch a {
		case abbrevEndBlock:
			c.r.align32()
			if c.r.err != nil {
				return 0, 0, c.r.err
			}
			if len(c.stack) == 0 {
				return 0, 0, malformed(c.r.pos, "END_BLOCK", "end of a block never entered")
			}
			if c.r.pos != c.end {
				return 0, 0, malformed(c.r.pos, "END_BLOCK", "block length disagrees with its end")
			}
			f := c.stack[len(c.stack)-1]
			c.stack = c.stack[:len(c.stack)-1]
			c.width, c.abbrevs, c.end = f.width, f.abbrevs, f.end
			return entryEnd, 0, nil
		case abbrevEnterBlock:
			id := c.r.vbr(8)
			return entryBlock, id, c.r.err
		case abbrevDefine:
			ab := c.r.readAbbrev()
			if c.r.err != nil {
				return 0, 0, c.r.err
			}
			c.abbrevs = append(c.abbrevs, ab)
		default:
			if err := c.readRecord(a); err != nil {
				return 0, 0, err
			}
			return entryRecord, c.code, nil
		}
	}
}

// enter enters the sub-block whose id next just returned.
func (c *cursor) enter(id uint64) *Error {
	w := c.r.vbr(4)
	c.r.align32()
	words := c.r.read(32)
	if c.r.err != nil {
		return c.r.err
	}
	if w < 1 || w > 32 {
		return malformed(c.r.pos, "ENTER_SUBBLOCK", "abbreviation width %d", w)
	}
	if words*32 > c.r.left() || c.r.pos+words*32 > c.end {
		return malformed(c.r.pos, "ENTER_SUBBLOCK", "block of %d words past the end", words)
	}
	if len(c.stack) >= maxDepth {
		return malformed(c.r.pos, "ENTER_SUBBLOCK", "blocks nested too deep")
	}
	c.stack = append(c.stack, frame{width: c.width, abbrevs: c.abbrevs, end: c.end})
	c.width = uint(w)
	c.end = c.r.pos + words*32
	// share BLOCKINFO's list; the full slice expression makes the block's
	// own definitions copy it rather than write into it
	inherited := c.blockInfo[id]
	c.abbrevs = inherited[:len(inherited):len(inherited)]
	return nil
}

// skip skips the sub-block whose id next just returned.
func (c *cursor) skip() *Error {
	c.r.vbr(4)
	c.r.align32()
	words := c.r.read(32)
	if c.r.err != nil {
		return c.r.err
	}
	if words*32 > c.r.left() || c.r.pos+words*32 > c.end {
		return malformed(c.r.pos, "ENTER_SUBBLOCK", "block of %d words past the end", words)
	}
	c.r.pos += words * 32
	return nil
}

func (c *cursor) readRecord(id uint64) *Error {
	c.ops = c.ops[:0]
	c.blob = nil
	r := &c.r
	if id == abbrevUnabbrev {
		c.code = r.vbr(6)
		n := r.vbr(6)
		if n > r.left()/6 {
			return malformed(r.pos, "UNABBREV_RECORD", "%d operands past the end", n)
		}
		for i := uint64(0); i < n && r.err == nil; i++ {
			c.ops = append(c.ops, r.vbr(6))
		}
		if r.err != nil {
			return r.err
		}
		return nil
	}
	k := id - 4
	if k >= uint64(len(c.abbrevs)) {
		return malformed(r.pos, "record", "undefined abbreviation %d", id)
	}
	a := c.abbrevs[k]
	c.code = r.scalar(a.ops[0])
	for i := 1; i < len(a.ops) && r.err == nil; i++ {
		op := a.ops[i]
		switch op.enc {
		case encArray:
			n := r.vbr(6)
			elt := a.ops[i+1]
			if mb := elt.minBits(); mb > 0 && n > r.left()/mb {
				return malformed(r.pos, "record", "array of %d past the end", n)
			} else if mb == 0 && n > r.left()/8+64 {
				return malformed(r.pos, "record", "array of %d literals", n)
			}
			for j := uint64(0); j < n && r.err == nil; j++ {
				c.ops = append(c.ops, r.scalar(elt))
			}
			i++
		case encBlob:
			n := r.vbr(6)
			r.align32()
			if r.err != nil {
				break
			}
			if n > r.left()/8 {
				return malformed(r.pos, "record", "blob of %d bytes past the end", n)
			}
			start := r.pos / 8
			c.blob = r.buf[start : start+n]
			r.pos += n * 8
			r.align32()
		default:
			c.ops = append(c.ops, r.scalar(op))
		}
	}
	if r.err != nil {
		return r.err
	}
	return nil
}

// readBlockInfo reads a BLOCKINFO block (already entered) into c.blockInfo.
func (c *cursor) readBlockInfo() *Error {
	var cur []*abbrev
	haveBlock := false
	var curID uint64
	for {
		if c.r.pos >= c.end {
			return malformed(c.r.pos, "BLOCKINFO_BLOCK", "runs past its length")
		}
		a := c.r.read(c.width)
		if c.r.err != nil {
			return c.r.err
		}
		switch a {
		case abbrevEndBlock:
			if haveBlock {
				c.blockInfo[curID] = cur
			}
			c.r.align32()
			f := c.stack[len(c.stack)-1]
			c.stack = c.stack[:len(c.stack)-1]
			c.width, c.abbrevs, c.end = f.width, f.abbrevs, f.end
			return c.r.err
		case abbrevEnterBlock:
			return malformed(c.r.pos, "BLOCKINFO_BLOCK", "sub-block inside BLOCKINFO")
		case abbrevDefine:
			ab := c.r.readAbbrev()
			if c.r.err != nil {
				return c.r.err
			}
			if !haveBlock {
				return malformed(c.r.pos, "BLOCKINFO_BLOCK", "abbreviation before SETBID")
			}
			cur = append(cur, ab)
		default:
			if err := c.readRecord(a); err != nil {
				return err
			}
			switch c.code {
			case 1: // SETBID
				if len(c.ops) < 1 {
					return malformed(c.r.pos, "BLOCKINFO_BLOCK/SETBID", "no block id")
				}
				if haveBlock {
					c.blockInfo[curID] = cur
				}
				curID = c.ops[0]
				cur = c.blockInfo[curID]
				haveBlock = true
			case 2, 3: // BLOCKNAME, SETRECORDNAME: names only, not needed
			default:
				return &Error{Code: CodeUnknownRecord, Detail: recordName(0, c.code), Offset: int64(c.r.pos), Msg: "unknown BLOCKINFO record"}
			}
		}
	}
}

// eachRecord reads the records of the current block, which may hold no
// nested block, calling record with each record's code (its operands are
// in r.c.ops) until the block ends. A nested block is refused by name.
func (r *reader) eachRecord(record func(code uint64) *Error) *Error {
	c := r.c
	for {
		kind, code, err := c.next()
		if err != nil {
			return err
		}
		switch kind {
		case entryEnd:
			return nil
		case entryBlock:
			return unknownBlock(c.r.pos, code)
		}
		if err := record(code); err != nil {
			return err
		}
	}
}

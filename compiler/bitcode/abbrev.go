package bitcode

// Abbreviation operand encodings (the bitstream format's numbering).
const (
	encLiteral = 0
	encFixed   = 1
	encVBR     = 2
	encArray   = 3
	encChar6   = 4
	encBlob    = 5
)

type abbrevOp struct {
	enc uint8
	val uint64 // literal value, or width for fixed/vbr
}

type abbrev struct{ ops []abbrevOp }

const char6Table = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"

// readAbbrev reads a DEFINE_ABBREV body.
func (r *bitReader) readAbbrev() *abbrev {
	n := r.vbr(5)
	if n == 0 || n > r.left()/4 {
		r.fail("DEFINE_ABBREV", "bad operand count")
		return nil
	}
	a := &abbrev{ops: make([]abbrevOp, 0, n)}
	for i := uint64(0); i < n && r.err == nil; i++ {
		if r.read(1) == 1 {
			a.ops = append(a.ops, abbrevOp{enc: encLiteral, val: r.vbr(8)})
			continue
		}
		e := r.read(3)
		switch e {
		case encFixed, encVBR:
			w := r.vbr(5)
			if w > 64 || (e == encVBR && w < 2) {
				r.fail("DEFINE_ABBREV", "bad operand width")
				return nil
			}
			if w == 0 { // a zero-width field is the literal 0
				a.ops = append(a.ops, abbrevOp{enc: encLiteral})
				continue
			}
			a.ops = append(a.ops, abbrevOp{enc: uint8(e), val: w})
		case encArray, encChar6, encBlob:
			a.ops = append(a.ops, abbrevOp{enc: uint8(e)})
		default:
			r.fail("DEFINE_ABBREV", "unknown operand encoding")
			return nil
		}
	}
	// Array must be second to last and followed by its element; blob last.
	for i, op := range a.ops {
		switch op.enc {
		case encArray:
			if i != len(a.ops)-2 || a.ops[i+1].enc == encArray || a.ops[i+1].enc == encBlob {
				r.fail("DEFINE_ABBREV", "array not second to last")
				return nil
			}
		case encBlob:
			if i != len(a.ops)-1 {
				r.fail("DEFINE_ABBREV", "blob not last")
				return nil
			}
		}
	}
	if r.err != nil {
		return nil
	}
	if a.ops[0].enc == encArray || a.ops[0].enc == encBlob {
		r.fail("DEFINE_ABBREV", "record code is an array or blob")
		return nil
	}
	return a
}

func (r *bitReader) scalar(op abbrevOp) uint64 {
	switch op.enc {
	case encLiteral:
		return op.val
	case encFixed:
		return r.read(uint(op.val))
	case encVBR:
		return r.vbr(uint(op.val))
	case encChar6:
		return uint64(char6Table[r.read(6)])
	}
	r.fail("abbreviation", "non-scalar operand")
	return 0
}

// minBits is the fewest bits one element of this encoding takes.
func (op abbrevOp) minBits() uint64 {
	switch op.enc {
	case encLiteral:
		return 0
	case encChar6:
		return 6
	}
	return op.val
}

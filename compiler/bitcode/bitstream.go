package bitcode

import "encoding/binary"

// bitReader reads little-endian bit fields from a byte slice. Errors are
// sticky: after the first, reads return 0 and err stays set.
type bitReader struct {
	buf []byte
	pos uint64 // bit position
	end uint64 // bit length of buf
	err *Error
}

func newBitReader(b []byte) bitReader {
	return bitReader{buf: b, end: uint64(len(b)) * 8}
}

func (r *bitReader) left() uint64 {
	if r.pos >= r.end {
		return 0
	}
	return r.end - r.pos
}

func (r *bitReader) fail(detail, msg string) {
	if r.err == nil {
		r.err = malformed(r.pos, detail, "%s", msg)
	}
	r.pos = r.end
}

// read returns the next n bits (n <= 64).
func (r *bitReader) read(n uint) uint64 {
	if n == 0 {
		return 0
	}
	if uint64(n) > r.left() {
		r.fail("bitstream", "read past the end")
		return 0
	}
	i := r.pos >> 3
	sh := uint(r.pos & 7)
	var v uint64
	if i+8 <= uint64(len(r.buf)) {
		v = binary.LittleEndian.Uint64(r.buf[i:]) >> sh
		if n+sh > 64 {
			v |= uint64(r.buf[i+8]) << (64 - sh)
		}
	} else {
		for k := uint(0); i+uint64(k) < uint64(len(r.buf)) && k < 8; k++ {
			v |= uint64(r.buf[i+uint64(k)]) << (8 * k)
		}
		v >>= sh
	}
	r.pos += uint64(n)
	if n < 64 {
		v &= 1<<n - 1
	}
	return v
}

// vbr reads a variable-width value with n-bit chunks.
func (r *bitReader) vbr(n uint) uint64 {
	hi := uint64(1) << (n - 1)
	var v uint64
	var shift uint
	for {
		p := r.read(n)
		if r.err != nil {
			return 0
		}
		if shift < 64 {
			v |= (p &^ hi) << shift
		}
		if p&hi == 0 {
			return v
		}
		shift += n - 1
		if shift > 70 {
			r.fail("vbr", "value wider than 64 bits")
			return 0
		}
	}
}

// align32 moves to the next 32-bit boundary.
func (r *bitReader) align32() {
	p := (r.pos + 31) &^ 31
	if p > r.end {
		r.fail("bitstream", "alignment past the end")
		return
	}
	r.pos = p
}

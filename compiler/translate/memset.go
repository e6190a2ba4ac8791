package translate

import (
	"github.com/airpipe/airpipe/compiler/air"
	"github.com/airpipe/airpipe/compiler/spirv"
)

// maxMemsetBytes bounds the stores one llvm.memset unrolls into.
const maxMemsetBytes = 4096

// memsetBytes lowers llvm.memset(dst, i8 value, length, volatile) of a
// constant length (at most maxMemsetBytes), the value constant or not: the
// byte replicated over a word (value · 0x01010101) is stored to every whole
// word, and single bytes (sub-word stores, atomic in shared memory so that
// neighbouring bytes survive) where the range starts or ends inside a word.
// A constant offset tells which bytes those are; at a variable offset a
// length that is a multiple of 4 is stored as words (the word alignment
// every such memset in AIR has, as the translator has always assumed) and
// any other length byte by byte. A variable length is refused by name.
func (t *translator) memsetBytes(c *air.Call) bool {
	if len(c.Args) < 3 || intBits(c.Args[1].Type()) != 8 {
		return false
	}
	n, ok := c.Args[2].(*air.ConstInt)
	if !ok || n.Bits > maxMemsetBytes {
		t.miss.add(CodeUnhandledInstruction, "memset of a variable or large length")
		return true
	}
	dst := t.ptr(c.Args[0])
	if dst.root == nil || n.Bits == 0 {
		return true
	}
	u8, u32 := &air.IntType{Bits: 8}, &air.IntType{Bits: 32}
	var byteV, word spirv.ID
	if v, ok := c.Args[1].(*air.ConstInt); ok {
		b := uint32(v.Bits & 0xff)
		byteV, word = t.intConst(u8, uint64(b)), t.b.ConstantU32(b*0x01010101)
	} else {
		byteV = t.value(c.Args[1])
		w := t.f.Op(spirv.OpUConvert, t.u32, byteV)
		word = t.f.Op(spirv.OpIMul, t.u32, w, t.b.ConstantU32(0x01010101))
	}
	length := n.Bits
	var head, words uint64 // bytes before the first whole word, whole words
	switch {
	case dst.dyn == 0:
		head = uint64((4 - dst.cst%4) % 4)
		if head > length {
			head = length
		}
		words = (length - head) / 4
	case length%4 == 0:
		words = length / 4
	default:
		head = length
	}
	k := uint64(0)
	for ; k < head; k++ {
		t.store(dst, k, u8, byteV, 1)
	}
	for i := uint64(0); i < words; i, k = i+1, k+4 {
		t.store(dst, k, u32, word, 4)
	}
	for ; k < length; k++ {
		t.store(dst, k, u8, byteV, 1)
	}
	return true
}

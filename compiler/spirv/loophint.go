package spirv

import (
	"encoding/binary"
	"fmt"
)

// DontUnrollLoops returns a copy of the encoded module b in which every
// OpLoopMerge asks that its loop be kept a loop (LoopControl DontUnroll, with
// Unroll cleared; the other controls and their literals kept), and how many
// loops it marked. A loop whose control carries PartialCount, which the
// specification forbids beside DontUnroll, is left as it is.
//
// Loop controls are requests to the compiler (SPIR-V §3.23): a module
// computes the same with any of them. The emulator stage uses this to spare
// lavapipe the compile time of fully unrolled loops, which is most of its
// time on loop-heavy kernels. b must be whole little- or big-endian SPIR-V:
// a stream with another magic number, a partial word, an instruction of
// zero words or one running past the end is refused.
func DontUnrollLoops(b []byte) ([]byte, int, error) {
	if len(b) < 20 || len(b)%4 != 0 {
		return nil, 0, fmt.Errorf("spirv: %d bytes are not a SPIR-V module (a 5-word header and whole words)", len(b))
	}
	var order binary.ByteOrder = binary.LittleEndian
	switch {
	case binary.LittleEndian.Uint32(b) == MagicNumber:
	case binary.BigEndian.Uint32(b) == MagicNumber:
		order = binary.BigEndian
	default:
		return nil, 0, fmt.Errorf("spirv: magic number %#08x is not SPIR-V's", binary.LittleEndian.Uint32(b))
	}
	out := append([]byte(nil), b...)
	marked := 0
	for at := 20; at < len(out); {
		w := order.Uint32(out[at:])
		n, op := int(w>>16), Op(w&0xffff)
		if n == 0 {
			return nil, 0, fmt.Errorf("spirv: instruction at word %d (%s) has a word count of 0", at/4, op)
		}
		if at+4*n > len(out) {
			return nil, 0, fmt.Errorf("spirv: instruction at word %d (%s) has %d words, past the module's end", at/4, op, n)
		}
		if op == OpLoopMerge {
			if n < 4 {
				return nil, 0, fmt.Errorf("spirv: OpLoopMerge at word %d has %d words, fewer than its 4", at/4, n)
			}
			c := LoopControl(order.Uint32(out[at+12:]))
			if c&LoopControlPartialCount == 0 {
				order.PutUint32(out[at+12:], uint32(c&^LoopControlUnroll|LoopControlDontUnroll))
				marked++
			}
		}
		at += 4 * n
	}
	return out, marked, nil
}

package judge

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"

	"github.com/airpipe/airpipe/compiler/cpuref"
)

// canonicalNaN stands for every NaN of a float output in a digest: IEEE 754
// leaves a NaN's sign and payload open, so two devices that agree up to them
// agree (floatWord).
const canonicalNaN = 0x7fc00000

// Digest is the hex SHA-256 of what a device left in the outputs the
// reference compares (its Outputs, in order: index, length, words), with
// every NaN lane of a float, half or bfloat output made canonical (kindOfWord). Equal digests mean the two
// devices' outputs are equal as Compare would judge them.
func Digest(ref *cpuref.Result, got map[int][]byte) string {
	h := sha256.New()
	var buf []byte // an output's words, hashed in one write (word by word cost more than the hash)
	for _, o := range ref.Outputs {
		have := got[o.Index]
		buf = binary.LittleEndian.AppendUint32(buf[:0], uint32(o.Index))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(have)))
		kinds := kindsOf(ref.Kernel, o.Index)
		for w := 0; w*4 < len(have); w++ {
			buf = binary.LittleEndian.AppendUint32(buf, kinds.at(w).canonical(Word(have, w)))
		}
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// AgainstEmulator is the device stage's data value "matches_emulator": how
// its output compares with the emulator stage's for the same module.
func AgainstEmulator(emulator, device string) string {
	switch {
	case emulator == "":
		return "not compared (the emulator stage did not run this module to the end in this run)"
	case emulator == device:
		return "same"
	}
	return "differs (emulator output " + emulator[:min(16, len(emulator))] + "…)"
}

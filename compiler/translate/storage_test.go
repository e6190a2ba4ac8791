package translate

import (
	"encoding/binary"
	"testing"

	"github.com/airpipe/airpipe/compiler/spirv"
)

// capabilities lists the OpCapability operands of an encoded SPIR-V module.
func capabilities(b []byte) map[uint32]bool {
	words := make([]uint32, len(b)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	caps := map[uint32]bool{}
	for i := 5; i < len(words); {
		n, op := words[i]>>16, words[i]&0xffff
		if n == 0 {
			break
		}
		if op == uint32(spirv.OpCapability) && n == 2 && i+1 < len(words) {
			caps[words[i+1]] = true
		}
		i += int(n)
	}
	return caps
}

// TestStorageImageCapabilities: a write-only texture asks only for writes
// without a format; a read_write one for reads too (a driver without
// shaderStorageImageReadWithoutFormat can then still run the first).
func TestStorageImageCapabilities(t *testing.T) {
	for _, c := range []struct {
		file string
		read bool
	}{
		{"storage_write.ll", false},
		{"storage_read_write.ll", true},
	} {
		m, ep := fixtureEntry(t, c.file)
		out, err := Translate(m, ep)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		caps := capabilities(out.SPIRV)
		if !caps[uint32(spirv.CapabilityStorageImageWriteWithoutFormat)] {
			t.Errorf("%s: no StorageImageWriteWithoutFormat", c.file)
		}
		if caps[uint32(spirv.CapabilityStorageImageReadWithoutFormat)] != c.read {
			t.Errorf("%s: StorageImageReadWithoutFormat %v, want %v", c.file, !c.read, c.read)
		}
	}
}

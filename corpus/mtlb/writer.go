package mtlb

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Spec describes a library for Write. Header fields are written as given.
type Spec struct {
	Platform                 uint16
	FormatMajor, FormatMinor uint16
	LibraryType, TargetOS    uint8
	OSMajor, OSMinor         uint16
	Functions                []SpecFunction
}

// SpecFunction is one function for Write.
type SpecFunction struct {
	Name string
	Type uint8
	// Bitcode is an LLVM bitcode stream, raw ("BC" 0xC0DE) or already in its
	// 0x0B17C0DE wrapper; raw bitcode is wrapped.
	Bitcode                                  []byte
	AIRMajor, AIRMinor, LangMajor, LangMinor uint16
}

// wrapperCPUType is the CPU type field Apple's compiler writes in AIR
// bitcode wrappers.
const wrapperCPUType = 0xFFFFFFFF

// Wrap returns raw LLVM bitcode in a 0x0B17C0DE wrapper (version 0, CPU type
// 0xFFFFFFFF), padded with zeros to a multiple of 16 bytes as Apple's
// compiler does. Already wrapped bitcode is checked and returned as is.
func Wrap(bc []byte) ([]byte, error) {
	if len(bc) >= 4 && le.Uint32(bc) == WrapperMagic {
		if _, err := unwrap(bc, 0, "bitcode wrapper"); err != nil {
			return nil, err
		}
		return bc, nil
	}
	if !bytes.HasPrefix(bc, rawMagic) {
		return nil, errorf(0, "bitcode", "neither a 0x%08x wrapper nor raw bitcode (BC 0xC0DE)", WrapperMagic)
	}
	if len(bc) > math.MaxUint32-WrapperHeaderSize-16 {
		return nil, errorf(0, "bitcode", "0x%x bytes do not fit a 32-bit wrapper size", len(bc))
	}
	n := (WrapperHeaderSize + len(bc) + 15) &^ 15
	out := make([]byte, n)
	le.PutUint32(out[0:], WrapperMagic)
	le.PutUint32(out[4:], 0)
	le.PutUint32(out[8:], WrapperHeaderSize)
	le.PutUint32(out[12:], uint32(len(bc)))
	le.PutUint32(out[16:], wrapperCPUType)
	copy(out[WrapperHeaderSize:], bc)
	return out, nil
}

// Write writes the library s describes: header, function list (NAME, TYPE,
// HASH, MDSZ, OFFT, VERS), one empty public and private metadata group per
// function, and the wrapped bitcode. It has no header extension.
func Write(w io.Writer, s *Spec) error {
	b, err := Marshal(s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal returns the bytes Write writes.
func Marshal(s *Spec) ([]byte, error) {
	if s == nil {
		return nil, errors.New("mtlb: nil Spec")
	}
	if uint64(len(s.Functions)) > math.MaxUint32 {
		return nil, fmt.Errorf("mtlb: %d functions do not fit a 32-bit count", len(s.Functions))
	}
	modules := make([][]byte, len(s.Functions))
	var bcSize uint64
	for i, f := range s.Functions {
		if f.Name == "" || bytes.IndexByte([]byte(f.Name), 0) >= 0 || len(f.Name)+1 > math.MaxUint16 {
			return nil, fmt.Errorf("mtlb: function[%d]: name %q must be non-empty, NUL-free and shorter than 64 KiB", i, f.Name)
		}
		m, err := Wrap(f.Bitcode)
		if err != nil {
			return nil, fmt.Errorf("mtlb: function[%d] %q: %w", i, f.Name, err)
		}
		modules[i] = m
		bcSize += uint64(len(m))
	}

	var fl bytes.Buffer
	var bcOff uint64
	for i, f := range s.Functions {
		var g bytes.Buffer
		g.Write([]byte{0, 0, 0, 0}) // group size, patched below
		putTag(&g, "NAME", append([]byte(f.Name), 0))
		putTag(&g, "TYPE", []byte{f.Type})
		h := sha256.Sum256(modules[i])
		putTag(&g, "HASH", h[:])
		putTag(&g, "MDSZ", binary.LittleEndian.AppendUint64(nil, uint64(len(modules[i]))))
		offt := binary.LittleEndian.AppendUint64(nil, uint64(i)*8)
		offt = binary.LittleEndian.AppendUint64(offt, uint64(i)*8)
		offt = binary.LittleEndian.AppendUint64(offt, bcOff)
		putTag(&g, "OFFT", offt)
		vers := binary.LittleEndian.AppendUint16(nil, f.AIRMajor)
		vers = binary.LittleEndian.AppendUint16(vers, f.AIRMinor)
		vers = binary.LittleEndian.AppendUint16(vers, f.LangMajor)
		vers = binary.LittleEndian.AppendUint16(vers, f.LangMinor)
		putTag(&g, "VERS", vers)
		g.WriteString(tagEnd)
		gb := g.Bytes()
		le.PutUint32(gb, uint32(len(gb)))
		fl.Write(gb)
		bcOff += uint64(len(modules[i]))
	}

	// An empty metadata group: its size (8) and ENDT.
	emptyGroup := append(binary.LittleEndian.AppendUint32(nil, 8), tagEnd...)
	n := uint64(len(s.Functions))
	flOff := uint64(HeaderSize)
	flSize := uint64(fl.Len())
	pubOff := flOff + 4 + flSize
	mdSize := n * uint64(len(emptyGroup))
	privOff := pubOff + mdSize
	bcStart := privOff + mdSize
	fileSize := bcStart + bcSize

	out := make([]byte, HeaderSize, fileSize)
	copy(out, Magic)
	le.PutUint16(out[4:], s.Platform)
	le.PutUint16(out[6:], s.FormatMajor)
	le.PutUint16(out[8:], s.FormatMinor)
	out[10] = s.LibraryType
	out[11] = s.TargetOS
	le.PutUint16(out[12:], s.OSMajor)
	le.PutUint16(out[14:], s.OSMinor)
	le.PutUint64(out[16:], fileSize)
	for i, v := range []uint64{flOff, flSize, pubOff, mdSize, privOff, mdSize, bcStart, bcSize} {
		le.PutUint64(out[24+8*i:], v)
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	out = append(out, fl.Bytes()...)
	for range 2 {
		for range n {
			out = append(out, emptyGroup...)
		}
	}
	for _, m := range modules {
		out = append(out, m...)
	}
	return out, nil
}

// putTag appends a tag with a 16-bit size; callers keep content under 64 KiB.
func putTag(b *bytes.Buffer, name string, content []byte) {
	b.WriteString(name)
	b.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(content))))
	b.Write(content)
}

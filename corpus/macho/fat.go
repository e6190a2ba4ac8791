package macho

import (
	"encoding/binary"
	"errors"
)

// Fat binary magics. A Metal fat binary starts with the bytes CB FE BA BE;
// its table has been described with both byte orders, so both are tried.
const (
	MagicFat      = 0xcafebabe
	MagicFat64    = 0xcafebabf
	MagicFatMetal = 0xcbfebabe
)

// MaxSlices caps the slice count a fat header may declare; real binaries
// have a handful, and Java class files (which share 0xcafebabe) are refused
// by it or by the slice checks.
const MaxSlices = 64

// Slice is one architecture of a fat binary, or the whole of a thin one.
type Slice struct {
	// Offset and Size locate the slice in the input.
	Offset, Size        int64
	CPUType, CPUSubtype uint32
	Align               uint32
	// Image is the slice parsed as Mach-O; nil when the slice is not a
	// Mach-O (an AIR64 slice holds a Metal library) or failed to parse (Err).
	Image *Image
	// Err says why a slice starting with a Mach-O magic did not parse.
	Err error
}

// Arch is the slice's architecture name (see [ArchName]).
func (s Slice) Arch() string { return ArchName(s.CPUType, s.CPUSubtype) }

// fatLayout recognises a fat magic and returns the table entry size and
// the byte orders to try for the table.
func fatLayout(b []byte) (entry int, orders []binary.ByteOrder, ok bool) {
	if len(b) < 4 {
		return 0, nil, false
	}
	switch binary.BigEndian.Uint32(b) {
	case MagicFat:
		return 20, []binary.ByteOrder{binary.BigEndian}, true
	case MagicFat64:
		return 32, []binary.ByteOrder{binary.BigEndian}, true
	case MagicFatMetal:
		return 20, []binary.ByteOrder{binary.LittleEndian, binary.BigEndian}, true
	}
	if binary.LittleEndian.Uint32(b) == MagicFatMetal {
		return 20, []binary.ByteOrder{binary.LittleEndian, binary.BigEndian}, true
	}
	return 0, nil, false
}

// parseFat reads a fat header and its slices. Slices that are Mach-O
// images are parsed; a slice that fails keeps its error in Slice.Err.
func parseFat(data []byte) ([]Slice, error) {
	entry, orders, ok := fatLayout(data)
	if !ok {
		return nil, errorf(0, "fat header", "no fat magic")
	}
	var errs []error
	for _, order := range orders {
		s, err := fatTable(data, entry, order)
		if err == nil {
			return s, nil
		}
		errs = append(errs, err)
	}
	if len(errs) == 1 {
		return nil, errs[0]
	}
	return nil, errors.Join(errs...)
}

// fatTable reads the slice table in one byte order.
func fatTable(data []byte, entry int, order binary.ByteOrder) ([]Slice, error) {
	if len(data) < 8 {
		return nil, errorf(0, "fat header", "0x%x bytes, shorter than the 8-byte header", len(data))
	}
	n := order.Uint32(data[4:])
	if n == 0 || n > MaxSlices {
		return nil, errorf(4, "fat header nfat_arch", "%d slices outside [1, %d] (%s)", n, MaxSlices, order)
	}
	table := 8 + int(n)*entry
	if table > len(data) {
		return nil, errorf(4, "fat header nfat_arch", "%d entries of 0x%x bytes run past 0x%x bytes (%s)", n, entry, len(data), order)
	}
	slices := make([]Slice, 0, n)
	for i := 0; i < int(n); i++ {
		e := data[8+i*entry:]
		s := Slice{CPUType: order.Uint32(e), CPUSubtype: order.Uint32(e[4:])}
		var off, size uint64
		if entry == 32 {
			off, size, s.Align = order.Uint64(e[8:]), order.Uint64(e[16:]), order.Uint32(e[24:])
		} else {
			off, size, s.Align = uint64(order.Uint32(e[8:])), uint64(order.Uint32(e[12:])), order.Uint32(e[16:])
		}
		at := int64(8 + i*entry)
		if off < uint64(table) || !span(off, size, len(data)) || size == 0 {
			return nil, errorf(at, "fat slice "+ArchName(s.CPUType, s.CPUSubtype), "offset 0x%x size 0x%x outside [0x%x, 0x%x] (%s)", off, size, table, len(data), order)
		}
		s.Offset, s.Size = int64(off), int64(size)
		if _, _, thin := isThin(data[off:]); thin {
			s.Image, s.Err = parseImage(data, int(off), int(off+size), int(off))
		}
		slices = append(slices, s)
	}
	return slices, nil
}

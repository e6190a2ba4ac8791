package mtlb

import (
	"crypto/sha256"
	"encoding/binary"
)

// This file builds handcrafted libraries for tests: layouts the Writer does
// not produce (no MDSZ, header extensions, dynamic headers, unknown tags,
// embedded source) assembled tag by tag.

// rawTag is one tag to assemble; wide selects a 32-bit size field.
type rawTag struct {
	name string
	data []byte
	wide bool
}

// rawLib describes a library to assemble. Sections are laid out in order:
// header, function list, extension, public metadata, private metadata,
// bitcode, then tail. ext receives the tail's file offset so extension tags
// can point into it.
type rawLib struct {
	platform              uint16
	major, minor          uint16
	libType, targetOS     uint8
	osMajor, osMinor      uint16
	funcs                 [][]rawTag
	ext                   func(tailOff uint64) []rawTag // nil: no extension
	pub, priv             [][]rawTag                    // metadata groups
	groupSizeExcludesENDT bool                          // older metadata layout
	bitcode               []byte
	tail                  []byte
}

func u16b(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func u32b(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func u64b(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

// tagBytes encodes tags followed by ENDT.
func tagBytes(tags []rawTag) []byte {
	var b []byte
	for _, t := range tags {
		b = append(b, t.name...)
		if t.wide {
			b = append(b, u32b(uint32(len(t.data)))...)
		} else {
			b = append(b, u16b(uint16(len(t.data)))...)
		}
		b = append(b, t.data...)
	}
	return append(b, "ENDT"...)
}

// groupBytes encodes a tag group; its size counts ENDT unless excludeEnd.
func groupBytes(tags []rawTag, excludeEnd bool) []byte {
	body := tagBytes(tags)
	size := 4 + len(body)
	if excludeEnd {
		size -= 4
	}
	return append(u32b(uint32(size)), body...)
}

// assemble lays out l.
func assemble(l rawLib) []byte {
	var fl []byte
	for _, f := range l.funcs {
		fl = append(fl, groupBytes(f, false)...)
	}
	flOff := uint64(HeaderSize)
	extOff := flOff + 4 + uint64(len(fl))
	var pub, priv []byte
	for _, g := range l.pub {
		pub = append(pub, groupBytes(g, l.groupSizeExcludesENDT)...)
	}
	for _, g := range l.priv {
		priv = append(priv, groupBytes(g, l.groupSizeExcludesENDT)...)
	}
	// The extension's size does not depend on the offsets it holds.
	var ext []byte
	if l.ext != nil {
		ext = tagBytes(l.ext(0))
	}
	pubOff := extOff + uint64(len(ext))
	privOff := pubOff + uint64(len(pub))
	bcOff := privOff + uint64(len(priv))
	tailOff := bcOff + uint64(len(l.bitcode))
	if l.ext != nil {
		ext = tagBytes(l.ext(tailOff))
	}
	size := tailOff + uint64(len(l.tail))
	h := []byte(Magic)
	h = append(h, u16b(l.platform)...)
	h = append(h, u16b(l.major)...)
	h = append(h, u16b(l.minor)...)
	h = append(h, l.libType, l.targetOS)
	h = append(h, u16b(l.osMajor)...)
	h = append(h, u16b(l.osMinor)...)
	h = append(h, u64b(size, flOff, uint64(len(fl)), pubOff, uint64(len(pub)), privOff, uint64(len(priv)), bcOff, uint64(len(l.bitcode)))...)
	out := append(h, u32b(uint32(len(l.funcs)))...)
	out = append(out, fl...)
	out = append(out, ext...)
	out = append(out, pub...)
	out = append(out, priv...)
	out = append(out, l.bitcode...)
	return append(out, l.tail...)
}

// fakeModule returns a small wrapped "module": a wrapper around raw-bitcode
// magic and n filler bytes (distinct per seed), padded to 16 bytes.
func fakeModule(seed byte, n int) []byte {
	raw := append([]byte{'B', 'C', 0xC0, 0xDE}, make([]byte, n)...)
	for i := 4; i < len(raw); i++ {
		raw[i] = seed + byte(i)
	}
	m, err := Wrap(raw)
	if err != nil {
		panic(err)
	}
	return m
}

// funcTags returns the usual tags of a function whose module m lies at
// bitcode offset off; mdsz selects whether MDSZ is written.
func funcTags(name string, typ uint8, m []byte, off, pubOff, privOff uint64, mdsz bool) []rawTag {
	h := sha256.Sum256(m)
	tags := []rawTag{
		{name: "NAME", data: append([]byte(name), 0)},
		{name: "TYPE", data: []byte{typ}},
		{name: "HASH", data: h[:]},
		{name: "OFFT", data: u64b(pubOff, privOff, off)},
		{name: "VERS", data: append(append(u16b(2), u16b(6)...), append(u16b(3), u16b(1)...)...)},
	}
	if mdsz {
		tags = append(tags, rawTag{name: "MDSZ", data: u64b(uint64(len(m)))})
	}
	return tags
}

// oldStyle assembles a library without MDSZ or extension: two functions
// whose slices run to the next offset, metadata groups sized without ENDT.
func oldStyle() []byte {
	m0, m1 := fakeModule(1, 60), fakeModule(2, 90)
	pub0 := []rawTag{{name: "VATT", data: append(append(u16b(1), "pos\x00"...), 0x00, 0x80)}, {name: "VATY", data: append(u16b(1), 6)}}
	return assemble(rawLib{
		platform: PlatformIOS, major: 2, minor: 2,
		funcs: [][]rawTag{
			funcTags("vs", FunctionVertex, m0, 0, 0, 0, false),
			funcTags("fs", FunctionFragment, m1, uint64(len(m0)), uint64(len(groupBytes(pub0, true))), 8, false),
		},
		pub:                   [][]rawTag{pub0, {}},
		priv:                  [][]rawTag{{}, {{name: "DEPF", data: []byte("/tmp/a.air\x00")}}},
		groupSizeExcludesENDT: true,
		bitcode:               append(append([]byte{}, m0...), m1...),
	})
}

// sourceSection encodes an embedded source section (HSRD layout): count,
// link options, working directory, one SARC group per archive whose size
// leaves out ENDT, as Apple's linker writes it.
func sourceSection(archives map[string][]byte, ids ...string) []byte {
	b := u32b(uint32(len(ids)))
	b = append(b, "air-lld -o x.metallib\x00"...)
	b = append(b, "/work/dir\x00"...)
	for _, id := range ids {
		b = append(b, groupBytes([]rawTag{{name: "SARC", data: append([]byte(id+"\x00"), archives[id]...), wide: true}}, true)...)
	}
	return b
}

// modernStyle assembles a library with MDSZ, a header extension (HSRD,
// HDYN, RLST, UUID and an unknown ZZZZ tag), per-function SOFF, RFLT, LAYR,
// TESS and an unknown function tag QQQQ. archive is a bzip2 tar stream.
func modernStyle(archive []byte) []byte {
	m0, m1 := fakeModule(3, 100), fakeModule(4, 40)
	src := sourceSection(map[string][]byte{"0": archive}, "0")
	dyn := tagBytes([]rawTag{{name: "NAME", data: []byte("lib.metallib\x00")}, {name: "DYNL", data: []byte("other.metallib\x00")}})
	rl := append(u32b(2), groupBytes([]rawTag{{name: "RBUF", data: []byte("reflection-0"), wide: true}}, false)...)
	rflt1 := uint64(len(rl))
	rl = append(rl, groupBytes([]rawTag{{name: "RBUF", data: []byte("reflection-1"), wide: true}}, false)...)
	f0 := funcTags("main0", FunctionKernel, m0, 0, 0, 0, true)
	f0 = append(f0, rawTag{name: "SOFF", data: u64b(4 + 22 + 10 + 4)}, rawTag{name: "RFLT", data: u64b(4)}, rawTag{name: "QQQQ", data: []byte{1, 2, 3}})
	pub0 := []rawTag{{name: "CNST", data: append(append(u16b(1), "k\x00"...), 3, 2, 0, 1)}}
	f1 := funcTags("mesh0", FunctionMesh, m1, uint64(len(m0)), uint64(len(groupBytes(pub0, false))), 8, true)
	f1 = append(f1, rawTag{name: "LAYR", data: []byte{33}}, rawTag{name: "TESS", data: []byte{3<<2 | 1}}, rawTag{name: "RFLT", data: u64b(rflt1)})
	uuid := []byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}
	return assemble(rawLib{
		platform: PlatformMacOS, major: 2, minor: 9, targetOS: 0x8b, osMajor: 2, osMinor: 0,
		funcs: [][]rawTag{f0, f1},
		ext: func(tail uint64) []rawTag {
			return []rawTag{
				{name: "HSRD", data: u64b(tail, uint64(len(src)))},
				{name: "HDYN", data: u64b(tail+uint64(len(src)), uint64(len(dyn)))},
				{name: "RLST", data: u64b(tail+uint64(len(src)+len(dyn)), uint64(len(rl)))},
				{name: "UUID", data: uuid},
				{name: "ZZZZ", data: []byte{9}},
			}
		},
		pub:     [][]rawTag{pub0, {}},
		priv:    [][]rawTag{{}, {}},
		bitcode: append(append([]byte{}, m0...), m1...),
		tail:    append(append(src, dyn...), rl...),
	})
}

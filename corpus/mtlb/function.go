package mtlb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Function is one entry of the function list with its bitcode slice.
type Function struct {
	Index int `json:"index"`
	// Offset is the file offset of the function's tag group.
	Offset int64  `json:"offset"`
	Name   string `json:"name"`
	Type   uint8  `json:"type"`
	// Hash is the HASH tag: the SHA-256 the library declares for Bitcode.
	Hash    [32]byte `json:"-"`
	HasHash bool     `json:"has_hash"`
	// PublicMDOffset, PrivateMDOffset and BitcodeOffset are the OFFT tag:
	// offsets into the public metadata, private metadata and bitcode sections.
	PublicMDOffset  uint64 `json:"public_md_offset"`
	PrivateMDOffset uint64 `json:"private_md_offset"`
	BitcodeOffset   uint64 `json:"bitcode_offset"`
	// BitcodeSize is MDSZ when HasMDSZ, else the distance to the next
	// function's bitcode offset or the bitcode section's end.
	BitcodeSize uint64 `json:"bitcode_size"`
	HasMDSZ     bool   `json:"has_mdsz"`
	// SourceOffset is SOFF: an offset into the embedded source section.
	SourceOffset *uint64 `json:"source_offset,omitempty"`
	// SourceArchive is the ID of the embedded source archive SOFF points to.
	SourceArchive string `json:"source_archive,omitempty"`
	// Reflection is the index in Library.Reflection of the RLST group the
	// undocumented RFLT tag points to; nil without one.
	Reflection *int   `json:"reflection,omitempty"`
	AIRMajor   uint16 `json:"air_major"`
	AIRMinor   uint16 `json:"air_minor"`
	LangMajor  uint16 `json:"lang_major"`
	LangMinor  uint16 `json:"lang_minor"`
	HasVersion bool   `json:"has_version"`
	// Layer is LAYR: the data type code of render_target_array_index.
	Layer *uint8 `json:"layer,omitempty"`
	// Tess is TESS: controlPointCount << 2 | patchType.
	Tess *uint8 `json:"tess,omitempty"`
	// Tags are every tag of the function's group in order, unknown ones included.
	Tags []Tag `json:"tags"`
	// PublicMetadata and PrivateMetadata are the tags of the function's
	// metadata groups.
	PublicMetadata  []Tag `json:"public_metadata,omitempty"`
	PrivateMetadata []Tag `json:"private_metadata,omitempty"`
	// Bitcode is the function's slice of the bitcode section (still in its
	// wrapper); nil when it is out of bounds.
	Bitcode []byte `json:"-"`
	// Unknown names the undocumented features of this function: its own
	// tags, type code and metadata tags (a subset of Library.Unknown).
	Unknown []string `json:"unknown,omitempty"`
	// Problem is a failure of this function only (a bad tag, a slice out of
	// bounds); nil when the function is sound.
	Problem *FormatError `json:"problem,omitempty"`
}

// TypeName names the function's TYPE code.
func (f *Function) TypeName() string { return FunctionTypeName(f.Type) }

// HashMatches reports whether the SHA-256 of Bitcode equals the HASH tag. It
// is false when either is missing.
func (f *Function) HashMatches() bool {
	if !f.HasHash || f.Bitcode == nil {
		return false
	}
	return sha256.Sum256(f.Bitcode) == f.Hash
}

// BitcodeSHA256 returns the hex SHA-256 of Bitcode, "" when Bitcode is nil.
func (f *Function) BitcodeSHA256() string {
	if f.Bitcode == nil {
		return ""
	}
	s := sha256.Sum256(f.Bitcode)
	return hex.EncodeToString(s[:])
}

// MarshalJSON adds the hash in hex, the bitcode's actual size and SHA-256,
// whether they match, and the type's name to the exported fields.
func (f *Function) MarshalJSON() ([]byte, error) {
	type plain Function
	var hash string
	if f.HasHash {
		hash = hex.EncodeToString(f.Hash[:])
	}
	return json.Marshal(struct {
		*plain
		TypeName      string `json:"type_name"`
		Hash          string `json:"hash,omitempty"`
		BitcodeBytes  int    `json:"bitcode_bytes"`
		BitcodeSHA256 string `json:"bitcode_sha256,omitempty"`
		HashMatches   bool   `json:"hash_matches"`
	}{(*plain)(f), f.TypeName(), hash, len(f.Bitcode), f.BitcodeSHA256(), f.HashMatches()})
}

// WrapperMagic is the first word of an LLVM bitcode wrapper header.
const WrapperMagic uint32 = 0x0B17C0DE

// WrapperHeaderSize is the size of the bitcode wrapper header: magic,
// version, offset, size and CPU type, 32 bits each.
const WrapperHeaderSize = 20

// rawMagic starts every raw LLVM bitcode stream: "BC" 0xC0DE.
var rawMagic = []byte{'B', 'C', 0xC0, 0xDE}

// RawBitcode strips the bitcode wrapper header and returns the raw LLVM
// bitcode stream it points to, checking magic, offset and size.
func (f *Function) RawBitcode() ([]byte, error) {
	construct := fmt.Sprintf("function[%d] %q bitcode wrapper", f.Index, f.Name)
	return unwrap(f.Bitcode, int64(f.BitcodeOffset), construct)
}

// unwrap returns the stream a bitcode wrapper at b points to. base is b's
// position, for error offsets.
func unwrap(b []byte, base int64, construct string) ([]byte, error) {
	if len(b) < WrapperHeaderSize {
		return nil, errorf(base, construct, "0x%x bytes, shorter than the 0x%x-byte wrapper header", len(b), WrapperHeaderSize)
	}
	if m := le.Uint32(b); m != WrapperMagic {
		return nil, errorf(base, construct, "magic 0x%08x, want 0x%08x", m, WrapperMagic)
	}
	off, size := uint64(le.Uint32(b[8:])), uint64(le.Uint32(b[12:]))
	start, end, ok := span(off, size, len(b))
	if !ok || start < WrapperHeaderSize {
		return nil, errorf(base+8, construct, "stream offset 0x%x size 0x%x outside the 0x%x-byte slice", off, size, len(b))
	}
	raw := b[start:end:end]
	if !bytes.HasPrefix(raw, rawMagic) {
		return nil, errorf(base+int64(start), construct, "stream does not start with BC 0xC0DE")
	}
	return raw, nil
}

// decodeFunctionTags fills f's fields from f.Tags. A known tag with the
// wrong size becomes f.Problem; unknown tags are reported through unknown.
func decodeFunctionTags(f *Function, unknown func(string)) {
	var hasOFFT, hasName bool
	for _, t := range f.Tags {
		want := -1
		switch t.Name {
		case "NAME":
			s, _, ok := cString(t.Data)
			if !ok {
				f.problem(t, "name is not NUL-terminated")
				s = string(t.Data)
			}
			f.Name, hasName = s, true
		case "TYPE":
			want = 1
			if len(t.Data) == want {
				f.Type = t.Data[0]
				if !documentedFunctionType(f.Type) {
					unknown(fmt.Sprintf("container.function_type.%d", f.Type))
				}
			}
		case "HASH":
			want = 32
			if len(t.Data) == want {
				copy(f.Hash[:], t.Data)
				f.HasHash = true
			}
		case "MDSZ":
			want = 8
			if len(t.Data) == want {
				f.BitcodeSize, f.HasMDSZ = le.Uint64(t.Data), true
			}
		case "OFFT":
			want = 24
			if len(t.Data) == want {
				f.PublicMDOffset = le.Uint64(t.Data)
				f.PrivateMDOffset = le.Uint64(t.Data[8:])
				f.BitcodeOffset = le.Uint64(t.Data[16:])
				hasOFFT = true
			}
		case "SOFF":
			want = 8
			if len(t.Data) == want {
				v := le.Uint64(t.Data)
				f.SourceOffset = &v
			}
		case "VERS":
			want = 8
			if len(t.Data) == want {
				f.AIRMajor, f.AIRMinor = le.Uint16(t.Data), le.Uint16(t.Data[2:])
				f.LangMajor, f.LangMinor = le.Uint16(t.Data[4:]), le.Uint16(t.Data[6:])
				f.HasVersion = true
			}
		case "LAYR":
			want = 1
			if len(t.Data) == want {
				v := t.Data[0]
				f.Layer = &v
			}
		case "TESS":
			want = 1
			if len(t.Data) == want {
				v := t.Data[0]
				f.Tess = &v
			}
		default:
			unknown("container.tag." + printableTag(t.Name))
		}
		if want >= 0 && len(t.Data) != want {
			f.problem(t, fmt.Sprintf("content size 0x%x, want 0x%x", len(t.Data), want))
		}
	}
	if !hasName && f.Problem == nil {
		f.Problem = errorf(f.Offset, fmt.Sprintf("function[%d]", f.Index), "no NAME tag")
	}
	if !hasOFFT && f.Problem == nil {
		f.Problem = errorf(f.Offset, fmt.Sprintf("function[%d] %q", f.Index, f.Name), "no OFFT tag")
	}
}

// problem records the function's first problem, found in tag t.
func (f *Function) problem(t Tag, msg string) {
	if f.Problem == nil {
		f.Problem = errorf(t.Offset, fmt.Sprintf("function[%d] tag %s", f.Index, printableTag(t.Name)), "%s", msg)
	}
}

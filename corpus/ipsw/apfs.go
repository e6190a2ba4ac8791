package ipsw

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"sort"
)

// APFS checks made without 7-Zip. Object layout from Apple's "Apple File
// System Reference": every object starts with obj_phys_t (Fletcher-64
// checksum, oid, xid, type, subtype: 32 bytes); the container superblock
// has magic "NXSB" at byte 32 and nx_block_size at 36; a volume superblock
// has magic "APSB" at 32, apfs_fs_flags at 264 and apfs_volname at 704.

const (
	apfsMinBlock        = 4096
	apfsTypeNXSuper     = 0x0001
	apfsTypeFSSuper     = 0x000d
	apfsFSUnencrypted   = 0x1
	apfsVolnameOffset   = 704
	apfsFSFlagsOffset   = 264
	apfsMaxScannedBytes = 1 << 30
)

// apfsChecksumOK checks an object's Fletcher-64 checksum (its first 8
// bytes, over the rest of the block).
func apfsChecksumOK(block []byte) bool {
	if len(block) < 32 || len(block)%4 != 0 {
		return false
	}
	const mod = 0xffffffff
	var sum1, sum2 uint64
	for i := 8; i < len(block); i += 4 {
		sum1 = (sum1 + uint64(binary.LittleEndian.Uint32(block[i:]))) % mod
		sum2 = (sum2 + sum1) % mod
	}
	c1 := mod - (sum1+sum2)%mod
	c2 := mod - (sum1+c1)%mod
	return binary.LittleEndian.Uint64(block) == c2<<32|c1
}

// apfsObject reports whether block is a valid object of the given type
// with the given magic at byte 32.
func apfsObject(block []byte, typ uint32, magic string) bool {
	return len(block) >= 36 && string(block[32:36]) == magic &&
		binary.LittleEndian.Uint32(block[24:])&0xffff == typ && apfsChecksumOK(block)
}

// containerBlockInFile looks for 7-Zip's APFS sparse-file defect in an
// extracted file: 7-Zip reads a hole (a file extent with physical address
// 0) from the container's first blocks, so each hole starts with a copy of
// the container superblock. It returns the offset of the first aligned
// 4096-byte block that is a checksummed container superblock, or -1.
func containerBlockInFile(p string) (int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	block := make([]byte, apfsMinBlock)
	for off := int64(0); ; off += apfsMinBlock {
		n, err := io.ReadFull(f, block)
		if n == apfsMinBlock && apfsObject(block, apfsTypeNXSuper, "NXSB") {
			return off, nil
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return -1, nil
		}
		if err != nil {
			return -1, err
		}
	}
}

// apfsEncryptedVolumes reports the names of the encrypted volumes of the
// raw APFS container at p: it scans the container (up to 1 GiB) for
// checksummed volume superblocks, keeps the newest of each volume index
// and names those without APFS_FS_UNENCRYPTED. ok is false when p does not
// start with an APFS container superblock.
func apfsEncryptedVolumes(p string) (names []string, ok bool, err error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	first := make([]byte, apfsMinBlock)
	if _, err := io.ReadFull(f, first); err != nil || !apfsObject(first, apfsTypeNXSuper, "NXSB") {
		return nil, false, nil
	}
	bs := int64(binary.LittleEndian.Uint32(first[36:]))
	if bs < apfsMinBlock || bs > 65536 || bs&(bs-1) != 0 {
		return nil, true, errors.New("APFS container superblock: bad block size")
	}
	type vol struct {
		xid       uint64
		encrypted bool
		name      string
	}
	newest := map[uint32]vol{}
	block := make([]byte, bs)
	for off := int64(0); off < apfsMaxScannedBytes; off += bs {
		if _, err := f.ReadAt(block, off); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, true, err
		}
		if !apfsObject(block, apfsTypeFSSuper, "APSB") {
			continue
		}
		idx := binary.LittleEndian.Uint32(block[36:])
		xid := binary.LittleEndian.Uint64(block[16:])
		if v, seen := newest[idx]; seen && v.xid >= xid {
			continue
		}
		name := block[apfsVolnameOffset : apfsVolnameOffset+256]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		newest[idx] = vol{xid: xid, encrypted: binary.LittleEndian.Uint64(block[apfsFSFlagsOffset:])&apfsFSUnencrypted == 0, name: string(name)}
	}
	for _, v := range newest {
		if v.encrypted {
			names = append(names, v.name)
		}
	}
	sort.Strings(names)
	return names, true, nil
}

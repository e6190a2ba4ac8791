package ipsw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf16"
)

// HFS+ hard links. 7-Zip lists an HFS+ hard link as an empty file: the
// catalog record of each link is a file of type 'hlnk' and creator 'hfs+'
// whose data lives in "<volume>/[HFS+ Private Data]/iNode<N>", N being the
// record's permissions.special field (Apple TN1150, "Hard Links"). The
// catalog is read here to map each link to its inode file; 7-Zip then
// extracts the inode file under the link's name.

// hfsPrivateDir is the name 7-Zip gives the HFS+ private metadata folder.
const hfsPrivateDir = "[HFS+ Private Data]"

// hfsInodePath is the 7-Zip path of inode n's file in a volume whose
// folder 7-Zip names vol.
func hfsInodePath(vol string, n uint32) string {
	return path.Join(vol, hfsPrivateDir, fmt.Sprintf("iNode%d", n))
}

// hfsHardLinks reads the catalog of the HFS+ or HFSX volume in r and
// returns its hard links: path below the volume root (slash-separated,
// without the volume name) -> inode number.
func hfsHardLinks(r io.ReaderAt) (map[string]uint32, error) {
	vh := make([]byte, 512)
	if _, err := r.ReadAt(vh, 1024); err != nil {
		return nil, fmt.Errorf("HFS+ volume header: %w", err)
	}
	if sig := string(vh[:2]); sig != "H+" && sig != "HX" {
		return nil, fmt.Errorf("HFS+ volume header: signature %q", sig)
	}
	blockSize := int64(binary.BigEndian.Uint32(vh[40:]))
	if blockSize < 512 || blockSize&(blockSize-1) != 0 {
		return nil, fmt.Errorf("HFS+ volume header: block size %d", blockSize)
	}
	// catalogFile fork: logicalSize, clumpSize, totalBlocks, 8 extents.
	fork := vh[0x110:]
	logical := int64(binary.BigEndian.Uint64(fork))
	totalBlocks := int64(binary.BigEndian.Uint32(fork[12:]))
	var ext []hfsExtent
	var covered int64
	for i := range 8 {
		e := hfsExtent{start: int64(binary.BigEndian.Uint32(fork[16+8*i:])), count: int64(binary.BigEndian.Uint32(fork[20+8*i:]))}
		if e.count == 0 {
			break
		}
		ext = append(ext, e)
		covered += e.count
	}
	if covered < totalBlocks {
		return nil, fmt.Errorf("HFS+ catalog: %d of its %d blocks are in the extents overflow file, which is not read", totalBlocks-covered, totalBlocks)
	}
	cat := &hfsFork{r: r, blockSize: blockSize, extents: ext, size: logical}
	head := make([]byte, 512)
	if err := cat.read(head, 0); err != nil {
		return nil, fmt.Errorf("HFS+ catalog header node: %w", err)
	}
	if int8(head[8]) != 1 { // kBTHeaderNode
		return nil, fmt.Errorf("HFS+ catalog: node 0 is of kind %d, not a header node", int8(head[8]))
	}
	firstLeaf := binary.BigEndian.Uint32(head[14+10:])
	nodeSize := int64(binary.BigEndian.Uint16(head[14+18:]))
	totalNodes := int64(binary.BigEndian.Uint32(head[14+22:]))
	if nodeSize < 512 || nodeSize > 32768 || totalNodes*nodeSize > logical {
		return nil, fmt.Errorf("HFS+ catalog: node size %d, %d nodes, in %d bytes", nodeSize, totalNodes, logical)
	}

	type named struct {
		parent uint32
		name   string
	}
	folders := map[uint32]named{}
	type link struct {
		named
		inode uint32
	}
	var links []link
	node := make([]byte, nodeSize)
	seen := map[uint32]bool{}
	for n := firstLeaf; n != 0; n = binary.BigEndian.Uint32(node[0:]) {
		if seen[n] || int64(n) >= totalNodes {
			return nil, fmt.Errorf("HFS+ catalog: leaf chain reaches node %d again or out of range", n)
		}
		seen[n] = true
		if err := cat.read(node, int64(n)*nodeSize); err != nil {
			return nil, fmt.Errorf("HFS+ catalog node %d: %w", n, err)
		}
		if int8(node[8]) != -1 { // kBTLeafNode
			return nil, fmt.Errorf("HFS+ catalog node %d: kind %d in the leaf chain", n, int8(node[8]))
		}
		count := int(binary.BigEndian.Uint16(node[10:]))
		for i := range count {
			at := nodeSize - 2*int64(i+1)
			if at < 14 {
				return nil, fmt.Errorf("HFS+ catalog node %d: %d records do not fit", n, count)
			}
			off := int64(binary.BigEndian.Uint16(node[at:]))
			rec, err := hfsRecord(node, off)
			if err != nil {
				return nil, fmt.Errorf("HFS+ catalog node %d record %d: %w", n, i, err)
			}
			switch rec.kind {
			case 1: // folder
				folders[binary.BigEndian.Uint32(rec.data[8:])] = named{rec.parent, rec.name}
			case 2: // file
				if len(rec.data) < 56 {
					return nil, fmt.Errorf("HFS+ catalog node %d record %d: short file record", n, i)
				}
				if string(rec.data[48:52]) == "hlnk" && string(rec.data[52:56]) == "hfs+" {
					links = append(links, link{named{rec.parent, rec.name}, binary.BigEndian.Uint32(rec.data[44:])})
				}
			}
		}
	}
	// The root folder (ID 2) is the volume: paths are below it.
	dir := func(id uint32) (string, error) {
		var parts []string
		for depth := 0; id != 2; depth++ {
			f, ok := folders[id]
			if !ok || depth > 1000 {
				return "", fmt.Errorf("HFS+ catalog: folder %d has no record", id)
			}
			parts = append(parts, f.name)
			id = f.parent
		}
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
		return strings.Join(parts, "/"), nil
	}
	out := map[string]uint32{}
	for _, l := range links {
		d, err := dir(l.parent)
		if err != nil {
			return nil, err
		}
		out[path.Join(d, l.name)] = l.inode
	}
	return out, nil
}

// hfsExtent is a run of allocation blocks.
type hfsExtent struct{ start, count int64 }

// hfsFork reads a fork's bytes through its extents.
type hfsFork struct {
	r         io.ReaderAt
	blockSize int64
	extents   []hfsExtent
	size      int64
}

// read fills b from fork offset off.
func (f *hfsFork) read(b []byte, off int64) error {
	if off < 0 || off+int64(len(b)) > f.size {
		return fmt.Errorf("bytes %d..%d outside the %d-byte fork", off, off+int64(len(b)), f.size)
	}
	for len(b) > 0 {
		var pos int64 = -1
		var room int64
		base := int64(0)
		for _, e := range f.extents {
			n := e.count * f.blockSize
			if off < base+n {
				pos = e.start*f.blockSize + off - base
				room = base + n - off
				break
			}
			base += n
		}
		if pos < 0 {
			return errors.New("offset past the fork's extents")
		}
		k := min(int64(len(b)), room)
		if _, err := f.r.ReadAt(b[:k], pos); err != nil {
			return err
		}
		b, off = b[k:], off+k
	}
	return nil
}

// hfsCatalogRecord is one leaf record: its key's parent and name, its
// record type and the record's bytes.
type hfsCatalogRecord struct {
	parent uint32
	name   string
	kind   uint16
	data   []byte
}

// hfsRecord decodes the leaf record at off in node.
func hfsRecord(node []byte, off int64) (hfsCatalogRecord, error) {
	if off+8 > int64(len(node)) {
		return hfsCatalogRecord{}, fmt.Errorf("offset %d outside the node", off)
	}
	keyLen := int64(binary.BigEndian.Uint16(node[off:]))
	nameLen := int64(binary.BigEndian.Uint16(node[off+6:]))
	if keyLen < 6 || 6+2*nameLen > keyLen || off+2+keyLen+2 > int64(len(node)) {
		return hfsCatalogRecord{}, fmt.Errorf("key of %d bytes, name of %d units", keyLen, nameLen)
	}
	units := make([]uint16, nameLen)
	for i := range units {
		units[i] = binary.BigEndian.Uint16(node[off+8+2*int64(i):])
	}
	data := node[off+2+keyLen:]
	return hfsCatalogRecord{
		parent: binary.BigEndian.Uint32(node[off+2:]),
		// Names are taken as stored (UTF-16, decomposed); a name 7-Zip
		// shows otherwise matches no listed path, and its link is then
		// refused by name as unresolved.
		name: string(utf16.Decode(units)),
		kind: binary.BigEndian.Uint16(data),
		data: data,
	}, nil
}

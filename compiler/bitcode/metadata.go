package bitcode

import (
	"github.com/airpipe/airpipe/compiler/air"
)

// mdFixup is a node whose operands are resolved when its block ends
// (nodes may refer to nodes defined after them).
type mdFixup struct {
	node *air.MDNode
	ops  []uint64
	old  bool // OLD_NODE pairs (type, value)
	pos  uint64
}

// diNames are the specialised debug-info records, kept raw as air.DINode.
var diNames = map[uint64]string{
	7: "DILocation", 12: "GenericDINode", 13: "DISubrange", 14: "DIEnumerator", 15: "DIBasicType",
	16: "DIFile", 17: "DIDerivedType", 18: "DICompositeType", 19: "DISubroutineType", 20: "DICompileUnit",
	21: "DISubprogram", 22: "DILexicalBlock", 23: "DILexicalBlockFile", 24: "DINamespace",
	25: "DITemplateTypeParameter", 26: "DITemplateValueParameter", 27: "DIGlobalVariable",
	28: "DILocalVariable", 29: "DIExpression", 30: "DIObjCProperty", 31: "DIImportedEntity", 32: "DIModule",
	33: "DIMacro", 34: "DIMacroFile", 37: "DIGlobalVariableExpression", 40: "DILabel", 41: "DIStringType",
	44: "DICommonBlock", 45: "DIGenericSubrange", 46: "DIArgList", 47: "DIAssignID",
}

// maxMD bounds the metadata list independently of input size.
const maxMD = 1 << 22

func (r *reader) readMetadata() *Error {
	c := r.c
	const blk = metadataID
	var pendingName string
	haveName := false
	if err := r.eachRecord(func(code uint64) *Error {
		if len(r.md) > maxMD {
			return malformed(c.r.pos, "METADATA_BLOCK", "more than %d metadata", maxMD)
		}
		if r.breakHook != nil {
			r.breakHook(blk, code, c.ops)
		}
		ops := c.ops
		switch code {
		case 35: // STRINGS [count, offsetsize, blob]
			if err := r.mdStrings(); err != nil {
				return err
			}
		case 1: // STRING_OLD
			r.md = append(r.md, &air.MDString{Value: opsString(ops)})
		case 2: // VALUE [ty, val]
			if len(ops) != 2 {
				return malformed(c.r.pos, "METADATA_BLOCK/VALUE", "%d operands", len(ops))
			}
			v, err := r.mdValue(ops[0], ops[1])
			if err != nil {
				return err
			}
			r.md = append(r.md, v)
		case 3, 5, 8, 9: // NODE, DISTINCT_NODE, OLD_NODE, OLD_FN_NODE
			n := &air.MDNode{Distinct: code == 5}
			old := code == 8 || code == 9
			if old && len(ops)%2 != 0 {
				return malformed(c.r.pos, recordName(blk, code), "odd operand count")
			}
			r.mdPending = append(r.mdPending, mdFixup{node: n, ops: append([]uint64(nil), ops...), old: old, pos: c.r.pos})
			r.md = append(r.md, n)
		case 4: // NAME
			pendingName = opsString(ops)
			haveName = true
		case 10: // NAMED_NODE [ids]
			if !haveName {
				return malformed(c.r.pos, "METADATA_BLOCK/NAMED_NODE", "no NAME before it")
			}
			nm := &air.NamedMD{Name: pendingName}
			haveName = false
			r.mdPending = append(r.mdPending, mdFixup{ops: append([]uint64(nil), ops...), pos: c.r.pos})
			r.namedPending = append(r.namedPending, namedFixup{nm, len(r.mdPending) - 1})
			r.m.NamedMD = append(r.m.NamedMD, nm)
		case 6: // KIND [id, name]
			if err := r.mdKind(); err != nil {
				return err
			}
		case 38, 39: // INDEX_OFFSET, INDEX: lazy-loading offsets, not needed
		case 36: // GLOBAL_DECL_ATTACHMENT [valueid, (kind, md)...]
			if len(ops)%2 != 1 {
				return malformed(c.r.pos, "METADATA_BLOCK/GLOBAL_DECL_ATTACHMENT", "even operand count")
			}
			r.globalAttach = append(r.globalAttach, append([]uint64(nil), ops...))
		default:
			name, ok := diNames[code]
			if !ok {
				return unknownRecord(c.r.pos, blk, code)
			}
			d := &air.DINode{Kind: name, Ops: append([]uint64(nil), ops...)}
			if len(ops) > 0 {
				d.Distinct = ops[0]&1 != 0
			}
			r.diPending = append(r.diPending, d)
			r.md = append(r.md, d)
		}
		return nil
	}); err != nil {
		return err
	}
	return r.resolveMD()
}

type namedFixup struct {
	nm  *air.NamedMD
	fix int
}

func (r *reader) mdStrings() *Error {
	c := r.c
	ops := c.ops
	if len(ops) < 2 || c.blob == nil {
		return malformed(c.r.pos, "METADATA_BLOCK/STRINGS", "no count, offset or blob")
	}
	count, off := ops[0], ops[1]
	blob := c.blob
	if off > uint64(len(blob)) || count > uint64(len(blob))*8/6+1 {
		return malformed(c.r.pos, "METADATA_BLOCK/STRINGS", "count %d, offset %d for a %d-byte blob", count, off, len(blob))
	}
	if uint64(len(r.md))+count > maxMD {
		return malformed(c.r.pos, "METADATA_BLOCK/STRINGS", "too many strings")
	}
	// lengths are vbr6 values in a bitstream padded to 32 bits
	pad := (off + 3) &^ 3
	lb := make([]byte, pad)
	copy(lb, blob[:off])
	br := newBitReader(lb)
	chars := blob[off:]
	for i := uint64(0); i < count; i++ {
		n := br.vbr(6)
		if br.err != nil {
			return malformed(c.r.pos, "METADATA_BLOCK/STRINGS", "string lengths truncated")
		}
		if n > uint64(len(chars)) {
			return malformed(c.r.pos, "METADATA_BLOCK/STRINGS", "string %d of %d bytes past the blob", i, n)
		}
		r.md = append(r.md, &air.MDString{Value: string(chars[:n])})
		chars = chars[n:]
	}
	return nil
}

func (r *reader) mdKind() *Error {
	ops := r.c.ops
	if len(ops) < 1 {
		return malformed(r.c.r.pos, "METADATA_KIND", "no kind id")
	}
	r.mdKinds[ops[0]] = opsString(ops[1:])
	return nil
}

func (r *reader) readMDKinds() *Error {
	c := r.c
	return r.eachRecord(func(code uint64) *Error {
		if code != 6 {
			return unknownRecord(c.r.pos, metadataKindID, code)
		}
		if err := r.mdKind(); err != nil {
			return err
		}
		return nil
	})
}

// mdValue makes a value-as-metadata from a type id and a value id.
func (r *reader) mdValue(tyID, valID uint64) (air.Metadata, *Error) {
	ty, err := r.typeAt(tyID, "METADATA_BLOCK/VALUE")
	if err != nil {
		return nil, err
	}
	switch ty.(type) {
	case *air.MetadataType, *air.VoidType:
		return nil, malformed(r.c.r.pos, "METADATA_BLOCK/VALUE", "value of type %s", ty)
	}
	if valID >= uint64(len(r.values)) || r.values[valID] == nil {
		if fs := r.curFn; fs != nil && valID < uint64(len(r.values))+uint64(len(r.c.r.buf))*8 {
			// function-local metadata naming an instruction defined later
			v := &air.MDValue{Value: &fwdRef{id: valID, typ: ty}}
			fs.mdFwd = append(fs.mdFwd, v)
			fs.fwd = true
			return v, nil
		}
		return nil, malformed(r.c.r.pos, "METADATA_BLOCK/VALUE", "value id %d out of range", valID)
	}
	return &air.MDValue{Value: r.values[valID]}, nil
}

// mdRef resolves metadata id (no +1 bias).
func (r *reader) mdRef(id uint64, pos uint64) (air.Metadata, *Error) {
	if id >= uint64(len(r.md)) {
		return nil, malformed(pos, "METADATA_BLOCK", "metadata id %d out of range (%d)", id, len(r.md))
	}
	return r.md[id], nil
}

func (r *reader) resolveMD() *Error {
	for i := range r.mdPending {
		f := &r.mdPending[i]
		if f.node == nil {
			continue // named node, below
		}
		if f.old {
			f.node.Ops = make([]air.Metadata, 0, len(f.ops)/2)
			for j := 0; j < len(f.ops); j += 2 {
				ty, err := r.typeAt(f.ops[j], "METADATA_BLOCK/OLD_NODE")
				if err != nil {
					return err
				}
				switch ty.(type) {
				case *air.MetadataType:
					m, err := r.mdRef(f.ops[j+1], f.pos)
					if err != nil {
						return err
					}
					f.node.Ops = append(f.node.Ops, m)
					if m == air.Metadata(f.node) {
						f.node.Distinct = true
					}
				case *air.VoidType:
					f.node.Ops = append(f.node.Ops, nil)
				default:
					v, err := r.mdValue(f.ops[j], f.ops[j+1])
					if err != nil {
						return err
					}
					f.node.Ops = append(f.node.Ops, v)
				}
			}
			continue
		}
		f.node.Ops = make([]air.Metadata, len(f.ops))
		for j, id := range f.ops {
			if id == 0 {
				continue
			}
			m, err := r.mdRef(id-1, f.pos)
			if err != nil {
				return err
			}
			f.node.Ops[j] = m
			if m == air.Metadata(f.node) {
				// LLVM cannot unique a node that refers to itself: it is distinct
				f.node.Distinct = true
			}
		}
	}
	for _, nf := range r.namedPending {
		f := r.mdPending[nf.fix]
		nf.nm.Nodes = make([]air.Metadata, len(f.ops))
		for j, id := range f.ops {
			m, err := r.mdRef(id, f.pos)
			if err != nil {
				return err
			}
			nf.nm.Nodes[j] = m
		}
	}
	for _, d := range r.diPending {
		d.Refs = make([]air.Metadata, len(d.Ops))
		for j, id := range d.Ops {
			if id > 0 && id-1 < uint64(len(r.md)) {
				d.Refs[j] = r.md[id-1]
			}
		}
		if d.Kind == "DILocation" && len(d.Ops) > 3 {
			// a location's scope is required, so its id carries no +1
			d.Refs[3] = nil
			if d.Ops[3] < uint64(len(r.md)) {
				d.Refs[3] = r.md[d.Ops[3]]
			}
		}
	}
	r.diPending = r.diPending[:0]
	r.mdPending = r.mdPending[:0]
	r.namedPending = r.namedPending[:0]
	for _, ops := range r.globalAttach {
		if ops[0] >= uint64(r.nGlobalValues()) {
			return malformed(r.c.r.pos, "METADATA_BLOCK/GLOBAL_DECL_ATTACHMENT", "value %d", ops[0])
		}
		att, err := r.attachments(ops[1:])
		if err != nil {
			return err
		}
		switch g := r.values[ops[0]].(type) {
		case *air.GlobalVariable:
			g.Attached = append(g.Attached, att...)
		case *air.Function:
			g.Attached = append(g.Attached, att...)
		default:
			return malformed(r.c.r.pos, "METADATA_BLOCK/GLOBAL_DECL_ATTACHMENT", "value %d is not a global", ops[0])
		}
	}
	r.globalAttach = r.globalAttach[:0]
	return nil
}

// nGlobalValues is the number of globals and functions.
func (r *reader) nGlobalValues() int { return len(r.m.Globals) + len(r.m.Functions) }

// attachments decodes (kind, md id) pairs.
func (r *reader) attachments(ops []uint64) ([]air.Attachment, *Error) {
	if len(ops)%2 != 0 {
		return nil, malformed(r.c.r.pos, "METADATA_ATTACHMENT", "odd operand count")
	}
	out := make([]air.Attachment, 0, len(ops)/2)
	for i := 0; i < len(ops); i += 2 {
		name, ok := r.mdKinds[ops[i]]
		if !ok {
			return nil, malformed(r.c.r.pos, "METADATA_ATTACHMENT", "metadata kind %d undefined", ops[i])
		}
		m, err := r.mdRef(ops[i+1], r.c.r.pos)
		if err != nil {
			return nil, err
		}
		out = append(out, air.Attachment{Kind: name, Node: m})
	}
	return out, nil
}

package mtlb

// FunctionConstant is one entry of a CNST tag: a function constant.
type FunctionConstant struct {
	Name     string `json:"name"`
	Type     uint8  `json:"type"`
	TypeName string `json:"type_name"`
	Index    uint16 `json:"index"`
	Required bool   `json:"required"`
}

// VertexAttribute is one entry of a VATT tag. Raw is the 16-bit field after
// the name: on the corpus its low bits are the attribute index and bit 15 is
// always set (meaning unknown).
type VertexAttribute struct {
	Name  string `json:"name"`
	Index uint16 `json:"index"`
	Raw   uint16 `json:"raw"`
}

// decodeMetadataTag sets t.Value for metadata tags whose layout is known or
// measured on the corpus (CNST, VATT, VATY, DEPF) and reports tags seed 000
// does not name as features.
func decodeMetadataTag(t *Tag, unknown func(string)) {
	switch t.Name {
	case "RETR", "ARGR", "DEBI":
		// Named by seed 000; layout unknown: kept raw.
	case "CNST":
		if v, ok := decodeConstants(t.Data); ok {
			t.Value = v
		}
	case "VATT":
		if v, ok := decodeAttributes(t.Data); ok {
			t.Value = v
		}
	case "VATY":
		if v, ok := decodeTypeList(t.Data); ok {
			t.Value = v
		}
	case "DEPF":
		t.Value = decodeStrings(t.Data)
	default:
		unknown("container.tag." + printableTag(t.Name))
	}
}

// decodeConstants reads a CNST tag: a 16-bit count, then per constant a
// NUL-terminated name, an 8-bit data type, a 16-bit index and an 8-bit
// required flag. ok is false when the content does not fit that layout.
func decodeConstants(b []byte) ([]FunctionConstant, bool) {
	if len(b) < 2 {
		return nil, false
	}
	n := int(le.Uint16(b))
	b = b[2:]
	if n*5 > len(b) {
		return nil, false
	}
	out := make([]FunctionConstant, 0, n)
	for range n {
		name, k, ok := cString(b)
		if !ok || len(b)-k < 4 {
			return nil, false
		}
		c := FunctionConstant{Name: name, Type: b[k], TypeName: DataTypeName(b[k]), Index: le.Uint16(b[k+1:]), Required: b[k+3] != 0}
		out = append(out, c)
		b = b[k+4:]
	}
	return out, len(b) == 0
}

// decodeAttributes reads a VATT tag: a 16-bit count, then per attribute a
// NUL-terminated name and a 16-bit field.
func decodeAttributes(b []byte) ([]VertexAttribute, bool) {
	if len(b) < 2 {
		return nil, false
	}
	n := int(le.Uint16(b))
	b = b[2:]
	if n*3 > len(b) {
		return nil, false
	}
	out := make([]VertexAttribute, 0, n)
	for range n {
		name, k, ok := cString(b)
		if !ok || len(b)-k < 2 {
			return nil, false
		}
		raw := le.Uint16(b[k:])
		out = append(out, VertexAttribute{Name: name, Index: raw & 0x7fff, Raw: raw})
		b = b[k+2:]
	}
	return out, len(b) == 0
}

// decodeTypeList reads a VATY tag: a 16-bit count, then one 8-bit data type
// code per vertex attribute. It returns the type names.
func decodeTypeList(b []byte) ([]string, bool) {
	if len(b) < 2 || int(le.Uint16(b)) != len(b)-2 {
		return nil, false
	}
	out := make([]string, 0, len(b)-2)
	for _, c := range b[2:] {
		out = append(out, DataTypeName(c))
	}
	return out, true
}

// decodeStrings splits NUL-separated text; nil when b holds none.
func decodeStrings(b []byte) []string {
	var out []string
	for len(b) > 0 {
		s, n, ok := cString(b)
		if !ok {
			s, n = string(b), len(b)
		}
		out = append(out, s)
		b = b[n:]
	}
	return out
}

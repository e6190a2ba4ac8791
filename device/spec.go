package device

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// SpecValue is the value of one SPIR-V specialization constant: ID is the constant's SpecId
// decoration and Word its 32-bit value: a float's bits, an integer in two's complement, or a
// VkBool32 (0 or 1) for a boolean. airpipe's translator gives Metal function constant k the
// SpecId 100+k; the SpecIds that carry a compute module's workgroup size are the device's own
// (it sets them from DispatchArgs.Threads).
type SpecValue struct {
	ID, Word uint32
}

// specWidth is the bit width of the scalar type of the module's specialization constant with
// SpecId id: 1 for a boolean, 8..64 for an integer or float, 0 when the module declares none.
func (m *spirvModule) specWidth(id uint32) uint32 {
	for rid, sid := range m.specIDs {
		if sid != id {
			continue
		}
		t, ok := m.specTypes[rid]
		if !ok {
			continue
		}
		switch ty := m.types[t]; {
		case len(ty) >= 2 && ty[0]&0xffff == opTypeBool:
			return 1
		case len(ty) >= 3 && (ty[0]&0xffff == opTypeInt || ty[0]&0xffff == opTypeFloat):
			return ty[2]
		}
	}
	return 0
}

// workgroupSpecIDs returns the SpecIds of the constants that carry entry's workgroup size
// (those withLocalSize sets), or none when the size is a literal.
func (m *spirvModule) workgroupSpecIDs(entry uint32) map[uint32]bool {
	var ids []uint32
	if m.wgSizeID != 0 {
		ids = m.composites[m.wgSizeID]
	} else if l, ok := m.localSizeIDs[entry]; ok {
		ids = l[:]
	}
	out := map[uint32]bool{}
	for _, id := range ids {
		if sid, ok := m.specIDs[id]; ok {
			out[sid] = true
		}
	}
	return out
}

// checkSpec validates the specialization given for module m: no SpecId twice, none of the
// reserved ones (the workgroup size's), a boolean's word 0 or 1, and a declared constant
// 32 bits wide (the entries are 4 bytes; Vulkan requires an entry's size to match). SpecIds
// the module does not declare are allowed: Vulkan ignores them.
func checkSpec(fn string, m *spirvModule, vs []SpecValue, reserved map[uint32]bool) error {
	seen := make(map[uint32]bool, len(vs))
	for i, v := range vs {
		if seen[v.ID] {
			return argErr(fn, i, "specialization: SpecId %d given twice", v.ID)
		}
		seen[v.ID] = true
		if reserved[v.ID] {
			return argErr(fn, i, "specialization: SpecId %d carries the workgroup size, which the device sets from Threads", v.ID)
		}
		switch w := m.specWidth(v.ID); w {
		case 0, 32:
		case 1:
			if v.Word > 1 {
				return argErr(fn, i, "specialization: SpecId %d is a boolean; its word must be 0 or 1, not %d", v.ID, v.Word)
			}
		default:
			return argErr(fn, i, "specialization: SpecId %d is a %d-bit constant; only 32-bit and boolean ones can be given", v.ID, w)
		}
	}
	return nil
}

// specKey is a canonical string for a specialization: its values sorted by SpecId.
func specKey(vs []SpecValue) string {
	if len(vs) == 0 {
		return ""
	}
	s := slices.Clone(vs)
	slices.SortFunc(s, func(a, b SpecValue) int { return cmp.Compare(a.ID, b.ID) })
	var b strings.Builder
	for _, v := range s {
		b.WriteString(strconv.FormatUint(uint64(v.ID), 10))
		b.WriteByte('=')
		b.WriteString(strconv.FormatUint(uint64(v.Word), 16))
		b.WriteByte(';')
	}
	return b.String()
}

// mergeSpec returns base (the device's own constants, SpecId -> word) with vs added; base is
// not modified. It is nil when both are empty.
func mergeSpec(base map[uint32]uint32, vs []SpecValue) map[uint32]uint32 {
	if len(vs) == 0 {
		return base
	}
	out := make(map[uint32]uint32, len(base)+len(vs))
	for id, w := range base {
		out[id] = w
	}
	for _, v := range vs {
		out[v.ID] = v.Word
	}
	return out
}
